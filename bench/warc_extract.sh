#!/usr/bin/env bash
# WARC read + HTML extraction throughput, against one pass of plain gunzip over the same file.
#
# Usage: bench/warc_extract.sh [BUILD_DIR=build] [WORK_DIR=build/bench/warc]
#
# Makes a real WARC the first time: wget crawls all of Debian's python3-doc HTML (about
# 530 pages) from a local python3 http.server on 127.0.0.1. Then times, on one thread:
#   gunzip   gzip -dc crawl.warc.gz > /dev/null          (the floor: decompression alone)
#   read     winnow with no stages (WARC parsing, JSONL writing of the raw payloads)
#   justext  winnow with html_extract (charset, the scanner, CLD2, jusText; NeMo's settings)
#   plain    winnow with html_extract algorithm: plain
#   improved winnow with html_extract, stop_words: both, container: true (the example's)
#   trafilatura  winnow with html_extract algorithm: trafilatura (NeMo's TrafilaturaExtractor
#            defaults)
#   justext libxml2 / gumbo: justext on the other two parsers
# and reports MB/s of uncompressed WARC and records/s per CPU second (best of 2), and each against
# gunzip. Then runs, on the same WARC, bench/nemo_path.py (NeMo Curator's WARC -> jusText
# path re-created in Python with lxml's parser, Cleaner and SAX walk: the baseline of issue #5)
# and bench/nemo_floor.py (a LOWER bound of that path, see the file), prints winnow's speed-up
# against each, and the parity of winnow's justext text with nemo_path.py's (bench/nemo_parity.py).
# Then html_parsers_bench on every HTML page of the install (parser speed and parity), and the
# extraction quality figures (bench/html_extract_quality.cpp) on two page
# sets: the python3-doc pages in two halves, and debian-reference's chapters (en de fr).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work=$(abspath "${2:-$repo/build/bench/warc}")
winnow=$build_dir/winnow
docs=/usr/share/doc/python3/html
mkdir -p "$work"
warc=$work/crawl.warc.gz

"$repo/bench/make_crawl" "$work"

bytes=$(gzip -dc "$warc" | wc -c)
records=$(gzip -dc "$warc" | grep -ac '^WARC-Type: response')
echo "WARC: $(stat -c %s "$warc") bytes gzip, $bytes bytes, $records response records"

# CPU seconds (user + sys, the command and its children), not wall time: per-core throughput is
# what is compared, winnow's reader and writer threads count, and on a shared machine wall time
# measures the neighbours.
cpu_seconds() {  # CPU seconds of one run of "$@", a command or a function (output discarded)
  # bash's `times` gives the CPU time of the shell's finished children, before and after.
  times >"$work/times.0"
  "$@" >/dev/null 2>&1 || true
  times >"$work/times.1"
  awk 'function s(x, p) { split(x, p, "m"); return p[1] * 60 + substr(p[2], 1, length(p[2]) - 1) }
       FNR == 2 { t[FILENAME] = s($1) + s($2) }
       END { printf "%.3f\n", t[ARGV[2]] - t[ARGV[1]] }' "$work/times.0" "$work/times.1"
}
best() {  # the least CPU seconds of 2 runs of "$@"
  local best=""
  for _ in 1 2; do
    local t; t=$(cpu_seconds "$@")
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}
pipeline() {  # a pipeline file for the given stage block
  local f=$work/$1.yaml
  printf 'output:\n  format: jsonl\nstages:\n%s\n' "$2" > "$f"
  echo "$f"
}
run() { "$winnow" run "$1" --input "$warc" --output "$work/out-$2" --threads 1 --overwrite; }

