#!/bin/sh
# Runs each libFuzzer program of fuzz/ (built by the `fuzzers` target: fuzz/fuzzers.cmake, clang
# with ASan and libFuzzer) for SECONDS. Exits non-zero on a crash, a leak, a hang or a missing
# program; 77 when the build has no fuzzers (CMake found no clang that links one).
#   fuzz/run_fuzzers.sh BUILD_DIR [SECONDS]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?build dir}
out=$build/fuzz
seconds=${2:-20}
if [ ! -f "$out/CMakeCache.txt" ]; then
  echo "no fuzzers in $build: CMake found no clang that links a fuzzer (see its configure output)"
  exit 77
fi
# The build made them (`cmake --build BUILD --target fuzzers`; the fuzz test depends on it).

status=0
for source in "$root"/fuzz/*_fuzz.cpp; do
  name=$(basename "$source" .cpp)
  [ -x "$out/$name" ] || { echo "$name: not built ($out/$name)"; status=1; continue; }
  corpus="$out/corpus-$name"
  mkdir -p "$corpus"
  # Seeds: a few real records and pages.
  if [ "$name" = warc_reader_fuzz ]; then
    body='HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n<p>\r\n0\r\n\r\n'
    len=$(printf "$body" | wc -c)
    printf "\000WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: <http://a/>\r\nContent-Type: application/http\r\nContent-Length: $len\r\n\r\n$body\r\n\r\nWARC/1.1\r\nWARC-Type: resource\r\nContent-Type: text/html\r\nContent-Length: 3\r\n\r\n<p>\r\n\r\n" \
      > "$corpus/seed-records"
  fi
  if [ "$name" = html_extract_fuzz ]; then
    # The default Python's manual (python3-doc) and the Debian Reference, whichever version.
    for f in /usr/share/doc/python3/html/tutorial/appetite.html \
             /usr/share/doc/debian-reference-fr/docs/apa.ja.html; do
      [ -f "$f" ] && cp "$f" "$corpus/seed-$(basename "$f")"
    done
  fi
  "$out/$name" "$corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/$name-" \
    >"$out/$name.log" 2>&1 || { status=1; tail -40 "$out/$name.log"; }
  grep -E "stat::number_of_executed_units|Done" "$out/$name.log" | tail -2
done
exit $status
