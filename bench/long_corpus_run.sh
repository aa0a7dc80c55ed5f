# Sourced by the benchmarks that time `winnow run --threads 1` on bench/make_long_corpus
# (pii_redact.sh, megatron_tokens.sh, decontaminate.sh): the build and work folders, the input
# (the corpus repeated BENCH_COPIES times), and the CPU time of whole runs.
#
#   long_corpus_init NAME DEFAULT_COPIES [BUILD_DIR] [WORK_DIR]
#       sets repo, build_dir, work_dir (default build/bench/NAME), copies, winnow
#   long_corpus_input
#       writes $work_dir/in/docs.jsonl (once per copy count); sets docs and text_bytes (the
#       documents' text, not the JSON around it)
#   run_cpu PIPELINE INPUT FORMAT RUNS -> "best user+sys seconds" "largest max RSS in KB"

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }

long_corpus_init() {
  local name=$1
  copies=${BENCH_COPIES:-$2}
  build_dir=$(abspath "${3:-$repo/build}")
  work_dir=$(abspath "${4:-$repo/build/bench/$name}")
  winnow=$build_dir/winnow
  [ -x "$winnow" ] || { echo "$name: no winnow at $winnow" >&2; exit 1; }
  mkdir -p "$work_dir/in"
}

long_corpus_input() {
  local long=$work_dir/long.jsonl
  [ -f "$long" ] || python3 "$repo/bench/make_long_corpus" "$long" >&2
  if [ ! -f "$work_dir/in/.copies-$copies" ]; then
    rm -f "$work_dir"/in/*.jsonl "$work_dir"/in/.copies-*
    for _ in $(seq "$copies"); do cat "$long"; done > "$work_dir/in/docs.jsonl"
    touch "$work_dir/in/.copies-$copies"
  fi
  docs=$(wc -l < "$work_dir/in/docs.jsonl")
  text_bytes=$(python3 -c '
import json, sys
print(sum(len(json.loads(l)["text"].encode()) for l in open(sys.argv[1])))' "$work_dir/in/docs.jsonl")
}

run_cpu() {
  local best="" rss=0
  for _ in $(seq "$4"); do
    local out t m
    out=$( { /usr/bin/time -f '%U %S %M' "$winnow" run "$1" --input "$2" \
           --output "$work_dir/out" --overwrite --threads 1 --output-format "$3" -q \
           >/dev/null; } 2>&1 | tail -1)
    t=$(echo "$out" | awk '{print $1 + $2}')
    m=$(echo "$out" | awk '{print $3}')
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
    [ "$m" -gt "$rss" ] && rss=$m
  done
  echo "$best $rss"
}
