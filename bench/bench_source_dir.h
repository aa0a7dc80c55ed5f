#pragma once
// The checkout, for the benchmarks that read its files (examples, scripts, the language-ID model).

// Defined in bench_source_dir.cpp, the one benchmark file compiled with the checkout's path
// (bench/benchmarks.cmake), so that every other benchmark's compile line is the same in any
// clone and ccache serves it from another clone's build.
const char* winnow_bench_source_dir();
