#!/usr/bin/python3
"""Parity of winnow's html_extract (jusText) with bench/nemo_path.py's NeMo re-creation, per
URL, over the JSONL outputs of the two on the same WARC.

Reported, over the union of URLs either side kept:
- records kept by both, by winnow only, by NeMo only;
- the share of URLs whose text is identical (byte for byte; a URL missing on one side counts
  as different), and identical once whitespace runs are collapsed to one space;
- token-level precision and recall of winnow's text against NeMo's (tokens: str.split(), as
  multisets; micro-averaged: summed over URLs before dividing; a URL missing on one side has
  no tokens there);
- paragraphs ("\\n\\n"-separated) found on one side only, the most frequent first, with how
  many pages have them: where the two differ;
- the URLs with the lowest token F1.

Usage: bench/nemo_parity.py [--summary] [--differing] [--top N] WINNOW.jsonl NEMO.jsonl
(--summary: the five summary lines only; --differing: then every URL whose text differs beyond
whitespace, with its token F1; --top: how many paragraphs and URLs to list, 15.)
URLs are compared without the angle brackets wget writes around WARC-Target-URI (warcio,
hence NeMo, keeps them; winnow strips them).
"""
import collections
import json
import sys


def load(path):
    texts = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            record = json.loads(line)
            url = record["url"].strip()
            if url.startswith("<") and url.endswith(">"):
                url = url[1:-1]
            texts[url] = record.get("text", "")
    return texts


def common_tokens(a, b):
    ca, cb = collections.Counter(a), collections.Counter(b)
    return sum(min(n, cb[t]) for t, n in ca.items())


def main():
    args = sys.argv[1:]
    top = 15
    summary = "--summary" in args
    differing = "--differing" in args
    args = [a for a in args if a not in ("--summary", "--differing")]
    if "--top" in args:
        i = args.index("--top")
        top = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit("usage: nemo_parity.py [--summary] [--differing] [--top N] WINNOW.jsonl "
                 "NEMO.jsonl")
    winnow, nemo = load(args[0]), load(args[1])
    urls = sorted(set(winnow) | set(nemo))
    both = [u for u in urls if u in winnow and u in nemo]
    identical = sum(1 for u in both if winnow[u] == nemo[u])
    identical_ws = sum(1 for u in both if winnow[u].split() == nemo[u].split())
    w_tokens = n_tokens = common = 0
    both_w = both_n = both_common = 0  # over the URLs both kept
    per_url = []
    only_w = collections.Counter()
    only_n = collections.Counter()
    pages_w = collections.Counter()
    pages_n = collections.Counter()
    for u in urls:
        wt = winnow.get(u, "").split()
        nt = nemo.get(u, "").split()
        c = common_tokens(wt, nt)
        w_tokens += len(wt)
        n_tokens += len(nt)
        common += c
        if u in winnow and u in nemo:
            both_w += len(wt)
            both_n += len(nt)
            both_common += c
        f1 = 2 * c / (len(wt) + len(nt)) if wt or nt else 1.0
        per_url.append((f1, u, len(wt), len(nt)))
        wp = collections.Counter(" ".join(p.split()) for p in winnow.get(u, "").split("\n\n"))
        np_ = collections.Counter(" ".join(p.split()) for p in nemo.get(u, "").split("\n\n"))
        for p, n in (wp - np_).items():
            if p:
                only_w[p] += n
                pages_w[p] += 1
        for p, n in (np_ - wp).items():
            if p:
                only_n[p] += n
                pages_n[p] += 1
    precision = common / w_tokens if w_tokens else 1.0
    recall = common / n_tokens if n_tokens else 1.0
    print(f"URLs: {len(urls)} kept by either; both {len(both)}, winnow only "
          f"{len(set(winnow) - set(nemo))}, NeMo only {len(set(nemo) - set(winnow))}")
    print(f"identical text: {identical}/{len(urls)} = {identical / max(len(urls), 1):.3f}; "
          f"identical up to whitespace: {identical_ws}/{len(urls)} = "
          f"{identical_ws / max(len(urls), 1):.3f}")
    print(f"tokens: winnow {w_tokens}, NeMo {n_tokens}, common {common}; "
          f"precision {precision:.4f} recall {recall:.4f} "
          f"F1 {2 * precision * recall / (precision + recall or 1):.4f} (micro, winnow vs NeMo)")
    print(f"tokens over the URLs both kept: precision {both_common / (both_w or 1):.4f} "
          f"recall {both_common / (both_n or 1):.4f}")
    print(f"paragraphs on one side only: winnow {sum(only_w.values())} "
          f"({sum(len(p.split()) * n for p, n in only_w.items())} tokens), NeMo "
          f"{sum(only_n.values())} ({sum(len(p.split()) * n for p, n in only_n.items())} tokens)")
    if differing:
        for f1, u, nw, nn in per_url:
            if winnow.get(u, "").split() != nemo.get(u, "").split():
                print(f"  differs: F1 {f1:.3f}, tokens winnow {nw} NeMo {nn}  {u}")
    if summary:
        return
    for name, only, pages in (("winnow only", only_w, pages_w), ("NeMo only", only_n, pages_n)):
        print(f"\nmost frequent paragraphs, {name} (count, pages, text):")
        for p, n in only.most_common(top):
            print(f"  {n:5d} {pages[p]:4d}  {p[:110]!r}")
    print("\nlowest token F1 (F1, winnow tokens, NeMo tokens, URL):")
    for f1, u, nw, nn in sorted(per_url)[:top]:
        print(f"  {f1:.3f} {nw:6d} {nn:6d}  {u}")


if __name__ == "__main__":
    main()
