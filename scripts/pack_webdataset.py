#!/usr/bin/python3
# Packs pictures and their truth into WebDataset tar shards with Python's tarfile (not winnow's
# libarchive writer), for scripts/make_image_corpus and scripts/make_image_dedup_corpus.
#
#   pack_webdataset.py WORK OUT [SHARDS=4]
#
# WORK/images/<id>.<ext> and WORK/truth.tsv (id, family, variant, [kind, ...,] source) become
# OUT/shards/images-000N.tar with <id>.<ext> + <id>.txt (caption) + <id>.json (family, variant,
# kind) per sample, and OUT/truth.tsv (sorted). Samples are spread over the shards in an order
# fixed by a hash of their ids, so a family's members sit in different shards.
import hashlib, io, json, os, sys, tarfile

work, out = sys.argv[1], sys.argv[2]
shards = int(sys.argv[3]) if len(sys.argv) > 3 else 4
rows = [line.rstrip("\n").split("\t") for line in open(os.path.join(work, "truth.tsv"))]
files = {os.path.splitext(f)[0]: f for f in os.listdir(os.path.join(work, "images"))}
rows.sort(key=lambda r: hashlib.sha1(r[0].encode()).hexdigest())
os.makedirs(os.path.join(out, "shards"), exist_ok=True)
tars = [tarfile.open(os.path.join(out, "shards", f"images-{i:04d}.tar"), "w", format=tarfile.PAX_FORMAT)
        for i in range(shards)]


def add(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = 1700000000
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


for n, row in enumerate(rows):
    key, family, variant, source = row[0], row[1], row[2], row[-1]
    tar = tars[n * shards // len(rows)]
    image = files[key]
    with open(os.path.join(work, "images", image), "rb") as f:
        add(tar, image, f.read())
    add(tar, key + ".txt", f"{os.path.basename(source)} ({variant})".encode())
    meta = {"family": int(family), "variant": variant}
    if len(row) > 4:
        meta["kind"] = row[3]
    add(tar, key + ".json", json.dumps(meta).encode())
for tar in tars:
    tar.close()
with open(os.path.join(out, "truth.tsv"), "w") as f:
    for row in sorted(rows):
        f.write("\t".join(row) + "\n")
print(f"pack_webdataset: {len(rows)} samples in {shards} shards under {out}/shards", file=sys.stderr)
