#!/usr/bin/env bash
# image_dedup's precision and recall (issue 30) on scripts/make_image_dedup_corpus: real
# wallpapers, photographs and textures with planted copies (resized 60 %, JPEG quality 55,
# cropped 3 %, mirrored) and distinct pictures that defeat pHash alone. Three runs of the same
# stage on the same shards, each scored against the corpus's truth (bench/image_dedup_score.py):
#   1. pHash alone: the threshold, crops and mirror of the default, connected components, no
#      information floor, no colour check (image_dedup as it was before issue 30);
#   2. pHash with every removal matched to its survivor (grouping: survivor) only;
#   3. the default: survivor matching, min_hash_bits 16, colour moments within 20.
# CPU seconds (user + system) of each whole run beside its scores.
#
# Usage: bench/image_dedup_quality.sh [BUILD_DIR=build] [WORK_DIR=build/bench/image_dedup]
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work=$(abspath "${2:-$repo/build/bench/image_dedup}")
winnow=$build_dir/winnow
[ -x "$winnow" ] || { echo "image_dedup_quality: no winnow at $winnow" >&2; exit 1; }
mkdir -p "$work"
WINNOW_BUILD=$build_dir "$repo/scripts/make_image_dedup_corpus" "$work/corpus" 2>&1 | grep -v libpng

declare -A configs=(
  [1-phash-alone]="min_hash_bits: 0, colour_tolerance: 0, grouping: components"
  [2-survivor-only]="min_hash_bits: 0, colour_tolerance: 0, grouping: survivor"
  [3-default]=""
)
for name in $(printf '%s\n' "${!configs[@]}" | sort); do
  extra=${configs[$name]}
  printf 'input: {format: webdataset}\nstages:\n  - {stage: image_dedup%s}\n' \
    "${extra:+, $extra}" > "$work/$name.yaml"
  /usr/bin/time -f '%U %S' -o "$work/$name.time" "$winnow" run "$work/$name.yaml" \
    -i "$work/corpus/shards" -o "$work/out-$name" --no-progress --threads 2 --overwrite \
    > "$work/$name.log" 2>&1
  read -r user sys < "$work/$name.time"
  printf "== %s (%s CPU s)\n" "$name" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')"
  /usr/bin/python3 "$repo/bench/image_dedup_score.py" "$work/corpus/truth.tsv" \
    "$work/out-$name/global/image_dedup/duplicates.jsonl"
done
