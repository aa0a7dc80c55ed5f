#!/usr/bin/python3
"""NeMo Curator's Python WARC -> text path, re-created in one file: the baseline winnow's
WARC read + jusText extraction is measured against (issue #5), and the reference its output
is compared with (bench/nemo_parity.py).

Neither NeMo Curator nor its dependencies warcio, jusText, charset_normalizer and pycld2 can
be installed here (not in Debian, no network), so this file re-implements, from their public
behaviour and in the libraries they use where Debian has them, what NeMo does per WARC record
(CommonCrawlWARCIterator + CommonCrawlWARCExtractor with JusTextExtractor, NeMo's defaults):

1. warcio's ArchiveIterator: the .warc.gz is inflated in Python through zlib in 16 KiB
   blocks, one gzip member after another; the WARC header lines and the HTTP status line and
   headers are read and split line by line in Python (StatusAndHeadersParser: each line
   decoded as UTF-8, falling back to ISO-8859-1, continuation lines joined); only `response`
   records are kept, and of those every one (NeMo does not look at the Content-Type); the
   payload is the HTTP body read through a length-limited reader, de-chunked and inflated
   when the headers say so; the rest of the record is read to its end.
2. decode_html: bytes.decode("utf-8"); on UnicodeDecodeError the encoding is detected and
   the bytes decoded with it, the record dropped when detection fails or decoding raises.
   NeMo uses charset_normalizer.detect (older versions chardet.detect); charset_normalizer is
   not installed here, so chardet 5.1's detect (same interface, also pure Python) is used.
3. lang_detect: NeMo runs pycld2.detect over the whole decoded HTML and takes the top
   language to pick jusText's stop list. pycld2 is not available, so the language is fixed
   to English. CLD2 is C code and fast (about 1 s over bench/warc_extract.sh's 55 MB WARC,
   some 5% of this file's time), so leaving it out makes this baseline a slight
   UNDER-estimate of NeMo's cost.
4. jusText 3.0 as NeMo calls it (length_low=70, length_high=200, stopwords_low=0.30,
   stopwords_high=0.32, max_link_density=0.2, max_heading_distance=200, no_headings=False):
   - html_to_dom: the str is encoded to UTF-8 up front, then lxml.html.fromstring(str,
     parser=lxml.html.HTMLParser()), falling back to those bytes when lxml refuses a str with
     an encoding declaration;
   - preprocessor: a copy of the tree cleaned by lxml.html.clean.Cleaner with jusText's
     settings (scripts, comments, style, embedded and forms removed, <head> killed; links,
     meta, javascript, frames, page structure, processing instructions, annoying and unknown
     tags and unsafe attributes left alone);
   - ParagraphMaker driven by lxml.sax.saxify: a paragraph starts at each PARAGRAPH_TAGS
     element's start and end and at a second consecutive <br>; whitespace-only text nodes are
     ignored; each text node is whitespace-normalised (runs holding a line break become "\\n",
     others " ") and counted as link characters inside <a>; each paragraph records the dom
     path ("html.body.div.h2") and xpath where it starts. As in jusText, a paragraph's text is
     a property recomputed on each use (join, strip, normalise);
   - classify_paragraphs (context-free: link density, copyright sign, select, length, stop-word
     density over str.split() words lowercased) and revise_paragraph_classification
     (short headings near good text, short paragraphs by their neighbours with the two-sided
     near-good search, near-good paragraphs, then bad headings near good text);
   - the text is the good paragraphs joined with "\\n\\n"; a record without any is dropped.

Stop words: jusText's own English list (frequency-derived) is not available, so this uses the
English Snowball list from Debian's liblingua-stopwords-perl, read exactly as winnow's
html_extract reads it by default (the qw() list of `sub _stopwords` in Lingua/StopWords/EN.pm,
lowercased), so that a comparison with winnow isolates the algorithm.

Left out: NeMo's Dask/Ray plumbing and DataFrame building, the per-record metadata dict, file
download and output writing (with --write-jsonl this file writes one JSON line per kept record,
inside the timed loop, as winnow writes its output), and pycld2 (above). Each of these costs
NeMo time, so this is a lower estimate of NeMo's per-core cost, though far closer than
bench/nemo_floor.py, which stops after lxml's parse and a paragraph walk.

Usage: bench/nemo_path.py [--write-jsonl OUT] [--winnow-deviations LIST] [--language-from-url]
                          [--cache-text] FILE.warc.gz

--cache-text (sensitivity only) computes each paragraph's text once, which jusText does not:
how much of this baseline's time that recomputation is.

--language-from-url stands in for pycld2 on sites whose file names carry the language
("ch01.de.html", as debian-reference's): the Snowball list of that language, and the page
dropped, as NeMo drops it, when there is none (ja, zh); English when the URL says nothing.

--winnow-deviations is for parity analysis only, never for timing NeMo: it applies, from a
comma-separated LIST, the deliberate deviations from jusText that winnow's justext.h documents,
so that what remains between the two outputs is undocumented divergence:
  html5-blocks  HTML5 sectioning and other block tags also start paragraphs;
  blank-nodes   a whitespace-only text node inside a paragraph with text adds one separator
                (jusText drops it, gluing "<b>a</b> <i>b</i>" into "ab").

Prints: records (response records), kept (records with text), dropped_decode (records whose
charset could not be decoded), warc_mb (uncompressed WARC, 10^6 bytes), mb_per_s, records_per_s
and seconds (last, for bench/warc_extract.sh). Needs Debian's /usr/bin/python3 with
python3-lxml (4.9: lxml.html.clean and lxml.sax) and python3-chardet.
"""
import functools
import json
import re
import sys
import time
import zlib

