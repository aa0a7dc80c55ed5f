#!/usr/bin/env bash
# pii_redact's named-entity model: MB of document text per CPU second of the whole
# `winnow run --threads 1` process, on the first 400 documents of bench/make_long_corpus, with
# seeded random token-classification models (bench/ner_bench_model.py: a WordPiece vocabulary
# from the corpus, random weights and so random labels): the test models' shape (hidden 16,
# 2 layers, 64 positions) and a BERT-mini shape (hidden 256, 4 layers, 4 heads, 512 positions).
# These are small test models; a real NER model (BERT-base: hidden 768, 12 layers) costs far
# more per token. The rule detectors alone, in the same run, for comparison.
#
# Usage: bench/pii_ner.sh [BUILD_DIR=build] [WORK_DIR=build/bench/pii_ner]
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/long_corpus_run.sh"
long_corpus_init pii_ner 1 "$@"
long=$work_dir/long.jsonl
[ -f "$long" ] || python3 "$repo/bench/make_long_corpus" "$long" >&2
mkdir -p "$work_dir/in400"
head -n 400 "$long" > "$work_dir/in400/docs.jsonl"
text_bytes=$(python3 -c '
import json, sys
print(sum(len(json.loads(l)["text"].encode()) for l in open(sys.argv[1])))' "$work_dir/in400/docs.jsonl")

model() {  # NAME OPTIONS...
  local name=$1; shift
  [ -f "$work_dir/$name/model.onnx" ] ||
    /usr/bin/python3 "$repo/bench/ner_bench_model.py" "$long" "$work_dir/$name" "$@" >&2
  printf 'stages:\n  - {stage: pii_redact, ner_model: %s}\n' "$work_dir/$name" \
    > "$work_dir/$name.yaml"
}
model tiny --hidden 16 --heads 2 --layers 2 --max-positions 64
model mini --hidden 256 --heads 4 --layers 4 --max-positions 512
printf 'stages:\n  - {stage: pii_redact}\n' > "$work_dir/rules.yaml"

for name in rules tiny mini; do
  result=$(run_cpu "$work_dir/$name.yaml" "$work_dir/in400" jsonl 1)
  seconds=${result%% *}
  awk -v n="$name" -v b="$text_bytes" -v s="$seconds" -v m="${result##* }" 'BEGIN {
    printf "  %-5s %.1f MB of text: %6.2f CPU-s, %7.2f MB/CPU-s, max RSS %.0f MB\n", n, b / 1e6, s, b / 1e6 / s, m / 1024 }'
  python3 - "$work_dir/out/stats.json" <<'PY' || true
import json, sys
for step in json.load(open(sys.argv[1])).get("steps", []):
    if step.get("name") == "pii_redact":
        print("        counts:", step.get("counts"))
PY
done
