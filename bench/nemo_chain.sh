#!/usr/bin/env bash
# The NeMo English chain against NeMo Curator's own filter code in the same run (issue #20), on
# real documents of two kinds:
#   long  (default): Debian documentation and manual pages (bench/make_long_corpus, 1,670
#         documents, mean ~20 KB);
#   short: web-like pages of 300-2,000 bytes cut from the Python manual and the Debian Reference
#         (bench/make_filter_corpus --min-bytes 300 --max-bytes 2000, 20,000 documents);
#   mixed: what Debian packages install beside their manuals (licences, copyright files,
#         changelogs, READMEs, examples, sources) mixed with manuals (bench/make_mixed_corpus,
#         ~3,400 documents, mean ~13 KB), where NeMo's chain drops over 40% of the documents
#         in its first nine filters (issue #33);
#   slices: the mixed corpus cut into slices of whole lines of at most 1,800 bytes
#         (bench/make_mixed_corpus --slice-bytes 1800, ~27,000 documents).
# It also prints how many documents NeMo drops in the chain's first nine filters.
# winnow: `winnow run examples/nemo_english.yaml --threads 1`, counted as user+sys CPU seconds
# of the whole process (read, parse, filter, write; best of 3). NeMo: its filter classes
# (bench/nemo_chain.py: only the filters' code is timed, NeMo's most favourable figure). Prints
# both rates, the ratio and how many documents the two decide alike (kept, or dropped by the
# same filter).
#
# Usage: bench/nemo_chain.sh [BUILD_DIR=build] [long|short|mixed|slices]
# Environment: NEMO_CURATOR_SRC, a checkout of https://github.com/NVIDIA-NeMo/Curator (the folder
# holding nemo_curator/); without it only winnow's figures are printed.
# BENCH_PIPELINE (default examples/nemo_english.yaml).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
corpus=${2:-long}
work_dir=$build_dir/bench/$corpus
pipeline=${BENCH_PIPELINE:-$repo/examples/nemo_english.yaml}
mkdir -p "$work_dir/in"
if [ ! -f "$work_dir/in/docs.jsonl" ]; then
  case $corpus in
    long) "$repo/bench/make_long_corpus" "$work_dir/in/docs.jsonl" ;;
    short) "$repo/bench/make_filter_corpus" "$work_dir/make" --min-bytes 300 --max-bytes 2000
           mv "$work_dir/make/docs.jsonl" "$work_dir/in/docs.jsonl" ;;
    mixed) "$repo/bench/make_mixed_corpus" "$work_dir/in/docs.jsonl" ;;
    slices) mixed=$build_dir/bench/mixed/in/docs.jsonl
            if [ ! -f "$mixed" ]; then
              mkdir -p "$(dirname "$mixed")"
              "$repo/bench/make_mixed_corpus" "$mixed"
            fi
            "$repo/bench/make_mixed_corpus" "$work_dir/in/docs.jsonl" --slice-bytes 1800 \
              --from "$mixed" ;;
    *) echo "nemo_chain: corpus is long, short, mixed or slices, not '$corpus'" >&2; exit 2 ;;
  esac
fi
docs=$(wc -l < "$work_dir/in/docs.jsonl")
bytes=$(/usr/bin/python3 -c 'import json,sys
print(sum(len(json.loads(l)["text"].encode()) for l in open(sys.argv[1], encoding="utf-8")))' \
  "$work_dir/in/docs.jsonl")

cpu_seconds() {  # PIPELINE OUT -> best user+sys over 3 runs
  local best=""
  for _ in 1 2 3; do
    local t
    t=$( { /usr/bin/time -f '%U %S' "$build_dir/winnow" run "$1" --input "$work_dir/in" \
           --output "$2" --overwrite --threads 1 --output-format jsonl -q >/dev/null; } 2>&1 |
         tail -1 | awk '{print $1 + $2}')
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
  done
  echo "$best"
}
printf 'stages: []\n' > "$work_dir/passthrough.yaml"
chain_cpu=$(cpu_seconds "$pipeline" "$work_dir/out")
pass_cpu=$(cpu_seconds "$work_dir/passthrough.yaml" "$work_dir/out-passthrough")
awk -v k="$corpus" -v d="$docs" -v b="$bytes" -v c="$chain_cpu" -v p="$pass_cpu" 'BEGIN {
  printf "%s corpus: %d documents, %.1f MB, mean %.1f KB\n", k, d, b / 1e6, b / d / 1024
  printf "winnow run --threads 1, whole process: %.0f docs/CPU-s, %.1f MB/CPU-s (%.2f s)\n", d / c, b / 1e6 / c, c
  printf "  pass-through (no stages): %.2f s; the chain alone: %.0f docs/CPU-s\n", p, d / (c - p) }'

if [ -z "${NEMO_CURATOR_SRC:-}" ]; then
  echo "NEMO_CURATOR_SRC not set: NeMo Curator's figure and the ratio skipped" >&2
  exit 0
fi
read -r _ _ nemo_cpu < <("$repo/bench/nemo_chain.py" "$NEMO_CURATOR_SRC" "$pipeline" \
  "$work_dir/in/docs.jsonl" "$work_dir/nemo_decisions.tsv")
agreement=$(/usr/bin/python3 - "$work_dir/out" "$work_dir/nemo_decisions.tsv" <<'EOF'
import glob, json, sys
winnow = {}
for path in glob.glob(f"{sys.argv[1]}/*.jsonl"):
    if path.endswith("/metrics.jsonl"):
        continue
    winnow.update((json.loads(line)["id"], "kept") for line in open(path, encoding="utf-8"))
for path in glob.glob(f"{sys.argv[1]}/rejected/*.jsonl"):
    for line in open(path, encoding="utf-8"):
        record = json.loads(line)
        winnow[record["id"]] = record["winnow_drop"]["stage"]
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[2], encoding="utf-8")]
first_nine = {"non_alpha_numeric", "symbols_to_words", "numbers", "urls", "bullets",
              "white_space", "parentheses", "long_word", "word_count"}
early = sum(verdict in first_nine for _, verdict, _ in rows)
kept = sum(verdict == "kept" for _, verdict, _ in rows)
print(f"NeMo keeps {kept} of {len(rows)} ({kept / len(rows):.1%}) and drops {early} "
      f"({early / len(rows):.1%}) in the chain's first nine filters", file=sys.stderr)
same = sum(winnow.get(doc) == verdict for doc, verdict, _ in rows)
settled = [(doc, verdict) for doc, verdict, dependent in rows if not dependent]
same_settled = sum(winnow.get(doc) == verdict for doc, verdict in settled)
print(f"{same} of {len(rows)} ({same / len(rows):.4f}); where NeMo's verdict does not depend on "
      f"its hash order: {same_settled} of {len(settled)} ({same_settled / len(settled):.4f})")
EOF
)
awk -v d="$docs" -v c="$chain_cpu" -v n="$nemo_cpu" -v a="$agreement" 'BEGIN {
  printf "NeMo Curator filter code: %.0f docs/CPU-s (%.2f s)\n", d / n, n
  printf "winnow / NeMo per CPU-second: %.1fx; same decision: %s\n", n / c, a }'
