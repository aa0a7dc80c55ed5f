#!/usr/bin/env bash
# Dedup benchmarks.
#  1. build/minhash_bench: signature throughput at NeMo's defaults, per SIMD target, against
#     the floor of hashing every shingle once with XXH3.
#  2. End to end on >= 1 GB: read zstd JSONL -> identify (MinHash, LSH, components) -> remove
#     -> write zstd JSONL, with ~10% planted near-duplicates; wall time, MB/s per core, peak RSS,
#     duplicates found vs planted; baseline: the pass-through run (no stages, same input and
#     output format, jsonl.zst) measured in the same run. A second dedup run with memory_mb: 64 shows the
#     spill path (memory stays bounded, the result is identical).
#
# Usage: bench/dedup.sh [BUILD_DIR=build] [WORK_DIR=build/bench]
# Environment: BENCH_BYTES (corpus size when generated, default 1100000000), BENCH_THREADS
# (default 2). Needs zstd, GNU time, python3.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work_dir=$(abspath "${2:-$repo/build/bench}")
bytes=${BENCH_BYTES:-1100000000}
threads=${BENCH_THREADS:-2}
winnow=$build_dir/winnow
die() { echo "dedup bench: $*" >&2; exit 1; }
[ -x "$winnow" ] || die "no winnow binary at $winnow"
[ -x "$build_dir/minhash_bench" ] || die "no minhash_bench at $build_dir (cmake --build $build_dir --target minhash_bench)"

echo "== signatures (1 thread) =="
"$build_dir/minhash_bench" 32

corpus=$work_dir/corpus/bench.jsonl.zst
planted_dir=$work_dir/dedup-corpus
mkdir -p "$work_dir/corpus"
if [ ! -f "$corpus" ]; then
  echo "dedup bench: generating $corpus..." >&2
  python3 "$repo/bench/make_bench_corpus" "$corpus" --bytes "$bytes" --seed 7 >&2
fi
if [ ! -f "$planted_dir/planted.txt" ]; then
  echo "dedup bench: planting near-duplicates into $planted_dir..." >&2
  python3 "$repo/bench/plant_near_duplicates" "$corpus" "$planted_dir" --fraction 0.1 --seed 7
fi
planted=$(cat "$planted_dir/planted.txt")

tfile=$(mktemp)
small=$(mktemp --suffix=.yaml)
trap 'rm -f "$tfile" "$small"' EXIT
timed() {
  local rc=0
  /usr/bin/time -f "%e %M %U %S" -o "$tfile" "$@" || rc=$?
  read -r secs rss_kb user_s sys_s < <(tail -n 1 "$tfile")
  return "$rc"
}
sed 's/  - stage: fuzzy_dedup/  - stage: fuzzy_dedup\n    memory_mb: 64/' "$repo/bench/dedup.yaml" > "$small"
oph=$(mktemp --suffix=.yaml)
trap 'rm -f "$tfile" "$small" "$oph"' EXIT
sed 's/  - stage: fuzzy_dedup/  - stage: fuzzy_dedup\n    scheme: one_permutation/' "$repo/bench/dedup.yaml" > "$oph"

run() {  # name pipeline out
  timed "$winnow" run "$2" --input "$planted_dir" --output "$3" --threads "$threads" \
    --output-format jsonl.zst --overwrite -q --no-progress || die "$1 failed"
  python3 - "$1" "$3/stats.json" "$secs" "$rss_kb" "$threads" "$planted" "$user_s" "$sys_s" <<'PY'
import json, sys
name, path, secs, rss, threads, planted, user_s, sys_s = sys.argv[1:]
cpu = float(user_s) + float(sys_s)
s = json.load(open(path))
t = s["totals"]
mb = t["input_bytes"] / 1e6
secs, threads = float(secs), int(threads)
fuzzy = t["dropped_by_reason"].get("fuzzy_dedup/fuzzy_duplicate", 0)
g = s.get("global_steps", {}).get("fuzzy_dedup", {}).get("identify_run", {})
print("%-28s %8.1f %9.1f %11.1f %8.1f %11.1f %8.0f %9s %9s %9s" % (
    name, secs, mb / secs, mb / secs / threads, cpu, mb / cpu, int(rss) / 1024,
    fuzzy if "global_steps" in s else "-", planted if "global_steps" in s else "-",
    ("%.0f MB" % (g.get("spilled_bytes", 0) / 1e6)) if g else "-"))
PY
}

echo
echo "== end to end: $planted_dir ($threads threads) =="
# MB/s/core two ways: wall-clock MB/s divided by the threads (what a dedicated machine gives),
# and MB per CPU-second used (robust when other jobs share the cores).
printf '%-28s %8s %9s %11s %8s %11s %8s %9s %9s %9s\n' run "wall s" "MB/s" "MB/s/thread" \
  "CPU s" "MB/CPU-s" "RSS MB" removed planted spilled
run "pass-through (baseline)" "$repo/bench/passthrough.yaml" "$work_dir/dedup-pass"
run "fuzzy dedup, 1 GB memory" "$repo/bench/dedup.yaml" "$work_dir/dedup-out"
run "fuzzy dedup, memory_mb 64" "$small" "$work_dir/dedup-small"
run "fuzzy dedup, one_permutation" "$oph" "$work_dir/dedup-oph"
if cmp -s "$work_dir/dedup-out/global/fuzzy_dedup/duplicates.jsonl" \
          "$work_dir/dedup-small/global/fuzzy_dedup/duplicates.jsonl"; then
  echo "duplicates tables identical with 1 GB and 64 MB of memory"
else
  die "duplicates tables differ between memory budgets"
fi
rm -rf "$work_dir/dedup-pass" "$work_dir/dedup-out" "$work_dir/dedup-small" "$work_dir/dedup-oph"