import chardet
import lxml.html
import lxml.sax
from lxml.html.clean import Cleaner
from xml.sax.handler import ContentHandler

# ---------------------------------------------------------------------------------------------
# WARC reading (warcio's ArchiveIterator, re-created)

BLOCK_SIZE = 16384  # warcio's read block


class DecompressingReader:
    """A buffered reader over a file of concatenated gzip members (or plain bytes), inflating
    block by block in Python as warcio's DecompressingBufferedReader does."""

    def __init__(self, raw):
        self.raw = raw
        self.buf = b""
        self.pos = 0
        self.inflated = 0  # bytes of uncompressed WARC produced
        self.decompressor = None
        self.gzipped = None  # decided on the first block

    def _fill(self):
        """Appends one more inflated block to the buffer; False at the end of the file."""
        while True:
            if self.decompressor is not None and self.decompressor.unused_data:
                data = self.decompressor.unused_data  # the next gzip member starts here
                self.decompressor = zlib.decompressobj(16 + zlib.MAX_WBITS)
            else:
                data = self.raw.read(BLOCK_SIZE)
                if not data:
                    return False
            if self.gzipped is None:
                self.gzipped = data[:2] == b"\x1f\x8b"
            if self.gzipped:
                if self.decompressor is None or self.decompressor.eof:
                    self.decompressor = zlib.decompressobj(16 + zlib.MAX_WBITS)
                data = self.decompressor.decompress(data)
                if not data:
                    continue
            self.inflated += len(data)
            if self.pos:
                self.buf = self.buf[self.pos:]
                self.pos = 0
            self.buf += data
            return True

    def readline(self):
        while True:
            end = self.buf.find(b"\n", self.pos)
            if end >= 0:
                line = self.buf[self.pos:end + 1]
                self.pos = end + 1
                return line
            if not self._fill():
                line = self.buf[self.pos:]
                self.pos = len(self.buf)
                return line

    def read(self, length):
        while len(self.buf) - self.pos < length:
            if not self._fill():
                break
        data = self.buf[self.pos:self.pos + length]
        self.pos += len(data)
        return data


class LimitReader:
    """At most `limit` bytes of the underlying reader (warcio's LimitReader)."""

    def __init__(self, stream, limit):
        self.stream = stream
        self.left = limit

    def readline(self):
        if self.left <= 0:
            return b""
        line = self.stream.readline()
        if len(line) > self.left:  # a line running past the record: give back nothing more
            line = line[:self.left]
        self.left -= len(line)
        return line

    def read(self, length=-1):
        if length < 0 or length > self.left:
            length = self.left
        data = self.stream.read(length)
        self.left -= len(data)
        return data