floor=$(best sh -c "gzip -dc '$warc' > /dev/null")
read_only=$(pipeline read "  []")
justext=$(pipeline justext "  - stage: html_extract")
plain=$(pipeline plain "  - stage: html_extract
    algorithm: plain")
printf '%-16s %8s %10s %11s %12s\n' step "CPU s" "MB/s" "records/s" "vs gunzip"
report() {
  printf '%-16s %8.2f %10.1f %11.0f %11.3fx\n' "$1" "$2" "$(echo "$bytes / $2 / 1000000" | bc -l)" \
    "$(echo "$records / $2" | bc -l)" "$(echo "$floor / $2" | bc -l)"
}
report gunzip "$floor"
report read "$(best run "$read_only" read)"
justext_s=$(best run "$justext" justext)
report justext "$justext_s"
plain_s=$(best run "$plain" plain)
report plain "$plain_s"
improved=$(pipeline improved "  - stage: html_extract
    stop_words: both
    container: true")
improved_s=$(best run "$improved" improved)
report improved "$improved_s"
trafilatura=$(pipeline trafilatura "  - stage: html_extract
    algorithm: trafilatura")
report trafilatura "$(best run "$trafilatura" trafilatura)"
# The same justext run on the other two parsers (the scanner is the default).
for parser in libxml2 gumbo; do
  p=$(pipeline "justext-$parser" "  - stage: html_extract
    parser: $parser")
  report "justext $parser" "$(best run "$p" "justext-$parser")"
done

echo
floor_py() {  # least CPU seconds of 2 runs of bench/nemo_floor.py "$@"
  best /usr/bin/python3 "$repo/bench/nemo_floor.py" "$@" "$warc"
}
path_py() {  # least CPU seconds of 2 runs of bench/nemo_path.py (its text kept for the parity)
  best /usr/bin/python3 "$repo/bench/nemo_path.py" --write-jsonl "$work/nemo_path.jsonl" "$warc"
}
echo
echo "NeMo's Python path, one core, best of 2: bench/nemo_path.py (the path re-created: warcio-"
echo "style reading, decode, lxml + Cleaner + SAX jusText; no pycld2, no Dask) and bench/nemo_floor.py"
echo "(a LOWER bound: parse + walk, + classify):"
nemo_full=$(path_py)
nemo_parse=$(floor_py)
nemo_classify=$(floor_py --classify)
printf '%-16s %8s %10s %11s %14s %14s %14s\n' baseline "CPU s" "MB/s" "records/s" "justext vs it" \
  "improved vs it" "plain vs it"
nemo_report() {
  printf '%-16s %8.2f %10.1f %11.0f %13.2fx %13.2fx %13.2fx\n' "$1" "$2" \
    "$(echo "$bytes / $2 / 1000000" | bc -l)" "$(echo "$records / $2" | bc -l)" \
    "$(echo "$2 / $justext_s" | bc -l)" "$(echo "$2 / $improved_s" | bc -l)" \
    "$(echo "$2 / $plain_s" | bc -l)"
}
nemo_report "nemo path" "$nemo_full"
nemo_report "floor: parse" "$nemo_parse"
nemo_report "floor: +class." "$nemo_classify"
echo
echo "Parity of winnow's justext text with nemo_path.py's (bench/nemo_parity.py, per URL):"
/usr/bin/python3 "$repo/bench/nemo_parity.py" --summary "$work/out-justext/crawl.warc.jsonl" \
  "$work/nemo_path.jsonl"
echo "... the same, nemo_path.py with winnow's documented deviations from jusText applied"
echo "(--winnow-deviations html5-blocks,blank-nodes; what remains is undocumented divergence):"
/usr/bin/python3 "$repo/bench/nemo_path.py" --winnow-deviations html5-blocks,blank-nodes \
  --write-jsonl "$work/nemo_path_dev.jsonl" "$warc" >/dev/null
/usr/bin/python3 "$repo/bench/nemo_parity.py" --summary --differing \
  "$work/out-justext/crawl.warc.jsonl" "$work/nemo_path_dev.jsonl"
echo "Probe pages (bench/nemo_probe_warc.py: markup the crawl lacks), deviations applied:"
/usr/bin/python3 "$repo/bench/nemo_probe_warc.py" "$work/probe.warc.gz" >/dev/null
"$winnow" run "$justext" --input "$work/probe.warc.gz" --output "$work/out-probe" --threads 1 \
  --overwrite >/dev/null 2>&1
/usr/bin/python3 "$repo/bench/nemo_path.py" --winnow-deviations html5-blocks,blank-nodes \
  --write-jsonl "$work/nemo_probe.jsonl" "$work/probe.warc.gz" >/dev/null
/usr/bin/python3 "$repo/bench/nemo_parity.py" --summary --differing \
  "$work/out-probe/probe.warc.jsonl" "$work/nemo_probe.jsonl"

# Parity on a second site: debian-reference (DocBook XHTML, 8 languages), fetched once by wget
# from a local server; nemo_path.py takes each page's language from its file name (ch01.de.html).
debref=$work/debref.warc.gz
if [ ! -f "$debref" ] && [ -f /usr/share/debian-reference/index.en.html ]; then
  log=$work/debref-server.log
  python3 -u -m http.server 0 --bind 127.0.0.1 --directory /usr/share/debian-reference >"$log" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  for _ in $(seq 100); do grep -q 'port [0-9]* (http' "$log" && break; sleep 0.1; done
  port=$(grep -o 'port [0-9]* (http' "$log" | head -1 | cut -d' ' -f2)
  (cd /usr/share/debian-reference && ls -- *.html) | sed "s|^|http://127.0.0.1:$port/|" > "$work/debref-urls.txt"
  (cd "$work" && wget -q --warc-file=debref -P dl-debref -i debref-urls.txt) || [ $? = 8 ]
  kill $server; trap - EXIT
  rm -rf "$work/dl-debref"
fi
if [ -f "$debref" ]; then
  "$winnow" run "$justext" --input "$debref" --output "$work/out-debref" --threads 1 \
    --overwrite >/dev/null 2>&1
fi
for deviations in "" "html5-blocks,blank-nodes"; do
  [ -f "$debref" ] || break
  echo "Parity on debian-reference (nemo_path.py --language-from-url${deviations:+, deviations applied}):"
  /usr/bin/python3 "$repo/bench/nemo_path.py" --language-from-url \
    ${deviations:+--winnow-deviations "$deviations"} --write-jsonl "$work/nemo_debref.jsonl" \
    "$debref" >/dev/null
  /usr/bin/python3 "$repo/bench/nemo_parity.py" --summary "$work/out-debref/debref.warc.jsonl" \
    "$work/nemo_debref.jsonl"
done

if [ -x "$build_dir/bench/html_parsers_bench" ]; then
  echo
  echo "The three parsers on every HTML page of this install (bench/html_parsers_bench.cpp):"
  find /usr/share -name '*.html' -type f 2>/dev/null | sort | xargs "$build_dir/bench/html_parsers_bench"
fi

if [ -x "$build_dir/html_extract_quality" ]; then
  pages=$(find "$docs/" -name '*.html' -not -path '*/_*' | sort)
  echo
  echo "Extraction quality against div[role=main] on $docs, half A (odd positions, sorted):"
  "$build_dir/html_extract_quality" $(echo "$pages" | awk 'NR % 2 == 1')
  echo "... half B (even positions):"
  "$build_dir/html_extract_quality" $(echo "$pages" | awk 'NR % 2 == 0')
  for l in en de fr; do
    echo "Extraction quality against div.chapter less div.toc on debian-reference ($l):"
    "$build_dir/html_extract_quality" --main class=chapter --exclude class=toc \
      /usr/share/debian-reference/ch*.$l.html
  done
fi
