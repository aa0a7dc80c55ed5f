#!/usr/bin/env bash
# Heuristic filter chain benchmark: NeMo Curator's 28-filter English chain
# (examples/nemo_english.yaml) on real English text of 2-5 KB per document, in process on one
# core, against the floor measured in the same run (one pass counting code points and words),
# then the same chain through `winnow run --threads 1` end to end (read, parse, filter, write),
# with stage fusion (the default) and without.
#
# Usage: bench/filter_chain.sh [BUILD_DIR=build] [WORK_DIR=build/bench/filters]
# Environment: BENCH_REPEATS (default 5), BENCH_PIPELINE (default examples/nemo_english.yaml),
# BENCH_E2E_COPIES (default 10: copies of the corpus fed to `winnow run`).
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

# End to end through `winnow run --threads 1` (read, parse, the 28 filters, encode, write)
# against a pass-through run (no stages) of the same input, in documents per CPU second (user +
# sys of the whole process, best of 3), so the figure is per core however the steps' threads
# were scheduled. The corpus is repeated BENCH_E2E_COPIES times (default 10: 34,050 documents,
# a few seconds per run) so start-up and the last batches' drain do not weigh on the figure.
# The chain runs fused (its 28 stages one executor step: the default) and with --no-fuse (each
# stage its own step with its own worker thread).
copies=${BENCH_E2E_COPIES:-10}
e2e_in=$work_dir/e2e
out=$work_dir/out
mkdir -p "$e2e_in"
if [ ! -f "$e2e_in/.copies-$copies" ]; then
  rm -f "$e2e_in"/*.jsonl "$e2e_in"/.copies-*
  for _ in $(seq "$copies"); do cat "$work_dir/docs.jsonl"; done > "$e2e_in/docs.jsonl"
  touch "$e2e_in/.copies-$copies"
fi
docs=$(wc -l < "$e2e_in/docs.jsonl")
printf 'stages: []\n' > "$work_dir/passthrough.yaml"
cpu_seconds() {  # PIPELINE [OPTIONS...] -> best user+sys over 3 runs
  local pipeline=$1 best=""
  shift
  for _ in 1 2 3; do
    local t
    t=$( { /usr/bin/time -f '%U %S' "$build_dir/winnow" run "$pipeline" --input "$e2e_in" \
           --output "$out" --overwrite --threads 1 --output-format jsonl -q "$@" >/dev/null; } 2>&1 |
         tail -1 | awk '{print $1 + $2}')
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
  done
  echo "$best"
}
fused_cpu=$(cpu_seconds "$pipeline")
unfused_cpu=$(cpu_seconds "$pipeline" --no-fuse)
pass_cpu=$(cpu_seconds "$work_dir/passthrough.yaml")
pass_unfused_cpu=$(cpu_seconds "$work_dir/passthrough.yaml" --no-fuse)
awk -v d="$docs" -v f="$fused_cpu" -v u="$unfused_cpu" -v p="$pass_cpu" -v q="$pass_unfused_cpu" 'BEGIN {
  printf "  winnow run --threads 1 over %d documents, per CPU second (best of 3):\n", d
  printf "    pass-through (no stages)      %8.0f docs/CPU-s (%.2f s); --no-fuse %.0f (%.2f s)\n", d / p, p, d / q, q
  printf "    chain fused (default)         %8.0f docs/CPU-s (%.2f s); filters alone %.0f\n", d / f, f, d / (f - p)
  printf "    chain --no-fuse               %8.0f docs/CPU-s (%.2f s); filters alone %.0f\n", d / u, u, d / (u - q)
  printf "    fused / unfused, whole run: %.2fx\n", u / f }'