class StatusAndHeaders:
    def __init__(self, statusline, headers, protocol):
        self.statusline = statusline
        self.headers = headers  # [(name, value)] in order
        self.protocol = protocol

    def get_header(self, name, default=None):
        name = name.lower()
        for key, value in self.headers:
            if key.lower() == name:
                return value
        return default


def decode_header_line(line):
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return line.decode("iso-8859-1")


def parse_status_and_headers(stream):
    """A status line and header lines up to a blank line (warcio's StatusAndHeadersParser)."""
    line = stream.readline()
    while line and not line.rstrip():  # blank lines before a record
        line = stream.readline()
    if not line:
        raise EOFError
    statusline = decode_header_line(line).rstrip()
    protocol, _, status = statusline.partition(" ")
    headers = []
    line = decode_header_line(stream.readline()).rstrip()
    while line:
        name, sep, value = line.partition(":")
        if not sep:
            name, value = line, ""
        value = value.strip()
        # Continuation lines (starting with a space or tab) belong to this header.
        next_line = decode_header_line(stream.readline())
        while next_line.startswith((" ", "\t")) and next_line.strip():
            value += " " + next_line.strip()
            next_line = decode_header_line(stream.readline())
        headers.append((name.strip(), value))
        line = next_line.rstrip()
    return StatusAndHeaders(status, headers, protocol)


def dechunk(data):
    """The body of a chunked HTTP payload (warcio's ChunkedDataReader); raw data when it is
    not valid chunking."""
    out = []
    pos = 0
    while True:
        end = data.find(b"\r\n", pos)
        if end < 0:
            return data
        try:
            size = int(data[pos:end].split(b";")[0], 16)
        except ValueError:
            return data
        if size == 0:
            return b"".join(out)
        out.append(data[end + 2:end + 2 + size])
        pos = end + 2 + size + 2


