#!/usr/bin/env bash
# pii_redact throughput (issue #36 item 1): MB of document text per CPU second of the whole
# `winnow run --threads 1` process (read, parse, the stage, encode, write), on real documents:
# bench/make_long_corpus (Python 3.11's reStructuredText documentation and rendered manual
# pages of this machine), repeated BENCH_COPIES times (default 4). A pipeline without stages,
# measured in the same run, is the floor; "the stage alone" divides by the difference.
#
# Usage: bench/pii_redact.sh [BUILD_DIR=build] [WORK_DIR=build/bench/pii]
# Needs: GNU time at /usr/bin/time, python3, man (for the corpus).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/long_corpus_run.sh"
long_corpus_init pii 4 "$@"
long_corpus_input

printf 'stages: []\n' > "$work_dir/passthrough.yaml"
printf 'stages:\n  - {stage: pii_redact}\n' > "$work_dir/redact.yaml"
printf 'stages:\n  - {stage: pii_redact, action: replace}\n' > "$work_dir/replace.yaml"

cpu_seconds() { run_cpu "$1" "$work_dir/in" jsonl 3 | cut -d" " -f1; }  # best of 3
pass=$(cpu_seconds "$work_dir/passthrough.yaml")
redact=$(cpu_seconds "$work_dir/redact.yaml")
replace=$(cpu_seconds "$work_dir/replace.yaml")
python3 - "$work_dir/out/stats.json" <<'PY' || true
import json, sys
stats = json.load(open(sys.argv[1]))
for step in stats.get("steps", []):
    if step.get("name") == "pii_redact" and step.get("counts"):
        print("  entities found (replace run):", step["counts"])
PY
awk -v b="$text_bytes" -v d="$docs" -v p="$pass" -v r="$redact" -v q="$replace" 'BEGIN {
  printf "  winnow run --threads 1, %d documents, %.1f MB of text, MB per CPU second (best of 3):\n", d, b / 1e6
  printf "    pass-through (no stages)  %7.1f MB/CPU-s (%.2f s)\n", b / 1e6 / p, p
  printf "    pii_redact, redact        %7.1f MB/CPU-s (%.2f s); the stage alone %.0f MB/CPU-s\n", b / 1e6 / r, r, b / 1e6 / (r - p)
  printf "    pii_redact, replace       %7.1f MB/CPU-s (%.2f s); the stage alone %.0f MB/CPU-s\n", b / 1e6 / q, q, b / 1e6 / (q - p) }'
