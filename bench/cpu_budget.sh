#!/usr/bin/env bash
# CPU budget benchmark: does `winnow run --threads N` use at most N cores over a run, reading,
# decompressing, writing and compressing included? For each case it measures the whole
# process's CPU time (user + sys, GNU time) and its wall time; cores used = CPU / wall, to be
# compared with the budget N (the ratio printed). Real data of real length:
#   - passthrough: the 1.1 GB pass-through corpus (bench/make_bench_corpus: 301,407 documents of
#     2-5 KB, one zstd file), zstd JSONL in, zstd JSONL out;
#   - nemo: NeMo's 28-filter English chain (examples/nemo_english.yaml) over this machine's
#     English HTML manuals (bench/make_filter_corpus, repeated 10 times: 34,050 documents of
#     3.6 KB on average), plain JSONL in, zstd out;
#   - dedup: fuzzy dedup (bench/dedup.yaml: read, identify, remove, write zstd) over two shards
#     of the planted near-duplicate corpus (bench/plant_near_duplicates: 275 MB, 75,352 documents).
#   - chunk: examples/chunks.yaml (chunk → two filters per piece → join) over the filter corpus.
#
# Usage: bench/cpu_budget.sh [BUILD_DIR=build] [WORK_DIR=build/bench]
# Environment: BENCH_THREADS (space-separated budgets, default "1 2").
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work_dir=$(abspath "${2:-$repo/build/bench}")
winnow=$build_dir/winnow
die() { echo "cpu_budget: $*" >&2; exit 1; }
[ -x "$winnow" ] || die "no winnow binary at $winnow (build first, or pass BUILD_DIR)"
[ -x /usr/bin/time ] || die "GNU time is required at /usr/bin/time (apt-get install time)"

# The corpora, made on first use by the other benchmarks' generators.
corpus=$work_dir/corpus/bench.jsonl.zst
if [ ! -f "$corpus" ]; then
  mkdir -p "$work_dir/corpus"
  python3 "$repo/bench/make_bench_corpus" "$corpus" --bytes 1100000000 --seed 7 >&2
fi
filters=$work_dir/filters
[ -f "$filters/docs.jsonl" ] || "$repo/bench/make_filter_corpus" "$filters" >&2
e2e=$filters/e2e-10
if [ ! -f "$e2e/docs.jsonl" ]; then
  mkdir -p "$e2e"
  for _ in $(seq 10); do cat "$filters/docs.jsonl"; done > "$e2e/docs.jsonl"
fi
planted=$work_dir/dedup-corpus
if [ ! -f "$planted/planted.txt" ]; then
  python3 "$repo/bench/plant_near_duplicates" "$corpus" "$planted" --fraction 0.1 --seed 7 >&2
fi
dedup_in=$work_dir/dedup-2-shards
mkdir -p "$dedup_in"
for s in 00000 00001; do ln -f "$planted/shard-$s.jsonl.zst" "$dedup_in/" 2>/dev/null ||
  cp "$planted/shard-$s.jsonl.zst" "$dedup_in/"; done

tfile=$(mktemp)
out=$(mktemp -d)
trap 'rm -rf "$tfile" "$out"' EXIT

printf '%-12s %7s %8s %8s %7s %9s\n' "case" "threads" "wall s" "CPU s" "cores" "vs budget"
run_case() {  # name threads args...
  local name=$1 threads=$2
  shift 2
  if ! /usr/bin/time -f "%e %U %S" -o "$tfile" "$winnow" run "$@" --output "$out/run" \
    --threads "$threads" --overwrite --no-progress -q > /dev/null 2>&1; then
    printf '%-12s %7d  failed (an older winnow without this pipeline?)\n' "$name" "$threads"
    return
  fi
  read -r wall user sys < "$tfile"
  awk -v n="$name" -v t="$threads" -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN {
    cpu = u + s; cores = w > 0 ? cpu / w : 0
    printf "%-12s %7d %8.2f %8.2f %7.3f %8.3fx\n", n, t, w, cpu, cores, cores / t }'
}
for threads in ${BENCH_THREADS:-1 2}; do
  run_case passthrough "$threads" "$repo/bench/passthrough.yaml" --input "$corpus" \
    --output-format jsonl.zst
  run_case nemo "$threads" "$repo/examples/nemo_english.yaml" --input "$e2e" \
    --output-format jsonl.zst
  run_case dedup "$threads" "$repo/bench/dedup.yaml" --input "$dedup_in"
  run_case chunk "$threads" "$repo/examples/chunks.yaml" --input "$e2e"
done