def http_payload(http_headers, body):
    """The payload as warcio's content_stream() returns it: de-chunked, then inflated."""
    if "chunked" in (http_headers.get_header("Transfer-Encoding") or "").lower():
        body = dechunk(body)
    encoding = (http_headers.get_header("Content-Encoding") or "").lower()
    try:
        if encoding in ("gzip", "x-gzip"):
            body = zlib.decompress(body, 16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            try:
                body = zlib.decompress(body)
            except zlib.error:
                body = zlib.decompress(body, -zlib.MAX_WBITS)
    except zlib.error:
        pass  # warcio serves the raw bytes when they do not inflate
    return body


def response_records(reader):
    """(url, payload bytes) of each WARC response record, as NeMo's iterator yields them."""
    while True:
        try:
            warc = parse_status_and_headers(reader)
        except EOFError:
            return
        if not warc.protocol.startswith("WARC/"):
            raise ValueError(f"not a WARC record: {warc.protocol[:40]!r}")
        length = int(warc.get_header("Content-Length", "0") or 0)
        block = LimitReader(reader, length)
        record_type = warc.get_header("WARC-Type")
        payload = None
        if record_type == "response":
            content_type = warc.get_header("Content-Type", "") or ""
            if content_type.startswith("application/http"):
                http = parse_status_and_headers(block)
                payload = http_payload(http, block.read())
            else:
                payload = block.read()
        block.read()  # the rest of the record (read_to_end)
        if payload is not None:
            yield warc.get_header("WARC-Target-URI"), payload


# ---------------------------------------------------------------------------------------------
# Charset (NeMo's decode_html)

def decode_html(html_bytes):
    try:
        return html_bytes.decode("utf-8")
    except UnicodeDecodeError:
        encoding = chardet.detect(html_bytes)["encoding"]
        if not encoding or encoding == "utf-8":
            return None
        try:
            return html_bytes.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            return None


# ---------------------------------------------------------------------------------------------
# jusText 3.0, re-created

PARAGRAPH_TAGS = frozenset((
    "body", "blockquote", "caption", "center", "col", "colgroup", "dd", "div", "dl", "dt",
    "fieldset", "form", "legend", "optgroup", "option", "p", "pre", "table", "td", "textarea",
    "tfoot", "th", "thead", "tr", "ul", "li", "h1", "h2", "h3", "h4", "h5", "h6",
))
WHITESPACE = re.compile(r"\s+")
HEADING = re.compile(r"\bh\d\b")
SELECT = re.compile(r"^select|\.select")


def _whitespace_run(match):
    run = match.group()
    return "\n" if "\n" in run or "\r" in run else " "


def normalize_whitespace(text):
    return WHITESPACE.sub(_whitespace_run, text)


def is_blank(text):
    return not text or text.isspace()


def html_to_dom(html):
    encoded = html.encode("utf-8", "replace")  # jusText encodes up front, for the fallback
    try:
        return lxml.html.fromstring(html, parser=lxml.html.HTMLParser())
    except ValueError:  # a str with an XML encoding declaration
        return lxml.html.fromstring(encoded, parser=lxml.html.HTMLParser())


CLEANER_OPTIONS = dict(
    scripts=True, comments=True, style=True, embedded=True, forms=True, kill_tags=("head",),
    javascript=False, links=False, meta=False, page_structure=False,
    processing_instructions=False, frames=False, annoying_tags=False,
    remove_unknown_tags=False, safe_attrs_only=False,
)


def preprocess(dom):
    return Cleaner(**CLEANER_OPTIONS).clean_html(dom)


class DomPath:
    """The open elements: (tag, position among same-tag siblings, children counts)."""

    def __init__(self):
        self.elements = []

    def dom(self):
        return ".".join(e[0] for e in self.elements)

    def xpath(self):
        return "/" + "/".join(f"{tag}[{order}]" for tag, order, _ in self.elements)

    def push(self, tag):
        siblings = self.elements[-1][2] if self.elements else {}
        order = siblings.get(tag, 0) + 1
        siblings[tag] = order
        self.elements.append((tag, order, {}))

    def pop(self):
        self.elements.pop()


class Paragraph:
    def __init__(self, path):
        self.dom_path = path.dom()
        self.xpath = path.xpath()
        self.text_nodes = []
        self.chars_in_links = 0
        self.tags = 0
        self.heading = False
        self.cf_class = ""
        self.class_type = ""

    @property
    def text(self):  # recomputed on every use, as jusText's property is
        return normalize_whitespace("".join(self.text_nodes).strip())

    def __len__(self):
        return len(self.text)

    @property
    def words(self):
        return self.text.split()

    def stopword_density(self, stop_words):
        words = self.words
        if not words:
            return 0
        return sum(w.lower() in stop_words for w in self.words) / len(words)

    def link_density(self):
        length = len(self.text)
        return self.chars_in_links / length if length else 0


# Analysis only (--winnow-deviations): winnow's extra paragraph tags (src/text/justext.cpp).
HTML5_BLOCK_TAGS = frozenset((
    "article", "aside", "footer", "header", "main", "nav", "section", "figure", "figcaption",
    "ol", "hr", "address", "details", "summary", "tbody", "dialog", "menu", "hgroup",
))
DEVIATIONS = set()


class ParagraphMaker(ContentHandler):
    def __init__(self):
        super().__init__()
        self.paragraph_tags = PARAGRAPH_TAGS
        if "html5-blocks" in DEVIATIONS:
            self.paragraph_tags = PARAGRAPH_TAGS | HTML5_BLOCK_TAGS
        self.blank_nodes = "blank-nodes" in DEVIATIONS
        self.path = DomPath()
        self.paragraphs = []
        self.paragraph = None
        self.link = False
        self.br = False
        self._new_paragraph()

    def _new_paragraph(self):
        if self.paragraph is not None and self.paragraph.text_nodes:
            self.paragraphs.append(self.paragraph)
        self.paragraph = Paragraph(self.path)

    def startElementNS(self, name, qname, attributes):
        tag = name[1]
        self.path.push(tag)
        if tag in self.paragraph_tags or (tag == "br" and self.br):
            if tag == "br":
                self.paragraph.tags -= 1  # the second <br> separates, it is not content
            self._new_paragraph()
        else:
            self.br = tag == "br"
            if self.br:
                self.paragraph.text_nodes.append(" ")
            elif tag == "a":
                self.link = True
            self.paragraph.tags += 1

    def endElementNS(self, name, qname):
        tag = name[1]
        self.path.pop()
        if tag in self.paragraph_tags:
            self._new_paragraph()
        if tag == "a":
            self.link = False

    def endDocument(self):
        self._new_paragraph()

    def characters(self, content):
        if is_blank(content):
            if self.blank_nodes and "".join(self.paragraph.text_nodes).strip():
                self.paragraph.text_nodes.append(normalize_whitespace(content))
            return
        text = normalize_whitespace(content)
        self.paragraph.text_nodes.append(text)
        if self.link:
            self.paragraph.chars_in_links += len(text)
        self.br = False


def classify(paragraphs, stop_words, length_low=70, length_high=200, stopwords_low=0.30,
             stopwords_high=0.32, max_link_density=0.2, no_headings=False):
    """jusText's context-free classification."""
    for p in paragraphs:
        length = len(p)
        stop_density = p.stopword_density(stop_words)
        link_density = p.link_density()
        p.heading = bool(not no_headings and HEADING.search(p.dom_path))
        if link_density > max_link_density:
            p.cf_class = "bad"
        elif "\xa9" in p.text or "&copy" in p.text:
            p.cf_class = "bad"
        elif SELECT.search(p.dom_path):
            p.cf_class = "bad"
        elif length < length_low:
            p.cf_class = "bad" if p.chars_in_links > 0 else "short"
        elif stop_density >= stopwords_high:
            p.cf_class = "good" if length > length_high else "neargood"
        elif stop_density >= stopwords_low:
            p.cf_class = "neargood"
        else:
            p.cf_class = "bad"


def neighbour(i, paragraphs, ignore_neargood, step):
    i += step
    while 0 <= i < len(paragraphs):
        c = paragraphs[i].class_type
        if c in ("good", "bad"):
            return c
        if c == "neargood" and not ignore_neargood:
            return c
        i += step
    return "bad"


def promote_headings(paragraphs, max_heading_distance, wanted, to, not_cf_bad):
    for i, p in enumerate(paragraphs):
        if not (p.heading and p.class_type == wanted):
            continue
        if not_cf_bad and p.cf_class == "bad":
            continue
        j, distance = i + 1, 0
        while j < len(paragraphs) and distance <= max_heading_distance:
            if paragraphs[j].class_type == "good":
                p.class_type = to
                break
            distance += len(paragraphs[j].text)
            j += 1


def revise(paragraphs, max_heading_distance=200):
    """jusText's context-sensitive revision."""
    for p in paragraphs:
        p.class_type = p.cf_class
    promote_headings(paragraphs, max_heading_distance, "short", "neargood", False)
    revised = {}
    for i, p in enumerate(paragraphs):
        if p.class_type != "short":
            continue
        prev = neighbour(i, paragraphs, True, -1)
        nxt = neighbour(i, paragraphs, True, +1)
        if prev == "good" and nxt == "good":
            revised[i] = "good"
        elif prev == "bad" and nxt == "bad":
            revised[i] = "bad"
        elif (prev == "bad" and neighbour(i, paragraphs, False, -1) == "neargood") or \
                (nxt == "bad" and neighbour(i, paragraphs, False, +1) == "neargood"):
            revised[i] = "good"
        else:
            revised[i] = "bad"
    for i, c in revised.items():
        paragraphs[i].class_type = c
    for i, p in enumerate(paragraphs):
        if p.class_type != "neargood":
            continue
        prev = neighbour(i, paragraphs, True, -1)
        nxt = neighbour(i, paragraphs, True, +1)
        p.class_type = "bad" if (prev, nxt) == ("bad", "bad") else "good"
    promote_headings(paragraphs, max_heading_distance, "bad", "good", True)


def justext_text(html, stop_words):
    """NeMo's JusTextExtractor.extract_text: the good paragraphs' texts, None when the page
    cannot be segmented."""
    try:
        dom = preprocess(html_to_dom(html))
        maker = ParagraphMaker()
        lxml.sax.saxify(dom, maker)
    except Exception:  # NeMo catches everything here and drops the record
        return None
    paragraphs = maker.paragraphs
    classify(paragraphs, stop_words)
    revise(paragraphs)
    return [p.text for p in paragraphs if p.class_type == "good"]


STOP_WORDS_DIR = "/usr/share/perl5/Lingua/StopWords"


def snowball_stop_words(language="en"):
    """A Snowball list as winnow's StopWordTable reads it; None when Debian has none."""
    try:
        with open(f"{STOP_WORDS_DIR}/{language.upper()}.pm", encoding="utf-8") as f:
            source = f.read()
    except FileNotFoundError:
        return None
    body = source[source.index("sub _stopwords"):]
    words = body[body.index("qw(") + 3:body.index(")", body.index("qw("))]
    return frozenset(w.lower() for w in words.split())


URL_LANGUAGE = re.compile(r"\.([a-z]{2})(?:-[a-z]+)?\.html?$")


# ---------------------------------------------------------------------------------------------

def main():
    args = sys.argv[1:]
    out_path = None
    if "--write-jsonl" in args:
        i = args.index("--write-jsonl")
        out_path = args[i + 1]
        del args[i:i + 2]
    if "--winnow-deviations" in args:
        i = args.index("--winnow-deviations")
        DEVIATIONS.update(args[i + 1].split(","))
        unknown = DEVIATIONS - {"html5-blocks", "blank-nodes"}
        if unknown:
            sys.exit(f"unknown deviation(s): {sorted(unknown)}")
        del args[i:i + 2]
    language_from_url = "--language-from-url" in args
    if language_from_url:
        args.remove("--language-from-url")
    if "--cache-text" in args:  # sensitivity only: jusText does not cache a paragraph's text
        args.remove("--cache-text")
        cached = functools.cached_property(Paragraph.text.fget)
        cached.__set_name__(Paragraph, "text")
        Paragraph.text = cached
    if len(args) != 1 or args[0].startswith("-"):
        sys.exit("usage: nemo_path.py [--write-jsonl OUT] [--winnow-deviations LIST] "
                 "[--language-from-url] [--cache-text] FILE.warc.gz")
    stop_lists = {"en": snowball_stop_words("en")}
    out = open(out_path, "w", encoding="utf-8") if out_path else None
    records = kept = dropped_decode = 0
    start = time.perf_counter()
    with open(args[0], "rb") as raw:
        reader = DecompressingReader(raw)
        for url, payload in response_records(reader):
            records += 1
            html = decode_html(payload)
            if html is None:
                dropped_decode += 1
                continue
            # lang_detect (pycld2 over the whole HTML) would go here; English is assumed.
            language = "en"
            if language_from_url:
                match = URL_LANGUAGE.search(url.strip("<>"))
                language = match.group(1) if match else "en"
                if language not in stop_lists:
                    stop_lists[language] = snowball_stop_words(language)
            if stop_lists[language] is None:
                continue  # NeMo drops a page whose language has no stop list
            texts = justext_text(html, stop_lists[language])
            if not texts:
                continue
            kept += 1
            if out:
                out.write(json.dumps({"url": url, "text": "\n\n".join(texts)},
                                     ensure_ascii=False) + "\n")
        reader.read(1 << 62)  # count any trailing bytes too
    seconds = time.perf_counter() - start
    if out:
        out.close()
    mb = reader.inflated / 1e6
    print(f"records={records} kept={kept} dropped_decode={dropped_decode} warc_mb={mb:.1f} "
          f"mb_per_s={mb / seconds:.2f} records_per_s={records / seconds:.1f} "
          f"seconds={seconds:.3f}")


if __name__ == "__main__":
    main()
