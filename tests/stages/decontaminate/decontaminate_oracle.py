#!/usr/bin/env python3
"""Brute-force reference for winnow's `decontaminate` split (stdlib only).

Reads a JSON job on stdin: task_files, fields, ngram_size, min_ngram_size,
remove_char_each_side, min_document_length, docs (texts). Writes one JSON line per document:
{"pieces": [...], "tasks": [task of each match, in order]}.

It follows the rules as docs/stages.md states them, the slow and plain way: every search
re-tokenises the remaining text as a Python string, every n-gram is compared as its joined
words, offsets are code points.
"""
import json
import os
import re
import string
import sys

PUNCTUATION = set(string.punctuation)
SENTENCE_ENDS = ".!?"


def words(text):
    out = []
    for token in re.finditer(r"\S+", text):
        word = "".join(c for c in token.group().lower() if c not in PUNCTUATION)
        if word:
            out.append((word, token.start(), token.end()))
    return out


def task_name(path):
    base = os.path.basename(path)
    dot = base.find(".")
    return base[:dot] if dot > 0 else base


def task_texts(path, fields):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            record = json.loads(line)
            for field in fields:
                value = record.get(field)
                if isinstance(value, str):
                    yield value
                elif isinstance(value, list):
                    yield from (v for v in value if isinstance(v, str))


def main():
    job = json.load(sys.stdin)
    size, min_size = job["ngram_size"], job["min_ngram_size"]
    margin, min_length = job["remove_char_each_side"], job["min_document_length"]
    ngrams = {}
    for path in job["task_files"]:
        name = task_name(path)
        for text in task_texts(path, job["fields"]):
            ws = [w for w, _, _ in words(text)]
            if len(ws) < min_size:
                continue
            grams = [ws] if len(ws) < size else [ws[i:i + size] for i in range(len(ws) - size + 1)]
            for gram in grams:
                ngrams.setdefault(" ".join(gram), name)
    lengths = sorted({len(k.split(" ")) for k in ngrams}, reverse=True)

    def first_match(text):
        ws = words(text)
        for i in range(len(ws)):
            for length in lengths:
                if i + length <= len(ws):
                    key = " ".join(w for w, _, _ in ws[i:i + length])
                    if key in ngrams:
                        return ws[i][1], ws[i + length - 1][2], ngrams[key]
        return None

    for text in job["docs"]:
        pieces, tasks = [], []
        while True:
            match = first_match(text)
            if match is None:
                pieces.append(text)
                break
            start, end, task = match
            tasks.append(task)
            pos = start - margin
            while pos > 0 and text[pos] not in SENTENCE_ENDS:
                pos -= 1
            if pos > 0 and len(text[:pos + 1]) > min_length:
                pieces.append(text[:pos + 1])
            pos = end + margin
            while pos < len(text) and text[pos] not in SENTENCE_ENDS:
                pos += 1
            if pos + 1 < len(text) and len(text[pos + 1:]) > min_length:
                text = text[pos + 1:]
                continue
            break
        print(json.dumps({"pieces": pieces, "tasks": tasks}))


if __name__ == "__main__":
    main()
