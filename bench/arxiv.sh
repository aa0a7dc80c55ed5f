#!/usr/bin/env bash
# arXiv bulk tars (issue 35 item 3): `winnow run` with input.format arxiv on one thread against
# NeMo Curator's own ArxivExtractor (after its iterator's tarfile/gzip steps, re-created in
# bench/arxiv_nemo.py) on the same synthetic bulk tar (bench/make_arxiv_tar.py), whole-process
# CPU seconds each, the ratio, and parity: the same papers kept, each text of the same length.
#
# Usage: bench/arxiv.sh [BUILD_DIR=build] [WORK_DIR=build/bench/arxiv]
# Environment: ARXIV_PAPERS (2000), NEMO_CURATOR_SRC (a NeMo Curator checkout; without it only
# winnow's figure is printed).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build=$(abspath "${1:-$repo/build}")
work=$(abspath "${2:-$repo/build/bench/arxiv}")
papers=${ARXIV_PAPERS:-2000}
mkdir -p "$work"
tar="$work/arXiv_src_bench_$papers.tar"
[ -f "$tar" ] || "$repo/bench/make_arxiv_tar.py" "$tar" "$papers"

printf 'input: {format: arxiv}\noutput: {format: jsonl}\n' >"$work/arxiv.yaml"
/usr/bin/time -f '%U %S' -o "$work/time.txt" "$build/winnow" run "$work/arxiv.yaml" -i "$tar" \
  -o "$work/out" --overwrite --threads 1 --no-progress >/dev/null
read -r user sys <"$work/time.txt"
winnow_cpu=$(python3 -c "print(f'{$user + $sys:.2f}')")
docs=$(wc -l <"$work/out/$(basename "$tar" .tar).jsonl")
mb=$(python3 -c "import os; print(f'{os.path.getsize(\"$tar\") / 1e6:.1f}')")
echo "arXiv bulk tar: $papers papers, $mb MB; winnow: $docs documents, $winnow_cpu CPU s" \
  "($(python3 -c "print(f'{$mb / $winnow_cpu:.1f}')") MB of tar per CPU s)"

if [ -z "${NEMO_CURATOR_SRC:-}" ]; then
  echo "NEMO_CURATOR_SRC not set: NeMo's figure and the parity check skipped" >&2
  exit 0
fi
read -r _ nemo_docs nemo_cpu < <(python3 "$repo/bench/arxiv_nemo.py" "$NEMO_CURATOR_SRC" "$tar" \
  "$work/nemo.tsv")
python3 - "$work/out/$(basename "$tar" .tar).jsonl" "$work/nemo.tsv" <<'PY'
import json, sys
ours = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    ours[r["id"]] = len(r["text"])
theirs = dict((i, int(n)) for i, n in (l.rstrip("\n").split("\t") for l in open(sys.argv[2])))
same = sum(1 for k, v in theirs.items() if ours.get(k) == v)
print(f"parity: {same} of {len(theirs)} NeMo documents with the same id and text length; "
      f"winnow kept {len(ours)}")
PY
echo "NeMo: $nemo_docs documents, $nemo_cpu CPU s; winnow is" \
  "$(python3 -c "print(f'{$nemo_cpu / $winnow_cpu:.1f}')")x NeMo per CPU second"
