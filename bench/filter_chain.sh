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

# End to end, one worker per step (so several threads, one per step, share the machine).
out=$work_dir/out
start=$(date +%s.%N)
"$build_dir/winnow" run "$pipeline" --input "$work_dir/docs.jsonl" --output "$out" --overwrite \
  --threads 1 --output-format jsonl >/dev/null
end=$(date +%s.%N)
docs=$(wc -l < "$work_dir/docs.jsonl")
python3 - "$docs" "$start" "$end" "$out/stats.json" <<'PY'
import json, sys
docs, start, end, stats = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
s = json.load(open(stats))
busy = sum(step["busy_seconds"] for step in s["steps"])
filters = sum(step["busy_seconds"] for step in s["steps"] if step["type"] not in ("read", "write"))
print(f"  winnow run --threads 1: {docs / (end - start):.0f} docs/s wall; "
      f"filter steps {docs / filters:.0f} docs/s of busy time; all steps {docs / busy:.0f} docs/s "
      f"of busy time; kept {s['totals']['kept']} of {s['totals']['documents']} "
      f"(reconciled: {s['reconciles']})")
PY
