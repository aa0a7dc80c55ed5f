"""NeMo Curator's ComputeWERStage rules, written from its source for winnow's test: the
replacements of normalize_text (without the WFST normaliser), clean_text(retain_pncs=False),
then a brute-force Levenshtein distance (plain recursion over the two sequences, memoised) over
words and over characters. Reads JSON lines {"hyp", "ref"}; writes JSON lines of the cleaned
texts and the error counts."""
import functools
import json
import re
import sys

PNC_CHARS = "\u060c\u061f.\u3001\uff1f\u00bf!,?\u0964"
INVALID_CHARS = '/*":=_-{|}~\u00a8\u00ab\u00b7\u00bb\u00a1\u00bf\u2026\u2027\u2039\u203a\u226a\u226b!:;\u02d0\u2192'
BLANK = "`\u00a8\u00b4\u2018\u2019\u201c\u201d`\u02bb\u2018\u2019\u201c-\"\u2018\u201d"
APOS = "\u2018\u2019\u02bb\u2018\u2019\u2018\u2019\u2019"


def clean(text):
    for token in ("<unk>", "|", "\u2047", "<", ">"):
        text = text.replace(token, "")
    text = re.sub(r"\s+", " ", text)
    text = text.lower().strip()
    for c in BLANK:
        text = text.replace(c, "")
    for c in INVALID_CHARS + PNC_CHARS:
        text = text.replace(c, " ")
    for c in APOS:
        text = text.replace(c, "'")
    return " ".join(text.split())


def distance(a, b):
    @functools.lru_cache(maxsize=None)
    def d(i, j):
        if i == 0:
            return j
        if j == 0:
            return i
        return min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] != b[j - 1]))

    return d(len(a), len(b))


sys.setrecursionlimit(100000)
for line in sys.stdin:
    pair = json.loads(line)
    hyp, ref = clean(pair["hyp"]), clean(pair["ref"])
    print(json.dumps({
        "hyp": hyp, "ref": ref,
        "word_errors": distance(tuple(hyp.split()), tuple(ref.split())), "words": len(ref.split()),
        "char_errors": distance(tuple(hyp), tuple(ref)), "chars": len(ref),
    }, ensure_ascii=False))
