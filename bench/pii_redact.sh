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

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work_dir=$(abspath "${2:-$repo/build/bench/pii}")
copies=${BENCH_COPIES:-4}
winnow=$build_dir/winnow
[ -x "$winnow" ] || { echo "pii_redact: no winnow at $winnow" >&2; exit 1; }
mkdir -p "$work_dir/in"

long=$work_dir/long.jsonl
[ -f "$long" ] || python3 "$repo/bench/make_long_corpus" "$long" >&2
if [ ! -f "$work_dir/in/.copies-$copies" ]; then
  rm -f "$work_dir"/in/*.jsonl "$work_dir"/in/.copies-*
  for _ in $(seq "$copies"); do cat "$long"; done > "$work_dir/in/docs.jsonl"
  touch "$work_dir/in/.copies-$copies"
fi
# The documents' text bytes (what the detectors scan), not the JSON around them.
text_bytes=$(python3 -c '
import json, sys
print(sum(len(json.loads(l)["text"].encode()) for l in open(sys.argv[1])))' "$work_dir/in/docs.jsonl")
docs=$(wc -l < "$work_dir/in/docs.jsonl")

printf 'stages: []\n' > "$work_dir/passthrough.yaml"
printf 'stages:\n  - {stage: pii_redact}\n' > "$work_dir/redact.yaml"
printf 'stages:\n  - {stage: pii_redact, action: replace}\n' > "$work_dir/replace.yaml"

cpu_seconds() {  # PIPELINE -> best user+sys over 3 runs
  local best=""
  for _ in 1 2 3; do
    local t
    t=$( { /usr/bin/time -f '%U %S' "$winnow" run "$1" --input "$work_dir/in" \
           --output "$work_dir/out" --overwrite --threads 1 --output-format jsonl -q \
           >/dev/null; } 2>&1 | tail -1 | awk '{print $1 + $2}')
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
  done
  echo "$best"
}
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
