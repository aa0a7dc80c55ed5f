#!/usr/bin/env python3
"""Parity of winnow's Wikipedia input with NeMo Curator's extraction rules, article by article.

Usage: bench/wikipedia_parity.py WINNOW DUMP.xml[.bz2] MWPARSERFROMHELL_SRC [LIMIT]

Runs `winnow run` with `input.format: wikipedia` on the dump (JSONL out), then reads the same
dump as NeMo's WikipediaIterator does (main namespace, no redirect, some text) and makes each
article's text by NeMo's WikipediaExtractor rules with mwparserfromhell (the source folder of
its package, e.g. a checkout's `src/`; the pure-Python tokenizer is enough): per flat section
(lead included, heading included) file/image/media links removed, category links replaced by
their text without the prefix, <ref> and <table> tags removed, strip_code(), strip(), magic
words `__[A-Z]*__` removed; sections joined by a blank line. Prints how many articles match
exactly and the first differences.
"""
import bz2
import contextlib
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

winnow, dump, mwp_src = sys.argv[1:4]
limit = int(sys.argv[4]) if len(sys.argv) > 4 else 0
sys.path.insert(0, mwp_src)
import mwparserfromhell  # noqa: E402

MAGIC = re.compile("__[A-Z]*__")
MEDIA = re.compile("^(?:File|Image|Media):", re.IGNORECASE)
CATEGORY = re.compile("^(?:Category):", re.IGNORECASE)


def nemo_text(raw):
    parts = []
    code = mwparserfromhell.parse(raw)
    for section in code.get_sections(flat=True, include_lead=True, include_headings=True):
        for link in section.ifilter_wikilinks(recursive=True):
            with contextlib.suppress(ValueError):
                if MEDIA.match(str(link.title)):
                    section.remove(link)
                elif CATEGORY.match(str(link.title)):
                    link.text = CATEGORY.sub("", link.__strip__())
        for tag in section.ifilter_tags(matches=lambda t: str(t.tag) in ("ref", "table"),
                                        recursive=True):
            with contextlib.suppress(ValueError):
                section.remove(tag)
        parts.append(MAGIC.sub("", section.strip_code().strip()))
    return "\n\n".join(parts)


def nemo_articles(path):
    opener = bz2.open if path.endswith(".bz2") else open
    with opener(path, "rb") as f:
        for _, elem in ET.iterparse(f, events=("end",)):
            if not elem.tag.endswith("page"):
                continue
            q = elem.tag[:-4]
            ns, pid = elem.find(f"./{q}ns"), elem.find(f"./{q}id")
            text = elem.find(f"./{q}revision/{q}text")
            redirect = elem.find(f"./{q}redirect")
            if ns is not None and ns.text == "0" and redirect is None and text is not None \
                    and text.text:
                yield pid.text, text.text
            elem.clear()


with tempfile.TemporaryDirectory() as work:
    link = os.path.join(work, "in", os.path.basename(dump))
    os.makedirs(os.path.dirname(link))
    os.symlink(os.path.abspath(dump), link)
    with open(os.path.join(work, "p.yaml"), "w") as f:
        f.write("input: {format: wikipedia}\noutput: {format: jsonl}\n")
    subprocess.run([winnow, "run", os.path.join(work, "p.yaml"), "-i", link, "-o",
                    os.path.join(work, "out"), "--no-progress"], check=True,
                   stdout=subprocess.DEVNULL)
    ours = {}
    for name in os.listdir(os.path.join(work, "out")):
        if name.endswith(".jsonl") and name != "metrics.jsonl":
            for line in open(os.path.join(work, "out", name), encoding="utf-8"):
                doc = json.loads(line)
                ours[doc["id"]] = doc["text"]

same = differ = missing = 0
for n, (pid, raw) in enumerate(nemo_articles(dump)):
    if limit and n >= limit:
        break
    want = nemo_text(raw)
    got = ours.get(pid)
    if got is None:
        missing += 1
    elif got == want:
        same += 1
    else:
        differ += 1
        if differ <= 3:
            print(f"page {pid} differs:")
            print("\n".join(list(difflib.unified_diff(want.splitlines(), got.splitlines(),
                                                      "nemo", "winnow", lineterm=""))[:20]))
print(f"articles {same + differ + missing}: same {same}, different {differ}, missing {missing}")
