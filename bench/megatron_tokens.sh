#!/usr/bin/env bash
# Megatron output throughput (issue 35 item 2): tokens per CPU second of the whole
# `winnow run --threads 1` process (read, parse, tokenise, write the .bin/.idx pair and the
# rejected JSONL), on real documents: bench/make_long_corpus (Python 3.11's reStructuredText
# documentation and rendered manual pages of this machine), repeated BENCH_COPIES times
# (default 1), with llama3's and gemma3's real tokenizer.json files (scripts/fetch_tokenizer_files).
# A pipeline without stages writing plain JSONL, measured in the same run, is the floor.
#
# Usage: bench/megatron_tokens.sh [BUILD_DIR=build] [WORK_DIR=build/bench/megatron]
# Needs: GNU time at /usr/bin/time, python3, man (for the corpus).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work_dir=$(abspath "${2:-$repo/build/bench/megatron}")
copies=${BENCH_COPIES:-1}
winnow=$build_dir/winnow
[ -x "$winnow" ] || { echo "megatron_tokens: no winnow at $winnow" >&2; exit 1; }
tokenizers="${WINNOW_CACHE:-$HOME/.cache/winnow}/tokenizer-files-3.7.2"
[ -f "$tokenizers/llama3/tokenizer.json" ] || "$repo/scripts/fetch_tokenizer_files" >&2
mkdir -p "$work_dir/in"

long=$work_dir/long.jsonl
[ -f "$long" ] || python3 "$repo/bench/make_long_corpus" "$long" >&2
if [ ! -f "$work_dir/in/.copies-$copies" ]; then
  rm -f "$work_dir"/in/*.jsonl "$work_dir"/in/.copies-*
  for _ in $(seq "$copies"); do cat "$long"; done > "$work_dir/in/docs.jsonl"
  touch "$work_dir/in/.copies-$copies"
fi
docs=$(wc -l < "$work_dir/in/docs.jsonl")

printf 'stages: []\n' > "$work_dir/passthrough.yaml"
for name in llama3 gemma3; do
  printf 'output: {format: megatron, tokenizer: %s, append_eod: true, eod_id: %s}\n' \
    "$tokenizers/$name/tokenizer.json" "$([ $name = llama3 ] && echo 128001 || echo 1)" \
    > "$work_dir/$name.yaml"
done

cpu_seconds() {  # PIPELINE FORMAT -> best user+sys over 3 runs
  local best=""
  for _ in 1 2 3; do
    local t
    t=$( { /usr/bin/time -f '%U %S' "$winnow" run "$1" --input "$work_dir/in" \
           --output "$work_dir/out" --overwrite --threads 1 --output-format "$2" -q \
           >/dev/null; } 2>&1 | tail -1 | awk '{print $1 + $2}')
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
  done
  echo "$best"
}
tokens_written() {  # the sequence lengths' sum in the run's .idx files
  python3 - "$work_dir/out" <<'PY'
import glob, struct, sys
total = 0
for path in glob.glob(sys.argv[1] + "/*.idx"):
    idx = open(path, "rb").read()
    (count,) = struct.unpack_from("<Q", idx, 18)
    total += sum(struct.unpack_from("<%di" % count, idx, 34))
print(total)
PY
}
pass=$(cpu_seconds "$work_dir/passthrough.yaml" jsonl)
echo "  winnow run --threads 1, $docs documents of bench/make_long_corpus x $copies (best of 3):"
printf '    pass-through to JSONL        %.2f CPU s\n' "$pass"
for name in llama3 gemma3; do
  t=$(cpu_seconds "$work_dir/$name.yaml" megatron)
  n=$(tokens_written)
  awk -v n="$n" -v t="$t" -v p="$pass" -v name="$name" 'BEGIN {
    printf "    megatron, %-8s %11d tokens, %.2f CPU s: %.0f tokens per CPU second (%.0f without the floor)\n", name, n, t, n / t, n / (t - p) }'
done
