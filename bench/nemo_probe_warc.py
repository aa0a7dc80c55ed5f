#!/usr/bin/python3
"""Writes a small .warc.gz of hand-written pages, each isolating one place where winnow's
html_extract and NeMo's path (bench/nemo_path.py) may decide differently: markup the Sphinx
pages of the throughput benchmark never contain (forms, misnested tags, charsets declared
wrongly...). Every page wraps its probe in the same English prose, so that jusText classifies
the surroundings as good text and only the probe can differ.

Usage: bench/nemo_probe_warc.py OUT.warc.gz
Then: winnow run (html_extract) and bench/nemo_path.py --write-jsonl on OUT, and
bench/nemo_parity.py on the two outputs (bench/README.md, "NeMo's full path").
"""
import gzip
import sys
import uuid

PROSE = ("The committee met on the first day of the month to discuss all of the plans that "
         "had been made for the year, and it was agreed that the work should go on as it had "
         "been done before, with some of the changes that were asked for by those who had "
         "been there from the start.")
PROSE2 = ("When the report was read out to them, most of the members said that they would "
          "like to see more of it before they could make up their minds, so it was left to "
          "the next meeting, which is to be held at the end of the month in the same place.")


def page(body, head=""):
    return (f"<!DOCTYPE html><html><head><title>Probe</title>{head}</head><body>"
            f"<h1>Report of the meeting</h1><p>{PROSE}</p>{body}<p>{PROSE2}</p></body></html>")


# (name, HTTP Content-Type, body bytes, what is probed)
PAGES = [
    ("select-neighbour", "text/html; charset=utf-8", page(
        "<p>Please read this part.</p><select><option>First choice</option>"
        "<option>Second choice</option></select>"),
     "a <select> between a short paragraph and good text: lxml's Cleaner (forms=True) kills "
     "it, winnow keeps its options as bad paragraphs, which then act as bad neighbours"),
    ("textarea", "text/html; charset=utf-8", page(
        f"<textarea>{PROSE2} This is what was typed into the box.</textarea>"),
     "<textarea> text: killed by the Cleaner (forms=True), a paragraph in winnow"),
    ("button", "text/html; charset=utf-8", page(
        f"<p>{PROSE} <button>Subscribe</button> and that was all.</p>"),
     "<button> text inside a paragraph: killed by the Cleaner, kept by winnow"),
    ("form-inline", "text/html; charset=utf-8", page(
        f"<div>{PROSE2[:60]}<form action=x>and so it was left to be done</form>"
        f"{PROSE2[60:]}</div>"),
     "<form> is dropped as a tag by the Cleaner (its text joins the paragraph around it); "
     "winnow treats form as a paragraph tag"),
    ("br-only", "text/html; charset=utf-8", page(
        f"<div><br></div><p>{PROSE2}</p>"),
     "a block holding only <br>: an empty paragraph in jusText (an extra blank paragraph in "
     "NeMo's text), nothing in winnow"),
    ("utf8-declared-latin1", "text/html; charset=iso-8859-1", page(
        "<p>It was in the caf\u00e9 at Gen\u00e8ve that the committee\u2019s notes were "
        "read out to all of the members, as they had been given to them.</p>").encode("utf-8"),
     "UTF-8 bytes under an iso-8859-1 HTTP header: NeMo tries UTF-8 first, winnow trusts the "
     "header, and the mojibake of e-acute (\u00c3\u00a9) holds the copyright sign, which "
     "jusText's copyright rule rejects"),
    ("cp1252-undeclared", "text/html", page(
        "<p>The caf\u00e9 \u201cna\u00efve\u201d r\u00e9sum\u00e9 \u2013 the committee's "
        "notes were read out as they had been given.</p>").encode("cp1252"),
     "windows-1252 bytes, no declaration: chardet (NeMo) against uchardet (winnow)"),
    ("template", "text/html; charset=utf-8", page(
        f"<template><p>{PROSE2} This paragraph is inside a template.</p></template>"),
     "<template> content: an ordinary subtree for lxml, dropped by winnow"),
    ("unclosed-link", "text/html; charset=utf-8", page(
        f"<p>See <a href=x>the minutes of the last meeting<p>{PROSE2}</p>"),
     "an unclosed <a>: libxml2 closes it with the <p>, gumbo's HTML5 tree builder reopens it "
     "in the next paragraph, whose text then counts as link text"),
    ("table-stray-text", "text/html; charset=utf-8", page(
        f"<table>{PROSE2}<tr><td>cell</td></tr></table>"),
     "text directly inside <table>: HTML5 foster-parents it before the table; libxml2 keeps "
     "it where it is"),
    ("iframe-fallback", "text/html; charset=utf-8", page(
        f"<iframe src=x><p>{PROSE2} Fallback.</p></iframe>"),
     "iframe content: raw text for HTML5, an element subtree for libxml2 (the Cleaner drops "
     "only the iframe tag)"),
    ("noscript", "text/html; charset=utf-8", page(
        f"<noscript><p>{PROSE2} Enable scripts.</p></noscript>"),
     "<noscript> text: both keep it, or not"),
    ("comment", "text/html; charset=utf-8", page(
        f"<p>{PROSE2}<!-- {PROSE} --> End.</p>"),
     "a comment inside a paragraph"),
    ("xhtml-xml-declaration", "application/xhtml+xml", (
        '<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml">'
        f'<head><title>x</title></head><body><p>{PROSE}</p><p><a id="top"/>{PROSE2}</p>'
        '</body></html>'),
     "an XHTML page with an XML declaration (lxml refuses it as str; jusText re-parses the "
     "bytes) and an empty <a/> anchor"),
    ("inline-glue", "text/html; charset=utf-8", page(
        f"<p>{PROSE} <b>import</b> <i>json</i> and <code>os</code> <code>sys</code>.</p>"),
     "whitespace-only text nodes between inline elements: jusText drops them and glues the "
     "words (winnow's documented deviation: it keeps one space)"),
    ("hr-in-text", "text/html; charset=utf-8", page(
        f"<div>{PROSE2}<hr>Short line after the rule.</div>"),
     "<hr>: a paragraph break in winnow (HTML5 block list), not in jusText (documented "
     "deviation)"),
]


def record(url, content_type, body):
    if isinstance(body, str):
        body = body.encode("utf-8")
    http = (f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("ascii") + body
    head = (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:"
            f"{uuid.uuid5(uuid.NAMESPACE_URL, url)}>\r\nWARC-Date: 2026-12-01T00:00:00Z\r\n"
            f"WARC-Target-URI: {url}\r\n"
            f"Content-Type: application/http;msgtype=response\r\n"
            f"Content-Length: {len(http)}\r\n\r\n").encode("ascii")
    return gzip.compress(head + http + b"\r\n\r\n", mtime=0)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: nemo_probe_warc.py OUT.warc.gz")
    with open(sys.argv[1], "wb") as out:
        for name, content_type, body, _ in PAGES:
            out.write(record(f"http://probe.test/{name}", content_type, body))
    for name, _, _, what in PAGES:
        print(f"{name}: {what}")


if __name__ == "__main__":
    main()
