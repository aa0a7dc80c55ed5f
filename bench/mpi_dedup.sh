#!/usr/bin/env bash
# Fuzzy dedup across MPI ranks: the end-to-end run of bench/dedup.sh (read zstd JSONL ->
# identify with NeMo's MinHash parameters -> remove -> write zstd JSONL) on the same planted
# corpus (8 shards, ~1.1 GB of JSONL, 10% near-duplicates), as one process without MPI and
# under `mpirun -np 1` and `-np 2`, each rank with one thread. Baseline, in the same run: the
# one-process run with one thread. Reports wall and CPU seconds (every process: mpirun waits
# for its ranks, so GNU time counts them), the scaling, the bytes each rank sent in the
# shuffle (stats.json), and checks that the duplicates tables and outputs are identical.
#
# Usage: bench/mpi_dedup.sh [BUILD_DIR=build] [WORK_DIR=build/bench]
# Needs: the corpus bench/dedup.sh makes (WORK_DIR/dedup-corpus), mpirun, GNU time, python3.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work_dir=$(abspath "${2:-$repo/build/bench}")
winnow=$build_dir/winnow
corpus=$work_dir/dedup-corpus
die() { echo "mpi dedup bench: $*" >&2; exit 1; }
[ -x "$winnow" ] || die "no winnow binary at $winnow"
[ -f "$corpus/planted.txt" ] || die "no planted corpus in $corpus: run bench/dedup.sh first"
command -v mpirun >/dev/null || die "no mpirun (apt-get install openmpi-bin libopenmpi-dev)"
export OMPI_MCA_btl=self,vader

tfile=$(mktemp)
trap 'rm -f "$tfile"' EXIT
printf '%-22s %8s %8s %10s %12s %s\n' run "wall s" "CPU s" "speed-up" "MB/CPU-s" "shuffle bytes sent by rank"
base_wall=""
run() {  # name out command...
  local name=$1 out=$2
  shift 2
  /usr/bin/time -f "%e %U %S" -o "$tfile" "$@" run "$repo/bench/dedup.yaml" --input "$corpus" \
    --output "$out" --threads 1 --overwrite -q --no-progress || die "$name failed"
  read -r wall user sys < <(tail -n 1 "$tfile")
  [ -n "$base_wall" ] || base_wall=$wall
  python3 - "$name" "$out/stats.json" "$wall" "$user" "$sys" "$base_wall" <<'PY'
import json, sys
name, stats_path, wall, user, sys_s, base = sys.argv[1:]
stats = json.load(open(stats_path))
cpu = float(user) + float(sys_s)
mb = stats["totals"]["input_bytes"] / 1e6
run = stats["global_steps"]["fuzzy_dedup"].get("identify_run", {})
sent = run.get("shuffle_bytes_by_rank", [])
print(f"{name:<22} {float(wall):8.1f} {cpu:8.1f} {float(base) / float(wall):9.2f}x {mb / cpu:12.1f} "
      + (" ".join(f"{b / 1e6:.1f} MB" for b in sent) if sent else "-"))
PY
}
run "one process, 1 thread" "$work_dir/mpi-alone" "$winnow"
run "mpirun -np 1" "$work_dir/mpi-np1" mpirun --allow-run-as-root --oversubscribe -np 1 "$winnow"
run "mpirun -np 2" "$work_dir/mpi-np2" mpirun --allow-run-as-root --oversubscribe -np 2 "$winnow"

for out in mpi-np1 mpi-np2; do
  cmp -s "$work_dir/mpi-alone/global/fuzzy_dedup/duplicates.jsonl" \
    "$work_dir/$out/global/fuzzy_dedup/duplicates.jsonl" || die "$out: duplicates table differs"
  diff -rq -x stats.json -x metrics.jsonl -x report.html "$work_dir/mpi-alone" "$work_dir/$out" \
    >/dev/null || die "$out: output differs"
done
echo "duplicates tables and outputs identical across the three runs"
