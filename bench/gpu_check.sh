#!/usr/bin/env bash
# GPU check, for a machine with an NVIDIA GPU (issue #19): configures and builds winnow with
# CUDA, runs the `gpu` tests (every kernel against its CPU path, bit for bit; none may be
# skipped here) and times each kernel against the CPU path on the same data
# (build/bench/gpu_bench). About 4 minutes on one H200 with 16 cores, most of it the build.
#
# Usage: bench/gpu_check.sh [BUILD_DIR=build-gpu] [DOCUMENTS=200000]
# Environment: CUDACXX (default /usr/local/cuda/bin/nvcc), JOBS (default: every core).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
documents=${2:-200000}
jobs=${JOBS:-$(nproc)}
export CUDACXX=${CUDACXX:-/usr/local/cuda/bin/nvcc}

command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version \
  --format=csv,noheader || echo "gpu_check: nvidia-smi not found"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache
  -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWINNOW_CUDA=ON -DWINNOW_PYTHON=OFF \
  "${launcher[@]}" >"$build.configure.log"
grep -q "CUDA: ON" "$build.configure.log" || { echo "gpu_check: CMake found no nvcc"; exit 1; }

# Only what the check runs: the gpu tests and the bench.
targets=(gpu_bench)
for test in $(find tests -name '*_gpu_test.cpp'); do targets+=("$(basename "$test" .cpp)"); done
start=$(date +%s)
cmake --build "$build" -j"$jobs" --target "${targets[@]}"
echo "gpu_check: built ${targets[*]} in $(( $(date +%s) - start )) s"

# A skipped GPU test on a GPU machine is a failure: the device was not found.
log=$(mktemp)
(cd "$build" && ctest -L gpu -j"$jobs" --output-on-failure) | tee "$log"
if grep -q "Skipped" "$log"; then
  echo "gpu_check: gpu tests were skipped: no usable device"
  exit 1
fi
"$build/bench/gpu_bench" "$documents"
