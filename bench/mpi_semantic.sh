#!/usr/bin/env bash
# Divided semantic dedup (issue 32, item 2): `winnow dedup identify` with semantic_dedup on the
# embeddings of bench/make_embedding_corpus (default 200,000 x 384, 8 shards), as one process
# (the baseline, in the same run) and under mpirun -np 1 and 4 (--oversubscribe on a small
# machine), every rank with one thread. For each run: wall and CPU seconds (every process:
# mpirun waits for its ranks, so GNU time counts them), the largest peak RSS of any rank (GNU
# time around each rank), the embedding rows rank 0 held at once (rows_held in stats.json) and
# whether duplicates.jsonl and summary.json are byte-identical to the baseline's.
#
# Usage: bench/mpi_semantic.sh [BUILD_DIR=build] [WORK_DIR=build/bench/semantic]
# Environment: SEMANTIC_N (200000), SEMANTIC_D (384), SEMANTIC_SHARDS (8),
# SEMANTIC_CLUSTERS (100), SEMANTIC_RANKS ("1 4"). Needs mpirun, GNU time, python3.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
build_dir=$(abspath "${1:-$repo/build}")
work=$(abspath "${2:-$repo/build/bench/semantic}")
winnow=$build_dir/winnow
n=${SEMANTIC_N:-200000}
d=${SEMANTIC_D:-384}
shards=${SEMANTIC_SHARDS:-8}
die() { echo "mpi_semantic: $*" >&2; exit 1; }
[ -x "$winnow" ] || die "no winnow binary at $winnow"
command -v mpirun >/dev/null || die "no mpirun (apt-get install openmpi-bin libopenmpi-dev)"
export OMPI_MCA_btl=self,vader
mkdir -p "$work"
corpus=$work/corpus-$n-$d-$shards
if [ ! -f "$corpus/.done" ]; then
  "$repo/bench/make_embedding_corpus" "$corpus" --n "$n" --d "$d" --shards "$shards"
  touch "$corpus/.done"
fi
cat > "$work/semantic.yaml" <<YAML
stages:
  - stage: semantic_dedup
    embedding_field: embedding
    n_clusters: ${SEMANTIC_CLUSTERS:-100}
    eps: 0.01
YAML

printf '%-8s %7s %7s %12s %10s %s\n' run "wall s" "CPU s" "peak RSS MB" "rows held" "table, summary"
run() {  # name ranks
  local name=$1 ranks=$2 out=$work/out-$1
  rm -rf "$work/rss-$name" && mkdir -p "$work/rss-$name"
  local launch=()
  [ "$ranks" -gt 0 ] && launch=(mpirun --allow-run-as-root --oversubscribe -np "$ranks")
  /usr/bin/time -f "%e %U %S" -o "$work/time-$name" "${launch[@]}" sh -c \
    'exec /usr/bin/time -f %M -o "$0/${OMPI_COMM_WORLD_RANK:-0}" "$@"' "$work/rss-$name" \
    "$winnow" dedup identify "$work/semantic.yaml" -i "$corpus" -o "$out" -t 1 --overwrite -q \
    --no-progress 2>/dev/null || die "$name failed"
  python3 - "$name" "$work" "$out" <<'PY'
import filecmp, json, os, sys
name, work, out = sys.argv[1:]
wall, user, sys_s = open(f"{work}/time-{name}").read().split()[-3:]
rss = max(int(open(os.path.join(f"{work}/rss-{name}", f)).read().split()[-1])
          for f in os.listdir(f"{work}/rss-{name}")) / 1024
run = json.load(open(f"{out}/stats.json"))["global_steps"]["semantic_dedup"]["identify_run"]
same = []
for f in ("duplicates.jsonl", "summary.json"):
    base = f"{work}/out-alone/global/semantic_dedup/{f}"
    same.append("baseline" if name == "alone" else "identical" if filecmp.cmp(
        base, f"{out}/global/semantic_dedup/{f}", shallow=False) else "DIFFERS")
print(f"{name:<8} {float(wall):7.1f} {float(user) + float(sys_s):7.1f} {rss:12.0f} "
      f"{run.get('rows_held', '-'):>10} {', '.join(same)}")
PY
}
run alone 0
for ranks in ${SEMANTIC_RANKS:-1 4}; do run "np$ranks" "$ranks"; done
python3 - "$work/out-alone" <<'PY'
import json, sys
s = json.load(open(f"{sys.argv[1]}/global/semantic_dedup/summary.json"))
print(f"items {s['items']}, clusters {s['clusters']}, k-means iterations {s['kmeans_iterations']} "
      f"on {s['kmeans_trained_on']}, to remove {s['to_remove']}")
PY
