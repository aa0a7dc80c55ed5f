"""NeMo Curator's ArxivExtractor rules in Python's re, the reference for arxiv_latex_test.

Reads a JSON list of papers (each a list of .tex file texts) on stdin and writes a JSON list
of their texts (null where NeMo gives no document). The rules are restated from NeMo's
nemo_curator/stages/text/download/arxiv/extract.py: the same patterns, the same order, and
Python's own regex engine and re.sub template handling, which is what the C++ side must match.
"""
import json
import re
import sys


def sectioning(name):
    return r"\\\b" + name + r"\b\*?(?:\[(.*?)\])?\{(.*?)\}"


# NeMo's alternatives; its last two are joined without "|", kept so.
SECTION = (r"^(.*?)(" + "|".join(sectioning(n) for n in
                                  ["chapter", "part", "section", "subsection", "subsubsection"])
           + "|" + sectioning("paragraph") + sectioning("subparagraph") + r")")
BACK_MATTER = (r"(\\appendix|\\begin\{references\}|\\begin\{REFERENCES\}|"
               r"\\begin\{thebibliography\}|\\bibliography\{.*\}).*$")
NEWCOMMAND = re.compile(r"\\\bnewcommand\b\*?\{(\\[a-zA-Z0-9]+?)\}\{(.*?)\}$", re.MULTILINE)
DEF = re.compile(r"\\def\s*(\\[a-zA-Z0-9]+?)\s*\{(.*?)\}$", re.MULTILINE)


def macros_of(text):
    found = {}
    for pattern in (NEWCOMMAND, DEF):
        for m in pattern.finditer(text):
            found[m.group(1).encode("unicode-escape").decode("utf-8")] = \
                m.group(2).encode("unicode-escape").decode("utf-8")
    return found


def clean(text, macros):
    if not re.search(SECTION, text, flags=re.DOTALL):
        return ""
    text = re.sub(SECTION, r"\2", text, flags=re.DOTALL)
    text = re.sub(r"(?m)^%.*\n?", "", text, flags=re.MULTILINE)
    text = re.sub(r"[^\\]%.+$", "", text, flags=re.MULTILINE)
    text = re.sub(BACK_MATTER, "", text, flags=re.DOTALL)
    for name, value in macros.items():
        text = re.sub("(" + name + ")" + r"([^a-zA-Z0-9])", value + r"\2", text)
    return text


def paper_text(files):
    macros = {}
    for f in files:
        macros.update(macros_of(f))
    try:
        text = "\n".join(clean(f, macros) for f in files)
    except Exception:  # noqa: BLE001 -- NeMo drops the paper on any exception
        return None
    return text if text else None


def arxiv_id(stem):
    m = re.search(r"^([a-zA-Z-]*)([\d\.]+)$", stem)
    if m is None:
        return stem
    return m.group(2) if m.group(1) == "" else m.group(1) + "/" + m.group(2)


if __name__ == "__main__":
    request = json.load(sys.stdin)
    json.dump({"texts": [paper_text(p) for p in request["papers"]],
               "ids": [arxiv_id(s) for s in request["stems"]]}, sys.stdout)
