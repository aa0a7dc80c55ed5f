#!/usr/bin/env bash
# Distributed connected components (issue 32): `winnow dedup identify` with fuzzy dedup on the
# synthetic corpus of bench/make_scaling_corpus (default 2,000,000 short documents: one group of
# 100,000 near-copies, one chain of 200,000, 40 % of the rest in planted groups of 2 to 5), as
# one process (the baseline, measured in the same run) and under mpirun -np 1 to 4, every rank
# with one thread. For each run: wall and CPU seconds (every process), the largest peak RSS of
# any rank (GNU time around each rank), the links each rank held (links_by_rank in stats.json:
# the busiest against the mean), the propagation rounds, and whether the duplicates table is
# byte-identical to the baseline's.
#
# Usage: bench/mpi_scaling.sh [BUILD_DIR=build] [WORK_DIR=build/bench/scaling]
# Environment: SCALING_DOCS (2000000), SCALING_GROUP (100000), SCALING_CHAIN (200000),
# SCALING_SHARDS (8), SCALING_RANKS ("1 2 3 4"). Needs mpirun, GNU time, python3.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work=$(abspath "${2:-$repo/build/bench/scaling}")
winnow=$build_dir/winnow
docs=${SCALING_DOCS:-2000000}
group=${SCALING_GROUP:-100000}
chain=${SCALING_CHAIN:-200000}
shards=${SCALING_SHARDS:-8}
die() { echo "mpi_scaling: $*" >&2; exit 1; }
[ -x "$winnow" ] || die "no winnow binary at $winnow"
command -v mpirun >/dev/null || die "no mpirun (apt-get install openmpi-bin libopenmpi-dev)"
export OMPI_MCA_btl=self,vader
corpus=$work/corpus-$docs-$group-$chain
if [ ! -f "$corpus/planted.txt" ]; then
  "$repo/bench/make_scaling_corpus" "$corpus" "$docs" "$group" "$chain" "$shards"
fi
printf 'stages:\n  - stage: fuzzy_dedup\n' > "$work/scaling.yaml"

printf '%-14s %7s %7s %13s %22s %7s %s\n' run "wall s" "CPU s" "peak RSS MB" "links busiest / mean" rounds table
run() {  # name ranks
  local name=$1 ranks=$2 out=$work/out-$1
  rm -rf "$work/rss-$name" && mkdir -p "$work/rss-$name"
  local launch=()
  [ "$ranks" -gt 0 ] && launch=(mpirun --allow-run-as-root --oversubscribe -np "$ranks")
  # Each rank under GNU time: its own peak RSS in rss-NAME/<rank>.
  /usr/bin/time -f "%e %U %S" -o "$work/time-$name" "${launch[@]}" sh -c \
    'exec /usr/bin/time -f %M -o "$0/${OMPI_COMM_WORLD_RANK:-0}" "$@"' "$work/rss-$name" \
    "$winnow" dedup identify "$work/scaling.yaml" -i "$corpus" -o "$out" -t 1 --overwrite -q \
    --no-progress 2>/dev/null || die "$name failed"
  python3 - "$name" "$work" "$out" <<'PY'
import filecmp, json, os, sys
name, work, out = sys.argv[1:]
wall, user, sys_s = open(f"{work}/time-{name}").read().split()[-3:]
rss = max(int(open(os.path.join(f"{work}/rss-{name}", f)).read().split()[-1])
          for f in os.listdir(f"{work}/rss-{name}")) / 1024
run = json.load(open(f"{out}/stats.json"))["global_steps"]["fuzzy_dedup"]["identify_run"]
links = run["links_by_rank"]
mean = sum(links) / len(links)
base = f"{work}/out-alone/global/fuzzy_dedup/duplicates.jsonl"
same = "baseline" if name == "alone" else (
    "identical" if filecmp.cmp(base, f"{out}/global/fuzzy_dedup/duplicates.jsonl", shallow=False)
    else "DIFFERS")
print(f"{name:<14} {float(wall):7.1f} {float(user) + float(sys_s):7.1f} {rss:13.0f} "
      f"{max(links):>10} / {mean:<9.0f} {run['propagation_rounds']:7} {same}")
PY
}
run alone 0
for ranks in ${SCALING_RANKS:-1 2 3 4}; do run "np$ranks" "$ranks"; done
python3 - "$work/out-alone" <<'PY'
import json, sys
s = json.load(open(f"{sys.argv[1]}/global/fuzzy_dedup/summary.json"))
sizes = sorted(((int(k), v) for k, v in s["component_sizes"].items()), reverse=True)
print(f"groups {s['duplicate_groups']}, documents in groups {s['documents_in_groups']}, "
      f"to remove {s['to_remove']}; largest groups {sizes[:3]}")
PY
