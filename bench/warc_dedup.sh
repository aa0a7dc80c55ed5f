#!/usr/bin/env bash
# What dedup costs on top of a WARC pipeline, and what storing batches between passes saves
# (`materialize:`, src/pipeline/batch_store.h). examples/warc_pipeline.yaml (HTML extraction,
# language ID, three filters, exact and fuzzy dedup) over a real crawl (bench/make_crawl: this
# machine's Python manual fetched with wget, 528 HTML pages, 55 MB), one thread, in CPU
# seconds (user + sys, best of BENCH_REPEATS, default 3) and wall seconds:
#   - without its two dedup stages (the baseline: every stage runs once);
#   - with them, materialize: never (each identify pass and the writing pass read the crawl and
#     run HTML extraction and the filters again: three times);
#   - with them, materialize: always and auto (the first identify pass stores its batches; the
#     second identify pass and the writing pass begin from them).
# Usage: bench/warc_dedup.sh [BUILD_DIR=build] [WORK_DIR=build/bench/warc]
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work=$(abspath "${2:-$repo/build/bench/warc}")
winnow=$build_dir/winnow
[ -x "$winnow" ] || { echo "warc_dedup: no winnow at $winnow" >&2; exit 1; }
"$repo/bench/make_crawl" "$work"
warc=$work/crawl.warc.gz
repeats=${BENCH_REPEATS:-3}
tfile=$(mktemp)
out=$(mktemp -d)
trap 'rm -rf "$tfile" "$out"' EXIT

pipeline=$repo/examples/warc_pipeline.yaml
grep -v -e '^  - stage: exact_dedup' -e '^  - stage: fuzzy_dedup' "$pipeline" > "$out/no_dedup.yaml"
for mode in never always auto; do
  sed "s/^seed: 42/seed: 42\nmaterialize: $mode/" "$pipeline" > "$out/$mode.yaml"
done

# best NAME PIPELINE: the least CPU seconds over the repeats, with that run's wall seconds.
best() {
  local name=$1 yaml=$2 cpu="" wall=""
  for _ in $(seq "$repeats"); do
    /usr/bin/time -f "%e %U %S" -o "$tfile" "$winnow" run "$yaml" --input "$warc" \
      --output "$out/run" --threads 1 --overwrite --no-progress -q
    read -r w u s < "$tfile"
    c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
    if [ -z "$cpu" ] || awk -v a="$c" -v b="$cpu" 'BEGIN { exit !(a < b) }'; then
      cpu=$c
      wall=$w
    fi
  done
  printf '%s %s %s\n' "$name" "$cpu" "$wall"
}

{
  best "without dedup" "$out/no_dedup.yaml"
  best "dedup, materialize: never" "$out/never.yaml"
  best "dedup, materialize: always" "$out/always.yaml"
  best "dedup, materialize: auto" "$out/auto.yaml"
} | awk 'NR == 1 { base = $(NF - 1) }
  { name = $0; sub(/ [^ ]+ [^ ]+$/, "", name)
    printf "%-30s %8s CPU s %8s wall s %6.2fx the run without dedup\n", name, $(NF - 1), $NF, $(NF - 1) / base }'
