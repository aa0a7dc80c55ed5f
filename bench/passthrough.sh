#!/usr/bin/env bash
# Pass-through benchmark: how close does `winnow run` with no stages get to plain `zstd -dc`?
#
# Usage: bench/passthrough.sh [BUILD_DIR=build] [WORK_DIR=build/bench]
#
# Relative BUILD_DIR / WORK_DIR are taken relative to the current directory; the defaults are
# relative to the repository root. Environment:
#   BENCH_BYTES        corpus size in uncompressed bytes when it has to be generated
#                      (default 1100000000; an existing corpus is reused whatever its size)
#   BENCH_THREADS      --threads for winnow (default 2)
#   BENCH_KEEP_OUTPUT  set to 1 to keep winnow's outputs (default: deleted after the checks)
#
# Needs: zstd, GNU time at /usr/bin/time (Debian package `time`), python3.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work_dir=$(abspath "${2:-$repo/build/bench}")
bytes=${BENCH_BYTES:-1100000000}
threads=${BENCH_THREADS:-2}

die() { echo "passthrough: $*" >&2; exit 1; }
winnow=$build_dir/winnow
[ -x "$winnow" ] || die "no winnow binary at $winnow (build first, or pass BUILD_DIR)"
command -v zstd >/dev/null || die "zstd is required (apt-get install zstd)"
[ -x /usr/bin/time ] || die "GNU time is required at /usr/bin/time (apt-get install time)"

corpus_dir=$work_dir/corpus
corpus=$corpus_dir/bench.jsonl.zst
stats=$corpus_dir/bench.stats   # "<compressed bytes> <uncompressed bytes> <lines>"
mkdir -p "$corpus_dir"

if [ ! -f "$corpus" ]; then
  echo "passthrough: generating $corpus ($bytes bytes uncompressed)..." >&2
  python3 "$repo/bench/make_bench_corpus" "$corpus" --bytes "$bytes" --seed 7 >&2
fi

csize=$(stat -c %s "$corpus")
if [ ! -f "$stats" ] || [ "$(cut -d' ' -f1 "$stats")" != "$csize" ]; then
  echo "passthrough: counting the corpus's uncompressed bytes and lines..." >&2
  read -r in_lines in_bytes < <(zstd -dc "$corpus" | wc -lc)
  echo "$csize $in_bytes $in_lines" > "$stats"
fi
read -r _ in_bytes in_lines < "$stats"

tfile=$(mktemp)
trap 'rm -f "$tfile"' EXIT

# timed CMD...: runs CMD under GNU time; sets $secs and $rss_kb. Returns CMD's status.
timed() {
  local rc=0
  /usr/bin/time -f "%e %M" -o "$tfile" "$@" || rc=$?
  read -r secs rss_kb < <(tail -n 1 "$tfile")
  return "$rc"
}

mbps() { awk -v b="$in_bytes" -v s="$1" 'BEGIN { if (s > 0) printf "%.1f", b / 1e6 / s; else print "inf" }'; }

# Floor: decompress only, best of 2.
best=""
best_rss=0
for _ in 1 2; do
  timed zstd -dc "$corpus" > /dev/null
  if [ -z "$best" ] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then
    best=$secs
    best_rss=$rss_kb
  fi
done
floor_mbps=$(mbps "$best")

# Second baseline, for compressed output: decompress and recompress at zstd's default level 3
# on one thread, what any tool writing .zst output pays at least.
echo "passthrough: timing zstd -dc | zstd -3..." >&2
timed bash -c 'zstd -dc "$1" | zstd -q -3 -T1 -c > /dev/null' _ "$corpus"
recompress_secs=$secs
recompress_mbps=$(mbps "$secs")

# Counts the JSON lines winnow wrote: OUT may be a file or a directory of shards. In an output
# folder only the kept shards count: they sit at its top, beside metrics.jsonl (which a
# `*.jsonl` pattern would also match) and above rejected/ and errors/, which are not output.
count_lines() {
  local out=$1 ext=$2
  local files=()
  if [ -d "$out" ]; then
    mapfile -d '' files < <(find "$out" -maxdepth 1 -type f -name "*.$ext" ! -name 'metrics.jsonl' \
      ! -name '.*' -print0 | sort -z)
  elif [ -f "$out" ]; then
    files=("$out")
  fi
  [ ${#files[@]} -gt 0 ] || { echo 0; return; }
  case $ext in
    jsonl) cat -- "${files[@]}" | wc -l ;;
    jsonl.zst) zstd -dc -- "${files[@]}" | wc -l ;;
    jsonl.gz) gzip -dc -- "${files[@]}" | wc -l ;;
  esac
}

rows=()
status=0
run_case() {
  local name=$1 out=$2 ext=$3
  shift 3
  echo "passthrough: timing $name..." >&2
  if ! timed "$winnow" run "$repo/bench/passthrough.yaml" --input "$corpus" --output "$out" \
      --threads "$threads" --overwrite "$@"; then
    echo "passthrough: winnow failed for $name" >&2
    rows+=("$(printf '%-22s %9s %9s %9s %12s  %s' "$name" "-" "-" "-" "-" "FAILED")")
    status=1
    return
  fi
  local lines check="ok"
  lines=$(count_lines "$out" "$ext")
  if [ "$lines" != "$in_lines" ]; then
    check="MISMATCH: $lines lines out, $in_lines in"
    status=1
  fi
  local rate ratio
  rate=$(mbps "$secs")
  ratio=$(awk -v r="$rate" -v f="$floor_mbps" 'BEGIN { printf "%.2f", r / f }')
  rows+=("$(printf '%-22s %9s %9s %9s %12s  %s' "$name" "$secs" "$rate" "${ratio}x" \
    "$(awk -v k="$rss_kb" 'BEGIN { printf "%.1f", k / 1024 }')" "$check")")
  if [ "${BENCH_KEEP_OUTPUT:-0}" != 1 ]; then rm -rf -- "$out"; fi
}

run_case "winnow, jsonl out" "$work_dir/out-jsonl" jsonl
run_case "winnow, jsonl.zst out" "$work_dir/out-zst" jsonl.zst --output-format jsonl.zst
run_case "winnow, jsonl.gz out" "$work_dir/out-gz" jsonl.gz --output-format jsonl.gz

echo
echo "Pass-through benchmark: $corpus"
echo "  input: $in_lines documents, $in_bytes bytes uncompressed, $csize bytes compressed;" \
  "threads $threads; MB = 10^6 bytes of uncompressed input JSON"
printf '%-22s %9s %9s %9s %12s  %s\n' "run" "wall s" "MB/s" "vs floor" "peak RSS MB" "lines"
printf '%-22s %9s %9s %9s %12s  %s\n' "floor: zstd -dc" "$best" "$floor_mbps" "1.00x" \
  "$(awk -v k="$best_rss" 'BEGIN { printf "%.1f", k / 1024 }')" "-"
printf '%-22s %9s %9s %9s %12s  %s\n' "zstd -dc | zstd -3" "$recompress_secs" "$recompress_mbps" \
  "$(awk -v r="$recompress_mbps" -v f="$floor_mbps" 'BEGIN { printf "%.2fx", r / f }')" "-" "-"
printf '%s\n' "${rows[@]}"
exit "$status"
