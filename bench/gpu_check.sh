#!/usr/bin/env bash
# GPU check, for a machine with an NVIDIA GPU (issues #19, #37): builds the GPU-only build
# (cmake/gpu_only.cmake: the GPU libraries, their tests and gpu_bench, on the CUDA toolkit,
# GoogleTest, fmt and xxHash alone), runs the tests (every kernel against its CPU path; a GPU
# test skipped for want of a device is a failure here), times each kernel against the CPU path
# (gpu_bench), and then runs compute-sanitizer's memcheck, racecheck and synccheck over the GPU
# tests when compute-sanitizer is there (last, since a short lease needs the figures most).
# Every check goes on: one failing does not hide the others. A JSON summary of every check
# (status, seconds, log file) is written to SUMMARY_DIR/gpu_check.json, with each check's log
# beside it.
#
# Usage: bench/gpu_check.sh [BUILD_DIR=build-gpu] [DOCUMENTS=200000] [SUMMARY_DIR=$OUT or BUILD_DIR/check]
# Environment:
#   CUDACXX          nvcc (default /usr/local/cuda/bin/nvcc)
#   JOBS             build and test parallelism (default: every core)
#   GPU_CHECK_FULL=1 the full build instead (every library; needs every package)
#   PREFIX_PATH      folders holding GoogleTest, fmt and xxHash where the system has none
#                    (e.g. .debs unpacked with dpkg -x into one folder's usr/): passed to CMake
#                    as CMAKE_PREFIX_PATH, and its lib/ and lib/x86_64-linux-gnu/ to the loader
#   SANITIZER_TIMEOUT seconds per compute-sanitizer run (default 300)
#   SANITIZE         a regular expression: only the GPU test binaries whose names match run
#                    under compute-sanitizer (default: all; a short lease spends it on the
#                    kernels that changed)
# Exit status: 0 when every check passed.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
documents=${2:-200000}
summary_dir=${3:-${OUT:-$build/check}}
jobs=${JOBS:-$(nproc)}
sanitizer_timeout=${SANITIZER_TIMEOUT:-300}
export CUDACXX=${CUDACXX:-/usr/local/cuda/bin/nvcc}
mkdir -p "$summary_dir"
summary="$summary_dir/gpu_check.json"
checks=()
failed=0
build_kind=gpu-only
[ -n "${GPU_CHECK_FULL:-}" ] && build_kind=full
started=$(date +%s)

json_text() {  # a JSON string of $1
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\t'/ }
  printf '"%s"' "$s"
}

write_summary() {
  {
    printf '{\n  "date": %s,\n' "$(json_text "$(date -u +%Y-%m-%dT%H:%M:%SZ)")"
    printf '  "commit": %s,\n' "$(json_text "$(git rev-parse HEAD 2>/dev/null || echo unknown)")"
    printf '  "device": %s,\n' "$(json_text "$device")"
    printf '  "build": %s,\n' "$(json_text "$build_kind")"
    printf '  "seconds": %d,\n  "passed": %s,\n  "checks": [\n' "$(( $(date +%s) - started ))" \
      "$([ "$failed" = 0 ] && echo true || echo false)"
    local i
    for i in "${!checks[@]}"; do
      printf '    %s%s\n' "${checks[$i]}" "$([ "$i" -lt $(( ${#checks[@]} - 1 )) ] && echo ,)"
    done
    printf '  ]\n}\n'
  } >"$summary"
}

# record NAME STATUS SECONDS LOG [DETAIL]: one entry of the summary (STATUS pass, fail or skip).
record() {
  checks+=("{\"name\": $(json_text "$1"), \"status\": $(json_text "$2"), \"seconds\": $3, \"log\": $(json_text "$(basename "$4")"), \"detail\": $(json_text "${5:-}")}")
  [ "$2" = fail ] && failed=1
  echo "gpu_check: $1: $2 (${3} s)${5:+: $5}"
  write_summary
}

# run NAME -- COMMAND...: runs it with its output shown and kept in NAME.log; records it.
run() {
  local name=$1 log="$summary_dir/$1.log" begin status
  shift 2
  begin=$(date +%s)
  "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  local seconds=$(( $(date +%s) - begin ))
  if [ "$status" = 0 ]; then record "$name" pass "$seconds" "$log"; else
    record "$name" fail "$seconds" "$log" "exit status $status"; fi
  return "$status"
}

device="none"
if command -v nvidia-smi >/dev/null; then
  device=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | head -1)
fi
echo "gpu_check: device: $device"

cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DWINNOW_CUDA=ON -DWINNOW_PYTHON=OFF)
[ -z "${GPU_CHECK_FULL:-}" ] && cmake_args+=(-DWINNOW_GPU_ONLY=ON)
command -v ccache >/dev/null && cmake_args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache
  -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
if [ -n "${PREFIX_PATH:-}" ]; then
  cmake_args+=("-DCMAKE_PREFIX_PATH=$PREFIX_PATH" "-DXXHASH_ROOT=$PREFIX_PATH")
  export LD_LIBRARY_PATH="$PREFIX_PATH/lib:$PREFIX_PATH/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
