"""NeMo Curator's stop-word filter after trafilatura (TrafilaturaExtractor.extract_text), as its
rule reads: a paragraph stays when the share of its str.split() words found, as written, in the
stop-word set is at least the required density. One JSON case per input line; prints the
indices of the kept paragraphs of each case, space-separated."""
import json
import sys

for line in sys.stdin:
    case = json.loads(line)
    stop_words = frozenset(case["stop_words"])
    kept = []
    for index, paragraph in enumerate(case["paragraphs"]):
        words = paragraph.split()
        if not words:
            continue
        if len([w for w in words if w in stop_words]) / len(words) >= case["density"]:
            kept.append(str(index))
    print(" ".join(kept) + ";")
