#!/usr/bin/env bash
# Audio (issue 39): hours of audio per CPU-hour for winnow's decode + resample (16 kHz mono,
# written as FLAC) + bandwidth + WER on scripts/make_audio_corpus's speech, against the ffmpeg
# command decoding (and resampling to 16 kHz mono) the same files in the same run, one process
# per file (how a manifest is usually scripted), and that command's start-up alone (`ffmpeg
# -version` per file) to subtract. Whole-process user + system CPU each. (One ffmpeg process
# with 100 inputs is no baseline: FFmpeg 5.1 gives each input a demuxer thread, which burns
# ~50x the CPU of decoding here.)
#
# Usage: bench/audio.sh [BUILD_DIR=build] [WORK_DIR=build/bench/audio]
# Environment: AUDIO_REPEATS (100: the corpus's ten good files repeated; ~48 s of audio each),
# THREADS (1).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build=$(abspath "${1:-$repo/build}")
work=$(abspath "${2:-$repo/build/bench/audio}")
repeats=${AUDIO_REPEATS:-100}
threads=${THREADS:-1}
mkdir -p "$work"
corpus="$work/corpus-$repeats"
[ -f "$corpus/manifest.jsonl" ] || "$repo/scripts/make_audio_corpus" "$corpus" "$repeats"
# The good lines only: the bad files are the tests' business, not the benchmark's.
grep -v '"expect": "\(unreadable_file\|empty_file\|undecodable_audio\|empty_audio\|unknown_media\)"' \
  "$corpus/manifest.jsonl" >"$corpus/good.jsonl"
cat >"$work/audio.yaml" <<'YAML'
input: {format: audio_manifest}
output: {format: jsonl}
stages:
  - {stage: resample, sample_rate: 16000}
  - {stage: audio_bandwidth}
  - {stage: wer, hypothesis_field: pred_text}
YAML

cpu() {  # the user + system seconds of a command
  /usr/bin/time -f '%U %S' -o "$work/time.txt" "$@" >/dev/null 2>&1
  python3 -c "u, s = open('$work/time.txt').read().split()[-2:]; print(f'{float(u) + float(s):.2f}')"
}

winnow_cpu=$(cpu "$build/winnow" run "$work/audio.yaml" -i "$corpus/good.jsonl" -o "$work/out" \
  --overwrite --threads "$threads" --no-progress)
hours=$(python3 -c "
import json
print(sum(json.loads(l)['duration'] for l in open('$work/out/good.jsonl')) / 3600)")
files=$(wc -l <"$work/out/good.jsonl")
mapfile -t paths < <(python3 -c "
import json
for l in open('$corpus/good.jsonl'): print('$corpus/' + json.loads(l)['audio_filepath'])")

per_file() { for p in "${paths[@]}"; do ffmpeg -nostdin -v error -i "$p" -ar 16000 -ac 1 -f null -; done; }
start_up() { for p in "${paths[@]}"; do ffmpeg -nostdin -v error -version; done; }
ffmpeg_cpu=$(cpu bash -c "$(declare -p paths); $(declare -f per_file); per_file")
start_cpu=$(cpu bash -c "$(declare -p paths); $(declare -f start_up); start_up")
python3 - "$hours" "$files" "$winnow_cpu" "$ffmpeg_cpu" "$start_cpu" "$threads" <<'PY'
import sys
hours, files = float(sys.argv[1]), int(sys.argv[2])
rows = [("winnow: decode + resample + FLAC + bandwidth + WER (%s thread)" % sys.argv[6], float(sys.argv[3])),
        ("ffmpeg, one process per file: decode + resample", float(sys.argv[4])),
        ("ffmpeg, one process per file, less its start-up", float(sys.argv[4]) - float(sys.argv[5]))]
print(f"corpus: {files} files, {hours:.3f} h of audio (scripts/make_audio_corpus)")
print(f"ffmpeg start-up alone: {float(sys.argv[5]):.2f} CPU s")
for name, cpu in rows:
    print(f"{name}: {cpu:.2f} CPU s, {hours / (cpu / 3600):,.0f} h of audio per CPU-hour")
PY
