#!/usr/bin/env bash
# The autoscaler with a real model as the bottleneck (issue #31): cheaper CPU stages feed an
# ONNX model stage standing in for the GPU, and the question is the autoscale benchmark's: is
# the expensive stage kept busy? The model is the batching benchmark's random-weight MiniLM
# shape (6 layers, 384 wide, 12 heads; tests/models/bert_test_model.py), on the CPU with one
# intra-op thread and one worker (`workers: 1`, as a single GPU slot), behind text_length and
# the NeMo word-count filter, and `tokenize` (tokenising for it on the CPU steps). The corpus is
# real text of real length: every /usr/share/doc/*/copyright of this machine (licence texts),
# as JSON Lines. `--threads 2` on this 2-core machine: one core for the model, one for the rest.
#
# Prints the model step's busy fraction in the steady window (after a warm-up, before the input
# runs out; from metrics.jsonl) and over the whole run (stats.json). Target: at least 99%.
#
# Usage: bench/autoscale_model.sh [BUILD_DIR=build] [WORK_DIR=build/bench/autoscale-model]
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work=$(abspath "${2:-$repo/build/bench/autoscale-model}")
winnow=$build_dir/winnow
die() { echo "autoscale_model: $*" >&2; exit 1; }
[ -x "$winnow" ] || die "no winnow binary at $winnow (build first, or pass BUILD_DIR)"
mkdir -p "$work"

# The model folder (model.onnx, config.json, a WordPiece tokenizer.json from the same texts'
# words), made once by the batching benchmark.
model=${TMPDIR:-/tmp}/winnow-batching-bench-minilm
if [ ! -f "$model/tokenizer.json" ]; then
  cmake --build "$build_dir" --target batching_bench >/dev/null
  "$build_dir/bench/batching_bench" minilm 32 >/dev/null
fi
[ -f "$model/model.onnx" ] || die "the batching benchmark did not leave a model in $model"

corpus=$work/copyright.jsonl
if [ ! -f "$corpus" ]; then
  python3 - "$corpus" <<'PY'
import glob, json, sys
with open(sys.argv[1], "w") as out:
    for i, path in enumerate(sorted(glob.glob("/usr/share/doc/*/copyright"))):
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        out.write(json.dumps({"id": f"c{i}", "text": text}) + "\n")
PY
fi

cat > "$work/pipeline.yaml" <<YAML
output: {format: jsonl, write_rejected: false}
batch_size: 64
autoscale: {interval_ms: 500}
stages:
  - {stage: text_length, min_chars: 200}
  - {stage: word_count, min_words: 50, max_words: 100000}
  - {stage: tokenize, model: $model, max_tokens: 256}
  - {stage: embed, model: $model, max_tokens: 256, workers: 1}
YAML

/usr/bin/time -f "%e %U %S" -o "$work/time.txt" "$winnow" run "$work/pipeline.yaml" \
  --input "$corpus" --output "$work/out" --threads 2 --overwrite --no-progress -q
read -r wall user sys < "$work/time.txt"
python3 - "$work/out" "$wall" "$user" "$sys" <<'PY'
import json, sys
out, wall, user, sys_s = sys.argv[1], *map(float, sys.argv[2:5])
samples = [json.loads(line) for line in open(f"{out}/metrics.jsonl")]
stats = json.load(open(f"{out}/stats.json"))
end_bytes = samples[-1]["compressed_bytes"]
warmup = 3.0
busy = time = 0.0
prev = None
for s in samples:
    if prev is not None and s["t"] >= warmup and s["compressed_bytes"] < end_bytes:
        dt = s["t"] - prev["t"]
        step = next(x for x in s["steps"] if x["name"] == "embed")
        busy += step["busy_fraction"] * dt
        time += dt
    prev = s
summary = next(x for x in stats["steps"] if x["name"] == "embed")
print(f"model step (embed, 1 worker): busy {100 * busy / time:.2f}% in the steady window "
      f"({warmup:.0f}-{warmup + time:.1f} s), {100 * summary['busy_fraction']:.2f}% over the run")
print(f"run: {wall:.1f} s wall, {user + sys_s:.1f} CPU s; workers (min-max): " +
      ", ".join(f"{x['name']}={x['workers_min']}-{x['workers_max']}" for x in stats["steps"]))
print("target (model step busy >= 99% in the steady window):",
      "met" if time > 0 and busy / time >= 0.99 else "NOT met")
PY
