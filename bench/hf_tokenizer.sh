#!/usr/bin/env bash
# Tokenizer throughput, winnow vs Hugging Face's tokenizers, on one core, in one run: gemma3's,
# llama3's and qwen3's real tokenizer.json (scripts/fetch_tokenizer_files) on paragraphs of the
# Debian Reference in 8 languages (N per language), the same texts for both. winnow: tokens per
# CPU second of the first pass over the texts (build/bench/hf_tokenizer_bench; later passes find
# every text in the word cache when whole stretches are short, as gemma3's are, which real
# corpora would not: the headline is the first pass); HF: tokens per second of encode() per
# text and of encodeBatch(), best of 3 (bench/hf_tokenizer_bench.js, RAYON_NUM_THREADS=1),
# both pinned to CPU 0. The ratio: winnow's first pass over HF's better rate.
#
# Usage: bench/hf_tokenizer.sh [BUILD_DIR=build] [N=400]
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${1:-$repo/build}
per_language=${2:-400}
cache=${WINNOW_CACHE:-$HOME/.cache/winnow}
cmake --build "$build_dir" --target hf_tokenizer_bench >/dev/null
"$repo/scripts/fetch_hf_tokenizers"
"$repo/scripts/fetch_tokenizer_files"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

/usr/bin/python3 - "$per_language" "$work/texts.json" <<'PY'
import gzip, json, sys
n, out = int(sys.argv[1]), []
for language in ["en", "de", "fr", "es", "it", "pt", "ja", "zh-cn"]:
    path = f"/usr/share/doc/debian-reference-common/docs/debian-reference.{language}.txt.gz"
    text = gzip.open(path).read().decode()
    taken, start = 0, text.find("\n\n", len(text) // 4) + 2
    while start < len(text) and taken < n:
        end = text.find("\n\n", start)
        end = len(text) if end < 0 else end
        paragraph, start = text[start:end], end + 2
        if len(paragraph) >= 40:
            out.append(paragraph)
            taken += 1
json.dump(out, open(sys.argv[2], "w"), ensure_ascii=False)
PY

printf '%-8s %10s %13s %13s %11s %11s %7s\n' tokenizer tokens "winnow first" "winnow best" \
  "HF encode" "HF batch" ratio
for name in gemma3 llama3 qwen3; do
  file=$cache/tokenizer-files-3.7.2/$name/tokenizer.json
  ours=$(taskset -c 0 "$build_dir/bench/hf_tokenizer_bench" "$file" "$work/texts.json")
  theirs=$(RAYON_NUM_THREADS=1 taskset -c 0 node "$repo/bench/hf_tokenizer_bench.js" \
    "$cache/hf-tokenizers-0.23.2" "$file" "$work/texts.json")
  /usr/bin/python3 - "$name" "$ours" "$theirs" <<'PY'
import json, sys
name, ours, theirs = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
assert ours["tokens"] == theirs["tokens"], (ours["tokens"], theirs["tokens"])
best = max(theirs["encode_tokens_per_s"], theirs["encode_batch_tokens_per_s"])
print(f"{name:<8} {ours['tokens']:>10,} {ours['first_tokens_per_s']:>13,} "
      f"{ours['best_tokens_per_s']:>13,} {theirs['encode_tokens_per_s']:>11,} "
      f"{theirs['encode_batch_tokens_per_s']:>11,} {ours['first_tokens_per_s'] / best:>6.2f}x")
PY
done
