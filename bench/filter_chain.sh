#!/usr/bin/env bash
# Heuristic filter chain benchmark: NeMo Curator's 28-filter English chain
# (examples/nemo_english.yaml) on real English text of 2-5 KB per document, in process on one
# core, against the floor measured in the same run (one pass counting code points and words),
# then the same chain through `winnow run --threads 1` end to end (read, parse, filter, write).
#
# Usage: bench/filter_chain.sh [BUILD_DIR=build] [WORK_DIR=build/bench/filters]
# Environment: BENCH_REPEATS (default 5), BENCH_PIPELINE (default examples/nemo_english.yaml).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work_dir=$(abspath "${2:-$repo/build/bench/filters}")
pipeline=${BENCH_PIPELINE:-$repo/examples/nemo_english.yaml}
repeats=${BENCH_REPEATS:-5}

bench=$build_dir/filter_chain_bench
[ -x "$bench" ] || { echo "filter_chain: no $bench (cmake --build $build_dir --target filter_chain_bench)" >&2; exit 1; }
[ -f "$work_dir/docs.txt" ] || "$repo/bench/make_filter_corpus" "$work_dir"

"$bench" "$pipeline" "$work_dir/docs.txt" "$repeats"

# End to end through `winnow run` (read, parse, 28 filter steps, encode, write), one worker per
# step, against a pass-through run (no stages) of the same input: documents per CPU second
# (user + sys of the whole process, best of 3), so the figure is per core however the steps'
# threads were scheduled.
out=$work_dir/out
docs=$(wc -l < "$work_dir/docs.jsonl")
printf 'stages: []\n' > "$work_dir/passthrough.yaml"
cpu_seconds() {  # PIPELINE -> best user+sys over 3 runs
  local best=""
  for _ in 1 2 3; do
    local t
    t=$( { /usr/bin/time -f '%U %S' "$build_dir/winnow" run "$1" --input "$work_dir/docs.jsonl" \
           --output "$out" --overwrite --threads 1 --output-format jsonl >/dev/null; } 2>&1 |
         tail -1 | awk '{print $1 + $2}')
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
  done
  echo "$best"
}
chain_cpu=$(cpu_seconds "$pipeline")
pass_cpu=$(cpu_seconds "$work_dir/passthrough.yaml")
awk -v d="$docs" -v c="$chain_cpu" -v p="$pass_cpu" 'BEGIN {
  printf "  winnow run --threads 1: %.0f docs per CPU second (%.2f s); pass-through %.0f (%.2f s); filters alone %.0f docs per CPU second\n",
    d / c, c, d / p, p, d / (c - p) }'
