#!/usr/bin/python3
"""All-pairs numpy reference for semantic_dedup with n_clusters 1 (NeMo's rule), used by
tests/cli/semantic_dedup_test.cpp. Usage: semantic_reference.py INPUT.jsonl OUT_DIR hard|easy

Reads the records (in input order: their key order), normalises in float64, takes the
normalised mean as the centroid, ranks by cosine distance to it (hard: descending, easy:
ascending; ties by input position in the same direction), and for each eps of the run's sweep
compares the number removed (max over earlier items, at least 0, >= 1 - eps) with stats.json,
and the removed ids at the run's eps with duplicates.jsonl. Prints what differs; exit 1 if any.
"""
import json
import sys

import numpy as np

records = [json.loads(line) for line in open(sys.argv[1])]
out, ranking = sys.argv[2], sys.argv[3]
x = np.array([r["embedding"] for r in records], dtype=np.float32).astype(np.float64)
x /= np.linalg.norm(x, axis=1, keepdims=True)
centroid = x.mean(axis=0)
centroid /= np.linalg.norm(centroid)
distance = 1 - x @ centroid
position = np.arange(len(x))
if ranking == "hard":
    order = np.lexsort((-position, -distance))
else:
    order = np.lexsort((position, distance))
ranked = x[order]
best = np.maximum(np.triu(ranked @ ranked.T, 1).max(axis=0), 0)
step = json.load(open(out + "/stats.json"))["global_steps"]["semantic_dedup"]
failed = False
for point in step["eps_sweep"]:
    expected = int((best >= 1 - point["eps"]).sum())
    if expected != point["removed"]:
        print(f"eps {point['eps']}: numpy removes {expected}, winnow {point['removed']}")
        failed = True
eps = step["parameters"]["eps"]
expected_ids = {records[order[j]]["id"] for j in range(len(x)) if best[j] >= 1 - eps}
table = [json.loads(line) for line in open(out + "/global/semantic_dedup/duplicates.jsonl")]
if {row["id"] for row in table} != expected_ids:
    print(f"eps {eps}: the removed ids differ")
    failed = True
print("differs" if failed else f"same: {len(expected_ids)} removed at eps {eps}")
sys.exit(1 if failed else 0)
