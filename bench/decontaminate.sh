#!/usr/bin/env bash
# decontaminate throughput (issue #36 item 2): MB of document text per CPU second of the whole
# `winnow run --threads 1` process (read, parse, the stage, encode, write), on real documents
# (bench/make_long_corpus, repeated BENCH_COPIES times, default 4), and how it scales with the
# number of task n-grams (TASK_NGRAMS, default "10000 1000000 10000000"; 100000000 needs about
# 2.5 GB). The synthetic task sets are texts of made-up words (1,012 words each: 1,000 13-grams),
# so they match nothing and the figure is the scan's. "real tasks": 2,000 passages of 30 words
# taken from the corpus itself, so documents do match and get split. Each run also gives the
# load alone (the same pipeline on one short document) and the peak memory (GNU time's max RSS).
# A pipeline without stages, measured in the same run, is the floor.
#
# Usage: bench/decontaminate.sh [BUILD_DIR=build] [WORK_DIR=build/bench/decontaminate]
# Needs: GNU time at /usr/bin/time, python3, man (for the corpus).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/long_corpus_run.sh"
long_corpus_init decontaminate 4 "$@"
sizes=${TASK_NGRAMS:-10000 1000000 10000000}
mkdir -p "$work_dir/one" "$work_dir/tasks"
long_corpus_input
long=$work_dir/long.jsonl
printf '{"id":"one","text":"one short document"}\n' > "$work_dir/one/one.jsonl"

# Task files: made-up words (no match), and real passages of the corpus.
for n in $sizes; do
  f=$work_dir/tasks/synthetic_$n.jsonl
  [ -f "$f" ] || python3 - "$f" "$n" <<'PY'
import json, random, sys
path, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(n)
vocab = ["q%05x" % i for i in range(1 << 20)]
per = 1012  # 1,000 13-grams a text
with open(path, "w") as out:
    left = n
    while left > 0:
        words = min(per, left + 12)
        out.write(json.dumps({"question": " ".join(rng.choices(vocab, k=words))}) + "\n")
        left -= words - 12
PY
done
real=$work_dir/tasks/real.jsonl
[ -f "$real" ] || python3 - "$long" "$real" <<'PY'
import json, random, sys
rng = random.Random(1)
docs = [json.loads(l)["text"].split() for l in open(sys.argv[1])]
docs = [d for d in docs if len(d) > 100]
with open(sys.argv[2], "w") as out:
    for _ in range(2000):
        d = rng.choice(docs)
        s = rng.randrange(len(d) - 30)
        out.write(json.dumps({"question": " ".join(d[s:s + 30])}) + "\n")
PY

printf 'stages: []\n' > "$work_dir/passthrough.yaml"
measure() { run_cpu "$1" "$2" jsonl "$3"; }  # PIPELINE INPUT RUNS -> "best_cpu_seconds max_rss_kb"
pipeline() {  # NAME TASKFILE
  printf 'stages:\n  - {stage: decontaminate, name: dc, tasks: ["%s"], fields: [question]}\n' "$2" \
    > "$work_dir/$1.yaml"
  echo "$work_dir/$1.yaml"
}
read -r pass _ < <(measure "$work_dir/passthrough.yaml" "$work_dir/in" 3)
printf '  winnow run --threads 1, %d documents, %.1f MB of text, MB per CPU second (best of 3; 1 run past 1e7 n-grams):\n' \
  "$docs" "$(awk -v b="$text_bytes" 'BEGIN{print b / 1e6}')"
awk -v b="$text_bytes" -v p="$pass" 'BEGIN{printf "    pass-through (no stages)      %7.1f MB/CPU-s (%.2f s)\n", b / 1e6 / p, p}'
run_case() {  # LABEL TASKFILE NGRAMS
  local y runs=3
  y=$(pipeline "dc_${1%% *}" "$2")
  [ "$3" -gt 10000000 ] && runs=1
  read -r load load_rss < <(measure "$y" "$work_dir/one" "$runs")
  read -r full full_rss < <(measure "$y" "$work_dir/in" "$runs")
  awk -v l="$1" -v b="$text_bytes" -v p="$pass" -v f="$full" -v ld="$load" -v r="$full_rss" -v n="$3" 'BEGIN {
    printf "    %-22s %7.1f MB/CPU-s (%.2f s; load %.2f s, peak RSS %.0f MB); the scan alone about %.0f MB/CPU-s\n",
      l, b / 1e6 / f, f, ld, r / 1024, b / 1e6 / (f - ld - p + 0.0001) }'
}
for n in $sizes; do run_case "$n n-grams" "$work_dir/tasks/synthetic_$n.jsonl" "$n"; done
run_case "real tasks" "$real" 2000
python3 - "$work_dir/out/stats.json" <<'PY' || true
import json, sys
stats = json.load(open(sys.argv[1]))
for step in stats.get("steps", []):
    if step.get("name") == "dc":
        print("  real tasks:", step.get("counts"), "fanned out", step.get("fanned_out"),
              "dropped", step.get("dropped"))
PY
