#!/usr/bin/python3
# Scores an image_dedup duplicates table against scripts/make_image_dedup_corpus's truth.
#   image_dedup_score.py TRUTH.tsv duplicates.jsonl
# recall: planted copies grouped with their original, of all planted copies (those of "faint"
#   pictures, which image_dedup refuses to match by design, counted apart);
# precision: removals whose survivor is the same picture, of all removals; and pairs of a group
#   that are the same picture, of all pairs in groups;
# then every group that merges distinct pictures, by source.
import collections, itertools, json, os, sys

truth = {}
for line in open(sys.argv[1]):
    cols = line.rstrip("\n").split("\t")
    truth[cols[0]] = {"family": cols[1], "variant": cols[2], "kind": cols[3], "source": cols[-1]}
groups, survivor = collections.defaultdict(list), {}
for line in open(sys.argv[2]):
    e = json.loads(line)
    groups[e["component"]].append(e["id"])
    if e["survivor"]:
        survivor[e["component"]] = e["id"]
group_of = {i: g for g, ids in groups.items() for i in ids}
family = lambda i: truth[i]["family"]

def merged(i):
    o = i.split("_")[0]
    return i in group_of and o in group_of and group_of[i] == group_of[o]

copies = [i for i, t in truth.items() if t["variant"] != "original"]
for faint in (False, True):
    some = [i for i in copies if (truth[i]["kind"] == "faint") == faint]
    found = [i for i in some if merged(i)]
    label = "faint pictures' copies" if faint else "recall"
    missed = sorted(set(some) - set(found))
    print(f"  {label}: {len(found)}/{len(some)}" + (f" (missed: {' '.join(missed)})" if missed else ""))
removals = [(i, survivor[g]) for g, ids in groups.items() for i in ids if i != survivor[g]]
right = sum(family(i) == family(s) for i, s in removals)
pairs = [(a, b) for ids in groups.values() for a, b in itertools.combinations(ids, 2)]
same = sum(family(a) == family(b) for a, b in pairs)
print(f"  removal precision: {right}/{len(removals)} = {right / max(len(removals), 1):.3f}; "
      f"pair precision: {same}/{len(pairs)} = {same / max(len(pairs), 1):.3f}")
for g, ids in sorted(groups.items()):
    fams = sorted({family(i) for i in ids}, key=int)
    if len(fams) > 1:
        names = [os.path.basename(truth[[i for i in ids if family(i) == f][0]]["source"]) for f in fams]
        print(f"  group of {len(ids)} merges {len(fams)} pictures: {', '.join(names)}")
