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

. "$(dirname "${BASH_SOURCE[0]}")/long_corpus_run.sh"
long_corpus_init megatron 1 "$@"
tokenizers="${WINNOW_CACHE:-$HOME/.cache/winnow}/tokenizer-files-3.7.2"
[ -f "$tokenizers/llama3/tokenizer.json" ] || "$repo/scripts/fetch_tokenizer_files" >&2
long_corpus_input

printf 'stages: []\n' > "$work_dir/passthrough.yaml"
for name in llama3 gemma3; do
  printf 'output: {format: megatron, tokenizer: %s, append_eod: true, eod_id: %s}\n' \
    "$tokenizers/$name/tokenizer.json" "$([ $name = llama3 ] && echo 128001 || echo 1)" \
    > "$work_dir/$name.yaml"
done

cpu_seconds() { run_cpu "$1" "$work_dir/in" "$2" 3 | cut -d" " -f1; }  # PIPELINE FORMAT, best of 3
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
