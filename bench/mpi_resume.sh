#!/usr/bin/env bash
# Resumable identify (issue 32 item 5): `winnow dedup identify` with fuzzy dedup and
# `checkpoint: true` on bench/make_scaling_corpus's corpus (as bench/mpi_scaling.sh), on 4
# ranks; once the checkpoint's second phase (the links) is complete, one rank is SIGKILLed
# (during the connected components), and the job is rerun on 3 ranks, which resumes from the
# checkpoint. Prints the CPU seconds (every process) of a whole identify on 3 ranks
# without a checkpoint (the baseline, in the same run), of the whole identify on 4 ranks that
# writes one, and of the resumed rerun, and whether the rerun's duplicates table is
# byte-identical to the baseline's.
#
# Usage: bench/mpi_resume.sh [BUILD_DIR=build] [WORK_DIR=build/bench/resume]
# Environment: SCALING_DOCS (2000000), SCALING_GROUP (100000), SCALING_CHAIN (200000),
# SCALING_SHARDS (8); RESUME_INPUT: a folder of JSONL shards to use instead (e.g. real
# documents: the read pass's share of identify grows with the documents' length);
# KILL_AFTER (links): the checkpoint phase whose completion triggers the kill (records: during
# the shuffle and linking, for corpora whose connected components end too fast). Needs
# mpirun, GNU time, pgrep.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work=$(abspath "${2:-$repo/build/bench/resume}")
winnow=$build_dir/winnow
docs=${SCALING_DOCS:-2000000}
group=${SCALING_GROUP:-100000}
chain=${SCALING_CHAIN:-200000}
shards=${SCALING_SHARDS:-8}
die() { echo "mpi_resume: $*" >&2; exit 1; }
[ -x "$winnow" ] || die "no winnow binary at $winnow"
command -v mpirun >/dev/null || die "no mpirun (apt-get install openmpi-bin libopenmpi-dev)"
export OMPI_MCA_btl=self,vader
mkdir -p "$work"
corpus=${RESUME_INPUT:-$work/corpus-$docs-$group-$chain}
if [ -z "${RESUME_INPUT:-}" ] && [ ! -f "$corpus/planted.txt" ]; then
  "$repo/bench/make_scaling_corpus" "$corpus" "$docs" "$group" "$chain" "$shards"
fi
printf 'stages:\n  - stage: fuzzy_dedup\n' > "$work/plain.yaml"
printf 'stages:\n  - stage: fuzzy_dedup\n    checkpoint: true\n' > "$work/checkpoint.yaml"
mpi=(mpirun --allow-run-as-root --oversubscribe)
# GNU time's last line (a killed job's file begins with "Command terminated by signal").
cpu_of() { tail -1 "$1" | awk '{printf "%.1f", $2 + $3}'; }
wall_of() { tail -1 "$1" | awk '{printf "%.1f", $1}'; }

# The baseline: a whole identify on 3 ranks, no checkpoint.
rm -rf "$work/baseline"
/usr/bin/time -f "%e %U %S" -o "$work/time-baseline" "${mpi[@]}" -np 3 "$winnow" dedup identify \
  "$work/plain.yaml" -i "$corpus" -o "$work/baseline" -t 1 -q --no-progress 2>/dev/null ||
  die "the baseline failed"
# The whole identify on 4 ranks writing its checkpoint (what the checkpoint costs).
rm -rf "$work/written"
/usr/bin/time -f "%e %U %S" -o "$work/time-written" "${mpi[@]}" -np 4 "$winnow" dedup identify \
  "$work/checkpoint.yaml" -i "$corpus" -o "$work/written" -t 1 -q --no-progress 2>/dev/null ||
  die "the run writing a checkpoint failed"

# The killed job: 4 ranks, one SIGKILLed once the links are kept (in the connected components).
rm -rf "$work/job"
marker=$work/job/global/_checkpoints/fuzzy_dedup/${KILL_AFTER:-links}.complete
/usr/bin/time -f "%e %U %S" -o "$work/time-killed" "${mpi[@]}" -np 4 "$winnow" dedup identify \
  "$work/checkpoint.yaml" -i "$corpus" -o "$work/job" -t 1 -q --no-progress 2>/dev/null &
job=$!
while [ ! -f "$marker" ] && kill -0 "$job" 2>/dev/null; do sleep 0.1; done
[ -f "$marker" ] || die "the job ended before its checkpoint was complete"
victim=$(pgrep -f "^$winnow dedup identify $work/checkpoint.yaml -i $corpus -o $work/job" | tail -1)
[ -n "$victim" ] || die "no rank left to kill: the job finished first"
kill -KILL "$victim"
killed_at=$(date +%s.%N)
wait "$job" && die "the job finished although a rank was killed" || true
[ -f "$work/job/global/fuzzy_dedup/_complete.json" ] && die "the killed job left a complete result"

# The rerun on 3 ranks resumes.
/usr/bin/time -f "%e %U %S" -o "$work/time-resumed" "${mpi[@]}" -np 3 "$winnow" dedup identify \
  "$work/checkpoint.yaml" -i "$corpus" -o "$work/job" -t 1 -q --no-progress 2>/dev/null ||
  die "the resumed run failed"
resumed=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['global_steps']['fuzzy_dedup']['identify_run'].get('checkpoint'))" "$work/job/stats.json")
if cmp -s "$work/baseline/global/fuzzy_dedup/duplicates.jsonl" \
  "$work/job/global/fuzzy_dedup/duplicates.jsonl"; then same=identical; else same=DIFFERS; fi
base=$(cpu_of "$work/time-baseline")
printf '%-44s %8s %8s\n' run "wall s" "CPU s"
printf '%-44s %8s %8s\n' "whole identify, np 3 (baseline)" "$(wall_of "$work/time-baseline")" "$base"
printf '%-44s %8s %8s\n' "whole identify writing a checkpoint, np 4" "$(wall_of "$work/time-written")" "$(cpu_of "$work/time-written")"
printf '%-44s %8s %8s\n' "killed job, np 4 (a rank SIGKILLed)" "$(wall_of "$work/time-killed")" "$(cpu_of "$work/time-killed")"
printf '%-44s %8s %8s\n' "resumed rerun, np 3 ($resumed)" "$(wall_of "$work/time-resumed")" "$(cpu_of "$work/time-resumed")"
python3 -c "import sys; print(f'resumed CPU / baseline CPU: {float(sys.argv[1]) / float(sys.argv[2]):.2f} (target <= 0.40); table: $same')" \
  "$(cpu_of "$work/time-resumed")" "$base"
