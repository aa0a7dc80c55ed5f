#!/usr/bin/env bash
# Fixed cost per process: what `winnow run` costs before it has any work to do.
#
# Usage: bench/fixed_cost.sh [N=21] [WINNOW=build/winnow] [OTHER_WINNOW]
#
# Runs three tiny commands N times each and prints the median wall time and the median CPU time
# (user + system, all threads) of each:
#   version   `winnow --version`: loading the program and its shared libraries, static
#             initialisers, nothing else;
#   empty     `winnow run` with no stages on a one-line JSONL file, plain JSONL out;
#   example   `winnow run examples/example.yaml` on five small documents (length filter, select,
#             add_id, exact and fuzzy dedup).
# With OTHER_WINNOW, the two binaries run alternately (A B A B ...), so a load that changes
# during the measurement falls on both alike; each gets its own line. The output folder is
# deleted before every run (a run into a finished folder would skip the work).
# Needs: python3.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
abspath() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
runs=${1:-21}
first=$(abspath "${2:-$repo/build/winnow}")
second=${3:+$(abspath "$3")}
for bin in "$first" ${second:+"$second"}; do
  [ -x "$bin" ] || { echo "fixed_cost: no winnow binary at $bin" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '{"id":"a","text":"one short document"}\n' > "$work/one.jsonl"
cat > "$work/empty.yaml" <<EOF
input:
  paths: [$work/one.jsonl]
  text_field: text
  id_field: id
output:
  path: $work/out
  format: jsonl
stages: []
EOF
mkdir -p "$work/corpus"
python3 - "$work/corpus/docs.jsonl" <<'EOF'
import json, sys
words = "the quick brown fox jumps over the lazy dog while winnow counts every document".split()
with open(sys.argv[1], "w") as out:
    for i in range(5):
        text = " ".join(words[(i + j) % len(words)] for j in range(60 + 7 * i))
        out.write(json.dumps({"id": f"d{i}", "text": text, "package": f"p{i}"}) + "\n")
EOF

python3 - "$runs" "$work" "$repo" "$first" ${second:+"$second"} <<'EOF'
import os, resource, shutil, statistics, subprocess, sys, time

runs, work, repo, binaries = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
commands = {
    "version": lambda b: [b, "--version"],
    "empty": lambda b: [b, "run", f"{work}/empty.yaml"],
    "example": lambda b: [b, "run", f"{repo}/examples/example.yaml", "--input",
                          f"{work}/corpus", "--output", f"{work}/out"],
}

def one_run(argv):
    shutil.rmtree(f"{work}/out", ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu

print(f"{'command':8} {'binary':40} {'runs':>4} {'wall s':>8} {'CPU s':>8}")
for name, make in commands.items():
    samples = {b: [] for b in binaries}
    for _ in range(runs):
        for b in binaries:  # alternate, so both see the same load
            samples[b].append(one_run(make(b)))
    for b in binaries:
        walls = [w for w, _ in samples[b]]
        cpus = [c for _, c in samples[b]]
        label = b if len(b) <= 40 else "..." + b[-37:]
        print(f"{name:8} {label:40} {runs:4} {statistics.median(walls):8.3f} "
              f"{statistics.median(cpus):8.3f}")
EOF
