#!/usr/bin/python3
"""A LOWER BOUND of NeMo Curator's Python path over a WARC: the least work that path must do
per record, in the same libraries it uses, and nothing else.

Per record: read the .warc.gz with Python's gzip module (warcio also decompresses through
zlib from Python), split the WARC header and block and, in response records, the HTTP status
and headers in Python (what warcio's parser does); keep text/html responses; parse the payload
with lxml.html (jusText's parser); drop head/script/style; and walk the tree in Python, gluing
text into paragraphs at block-level tags and counting link characters (what jusText's
preprocessing does before it classifies anything).

Left out, all of which NeMo also does, so its real cost is higher: charset detection and
decoding in Python, lxml's Cleaner pass, jusText's classification and revision, language
detection, and the DataFrame/Dask plumbing around it. A ratio against this floor therefore
understates winnow's advantage over NeMo.

With --classify it also does jusText's context-free classification in Python (words split,
stop-word density against the English Snowball list, link density, length classes), still
without the revision passes, the Cleaner or language detection: a tighter lower bound.

Usage: bench/nemo_floor.py [--classify] FILE.warc.gz   (prints records, paragraphs, seconds)
Needs python3-lxml (Debian's /usr/bin/python3).
"""
import gzip
import sys
import time

import lxml.etree
import lxml.html

BLOCK_TAGS = {
    "body", "blockquote", "caption", "center", "col", "colgroup", "dd", "div", "dl", "dt",
    "fieldset", "form", "legend", "optgroup", "option", "p", "pre", "table", "td", "textarea",
    "tfoot", "th", "thead", "tr", "ul", "li", "h1", "h2", "h3", "h4", "h5", "h6",
}
KILLED_TAGS = {"head", "script", "style"}


def records(stream):
    """(WARC headers, block bytes) per record, read as warcio reads them."""
    while True:
        line = stream.readline()
        if not line:
            return
        if not line.strip():
            continue  # the blank lines between records
        if not line.startswith(b"WARC/"):
            raise ValueError(f"not a WARC record: {line[:40]!r}")
        headers = {}
        while True:
            line = stream.readline()
            if not line or line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode("utf-8", "replace").partition(":")
            headers[name.strip().lower()] = value.strip()
        block = stream.read(int(headers.get("content-length", "0")))
        yield headers, block


def http_response(block):
    """(status, headers, payload) of an HTTP response block."""
    head, _, payload = block.partition(b"\r\n\r\n")
    lines = head.decode("iso-8859-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1]) if len(lines[0].split(" ")) > 1 else 0
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, payload


def paragraphs(payload):
    """jusText's preprocessing, minus the Cleaner: text paragraphs split at block tags."""
    try:
        root = lxml.html.fromstring(payload)
    except (lxml.etree.ParserError, ValueError):
        return []
    for element in list(root.iter(*KILLED_TAGS)):
        parent = element.getparent()
        if parent is not None:
            parent.remove(element)
    out, text, links, in_link = [], [], 0, 0
    for event, element in lxml.etree.iterwalk(root, events=("start", "end")):
        tag = element.tag if isinstance(element.tag, str) else ""
        if event == "start":
            if tag in BLOCK_TAGS:
                if text:
                    out.append((" ".join("".join(text).split()), links))
                text, links = [], 0
            if tag == "a":
                in_link += 1
            if element.text:
                text.append(element.text)
                if in_link:
                    links += len(element.text)
        else:
            if tag == "a":
                in_link -= 1
            if tag in BLOCK_TAGS and text:
                out.append((" ".join("".join(text).split()), links))
                text, links = [], 0
            if element.tail:
                text.append(element.tail)
                if in_link:
                    links += len(element.tail)
    if text:
        out.append((" ".join("".join(text).split()), links))
    return [p for p in out if p[0]]


def english_stop_words():
    import re
    with open("/usr/share/perl5/Lingua/StopWords/EN.pm", encoding="utf-8") as f:
        source = f.read()
    body = source[source.index("sub _stopwords"):]
    return frozenset(w.lower() for w in re.search(r"qw\(([^)]*)\)", body).group(1).split())


def classify(ps, stop_words):
    """jusText's context-free classes (NeMo's thresholds)."""
    classes = []
    for text, links in ps:
        length = len(text)
        words = text.split()
        stops = sum(1 for w in words if w.lower() in stop_words) / len(words) if words else 0.0
        if length and links / length > 0.2:
            classes.append("bad")
        elif "\xa9" in text or "&copy" in text:
            classes.append("bad")
        elif length < 70:
            classes.append("bad" if links else "short")
        elif stops >= 0.32:
            classes.append("good" if length > 200 else "neargood")
        elif stops >= 0.30:
            classes.append("neargood")
        else:
            classes.append("bad")
    return classes


def main():
    do_classify = "--classify" in sys.argv[1:]
    path = [a for a in sys.argv[1:] if not a.startswith("--")][0]
    stop_words = english_stop_words() if do_classify else None
    n_good = 0
    start = time.perf_counter()
    n_records = n_html = n_paragraphs = n_chars = 0
    with gzip.open(path, "rb") as stream:
        for headers, block in records(stream):
            if headers.get("warc-type") != "response":
                continue
            n_records += 1
            status, http_headers, payload = http_response(block)
            if "html" not in http_headers.get("content-type", ""):
                continue
            n_html += 1
            ps = paragraphs(payload)
            n_paragraphs += len(ps)
            n_chars += sum(len(t) for t, _ in ps)
            if do_classify:
                n_good += classify(ps, stop_words).count("good")
    seconds = time.perf_counter() - start
    print(f"records={n_records} html={n_html} paragraphs={n_paragraphs} chars={n_chars} "
          f"good={n_good} seconds={seconds:.3f}")


if __name__ == "__main__":
    main()