command -v ninja >/dev/null && [ ! -f "$build/CMakeCache.txt" ] && cmake_args+=(-G Ninja)

# Configure: its output is shown (errors included), and kept in configure.log.
if ! run configure -- cmake -S . -B "$build" "${cmake_args[@]}"; then
  echo "gpu_check: configure failed (above; also $summary_dir/configure.log)"
  exit 1
fi
if ! grep -q "CUDA: ON" "$summary_dir/configure.log"; then
  record cuda fail 0 "$summary_dir/configure.log" "CMake found no nvcc"
  exit 1
fi

targets=(gpu_bench)
for test in $(find tests/gpu -name '*_test.cpp'); do targets+=("$(basename "$test" .cpp)"); done
if ! run build -- cmake --build "$build" -j"$jobs" --target "${targets[@]}"; then exit 1; fi

# Unit tests of the GPU layer's plain C++ (no device needed), each binary directly (the full
# build's unit label covers every layer, most of which this check does not build).
for test in $(find tests/gpu -name '*_test.cpp' ! -name '*_gpu_test.cpp' | sort); do
  name=$(basename "$test" .cpp)
  binary=$(find "$build" -maxdepth 2 -type f -name "$name" | head -1)
  run "unit_$name" -- "$binary"
done

# GPU tests: verbose, so that each skip's reason is in the log. A skip for want of a device is
# a failure on this machine; other skips (word shingles without ICU) are listed, not failed.
gpu_log="$summary_dir/gpu_tests.log"
begin=$(date +%s)
(cd "$build" && ctest -L gpu -V --output-on-failure) 2>&1 | tee "$gpu_log"
status=${PIPESTATUS[0]}
no_device=$(grep -c "no GPU:" "$gpu_log")
skipped=$(grep -cE "\*\*\*Skipped" "$gpu_log")
detail="$skipped skipped"
if [ "$status" != 0 ]; then
  record gpu_tests fail $(( $(date +%s) - begin )) "$gpu_log" "ctest failed; $detail"
elif [ "$no_device" -gt 0 ]; then
  record gpu_tests fail $(( $(date +%s) - begin )) "$gpu_log" "skipped: no usable device"
else
  record gpu_tests pass $(( $(date +%s) - begin )) "$gpu_log" "$detail"
fi

run gpu_bench -- "$build/bench/gpu_bench" "$documents"

# racecheck watches every shared-memory access, which slows a kernel about fifty times (on an
# H200 the NeMo-shaped MinHash case took 24 s instead of 0.5, and a whole binary ran past 5
# minutes): it runs on the small cases of each binary, which launch every kernel that uses shared
# memory (the MinHash signature kernel; the assignment's sum and the arg-best reduction the
# max-earlier fold shares). memcheck and synccheck run everything.
racecheck_cases() {
  case $(basename "$1") in
    gpu_minhasher_gpu_test) echo '*chars24_20x13*:*chars5_7x3*:GpuMinHashPool.*' ;;
    gpu_similarity_gpu_test) echo '*NanRowsGetTheCpusLabels*:*ReusedContextGivesTheSameResults*' ;;
    # Its kernels are those the cases above launch, and the whole binary ran past 75 s under
    # racecheck: not run again (recorded as skipped).
    semantic_device_gpu_test) echo '' ;;
    *) echo '*' ;;
  esac
}

# compute-sanitizer over each GPU test binary: memcheck (out-of-bounds and misaligned
# accesses, leaks), racecheck (shared-memory races), synccheck (barrier misuse).
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
if [ -z "$sanitizer" ]; then
  record sanitizer skip 0 "" "compute-sanitizer not found"
else
  for binary in $(find "$build" -maxdepth 2 -type f -name '*_gpu_test' -perm -u+x | sort |
                  grep -E "${SANITIZE:-.}"); do
    for tool in memcheck racecheck synccheck; do
      extra=()
      [ "$tool" = memcheck ] && extra=(--leak-check full)
      filter=()
      [ "$tool" = racecheck ] && filter=("--gtest_filter=$(racecheck_cases "$binary")")
      name="sanitizer_${tool}_$(basename "$binary")"
      if [ "${filter[0]:-}" = "--gtest_filter=" ]; then
        record "$name" skip 0 "" "its kernels are covered by another binary's racecheck cases"
        continue
      fi
      log="$summary_dir/$name.log"
      begin=$(date +%s)
      timeout "$sanitizer_timeout" "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 97 \
        "$binary" "${filter[@]}" >"$log" 2>&1
      status=$?
      tail -3 "$log"
      seconds=$(( $(date +%s) - begin ))
      case $status in
        0) record "$name" pass "$seconds" "$log" ;;
        124) record "$name" fail "$seconds" "$log" "timed out after ${sanitizer_timeout} s" ;;
        97) record "$name" fail "$seconds" "$log" "$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log")" ;;
        *) record "$name" fail "$seconds" "$log" "exit status $status" ;;
      esac
    done
  done
fi

write_summary
echo "gpu_check: summary in $summary"
exit "$failed"
