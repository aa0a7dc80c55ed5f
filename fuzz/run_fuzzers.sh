#!/bin/sh
# Builds the libFuzzer targets with clang (ASan + libFuzzer; the main build uses GCC) and runs
# each for SECONDS. Exits non-zero on a crash, a leak or a build failure.
#   fuzz/run_fuzzers.sh BUILD_DIR [SECONDS]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?build dir}/fuzz
seconds=${2:-20}
mkdir -p "$out"
cxx=${FUZZ_CXX:-clang++-14}
flags="-std=c++20 -g -O1 -fsanitize=fuzzer,address -I$root/src -I$out/generated $(pkg-config --cflags icu-uc uchardet gumbo libxml-2.0 libutf8proc)"
core="src/core/doc_batch.cpp src/core/arena.cpp src/core/json_text.cpp src/core/utf8.cpp src/core/ascii.cpp"
warc="src/io/warc_reader.cpp src/io/buffered_input.cpp src/io/warc_header_parser.cpp src/io/header_field.cpp src/io/http_response_head.cpp src/io/chunked_decoding.cpp src/io/content_decoding.cpp src/io/warc_record_filter.cpp src/io/warc_record_builder.cpp src/io/warc_digest.cpp src/io/shard_batches.cpp src/core/sha1.cpp"
io="$warc src/io/byte_source.cpp src/io/compression.cpp src/io/jsonl_parser.cpp src/io/wide_json_numbers.cpp"
text="src/text/charset.cpp src/text/html_document.cpp src/text/html_gumbo.cpp src/text/html_libxml2.cpp src/text/html_scanner.cpp src/text/html_event_sink.cpp src/text/justext.cpp src/text/html_plain_text.cpp src/text/stop_words.cpp src/text/unicode_space.cpp src/text/html_extractor.cpp src/text/cld2_language.cpp"

build() {  # name, sources, libraries; rebuilt only when a source is newer
  name=$1; sources=$2; libs=$3
  target="$out/$name"
  if [ -x "$target" ]; then
    stale=0
    for s in fuzz/$name.cpp $sources; do [ "$root/$s" -nt "$target" ] && stale=1; done
    [ $stale = 0 ] && return 0
  fi
  (cd "$root" && $cxx $flags -o "$target" fuzz/$name.cpp $sources $libs)
}

build warc_reader_fuzz "$core $io" "-lsimdjson -lfmt -lz -lzstd -lbz2 -lcrypto"
build html_extract_fuzz "$core $text" "-lsimdjson -lfmt $(pkg-config --libs icu-uc uchardet gumbo libxml-2.0 libutf8proc) -lcld2"

status=0
for name in warc_reader_fuzz html_extract_fuzz; do
  corpus="$out/corpus-$name"
  mkdir -p "$corpus"
  # Seeds: a few real pages and a real WARC, when the test left one.
  if [ "$name" = warc_reader_fuzz ]; then
    body='HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n<p>\r\n0\r\n\r\n'
    len=$(printf "$body" | wc -c)
    printf "\000WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: <http://a/>\r\nContent-Type: application/http\r\nContent-Length: $len\r\n\r\n$body\r\n\r\nWARC/1.1\r\nWARC-Type: resource\r\nContent-Type: text/html\r\nContent-Length: 3\r\n\r\n<p>\r\n\r\n" \
      > "$corpus/seed-records"
  fi
  if [ "$name" = html_extract_fuzz ]; then
    for f in /usr/share/doc/python3.11/html/tutorial/appetite.html \
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
