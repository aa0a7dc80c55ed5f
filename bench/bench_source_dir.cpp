#include "bench/bench_source_dir.h"

const char* winnow_bench_source_dir() { return WINNOW_BENCH_SOURCE_DIR_PATH; }
