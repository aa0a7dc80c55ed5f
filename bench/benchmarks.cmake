# bench/: benchmark programs (run by hand, by their scripts or `make bench`; never tests). Each is
# EXCLUDE_FROM_ALL: the default build (`make test`, `make build`) does not compile or link them;
# the `benchmarks` target builds every one (make bench-build; .ci/run builds it without running
# anything, so they cannot rot). Included from the top CMakeLists.txt (same folder scope, so the
# objects' paths, and ccache's keys, are those of the top-level build).

# The autoscaler benchmark's scenario (synthetic stages with known costs through the real
# executor) is a library of its own and in the default build: tests/pipeline/
# autoscale_scenario_test.cpp runs it on a simulated clock and holds it to the benchmark's targets.
add_library(winnow_autoscale_scenario STATIC bench/autoscale_scenario.cpp)
target_include_directories(winnow_autoscale_scenario PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(winnow_autoscale_scenario PUBLIC winnow_pipeline winnow_stages)

# These three live in build/ (bench/dedup.sh, filter_chain.sh and `make bench` look there).
add_executable(autoscale_bench EXCLUDE_FROM_ALL bench/autoscale_bench.cpp)
target_link_libraries(autoscale_bench PRIVATE winnow_autoscale_scenario)
add_executable(minhash_bench EXCLUDE_FROM_ALL bench/minhash_bench.cpp)
target_link_libraries(minhash_bench PRIVATE winnow_dedup winnow_kernels winnow_core)
add_executable(filter_chain_bench EXCLUDE_FROM_ALL bench/filter_chain.cpp)
target_link_libraries(filter_chain_bench PRIVATE winnow_pipeline winnow_stages)
set(WINNOW_BENCHMARKS autoscale_bench minhash_bench filter_chain_bench)

# The checkout's path, on the compile line of bench_source_dir.cpp alone (bench_source_dir.h).
add_library(winnow_bench_source_dir STATIC EXCLUDE_FROM_ALL bench/bench_source_dir.cpp)
target_include_directories(winnow_bench_source_dir PUBLIC ${PROJECT_SOURCE_DIR})
set_source_files_properties(bench/bench_source_dir.cpp PROPERTIES COMPILE_DEFINITIONS
  "WINNOW_BENCH_SOURCE_DIR_PATH=\"${PROJECT_SOURCE_DIR}\"")

# bench/*_bench.cpp: one executable each under build/bench/ (new files need no edit here).
file(GLOB WINNOW_BENCH_SRC CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/bench/*_bench.cpp)
list(FILTER WINNOW_BENCH_SRC EXCLUDE REGEX "/(autoscale|minhash)_bench\\.cpp$")
foreach(bench_source ${WINNOW_BENCH_SRC})
  get_filename_component(bench_name ${bench_source} NAME_WE)
  add_executable(${bench_name} EXCLUDE_FROM_ALL ${bench_source})
  set_target_properties(${bench_name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
  target_link_libraries(${bench_name} PRIVATE winnow_stages winnow_models winnow_text winnow_core
    simdjson::simdjson winnow_bench_source_dir)
  list(APPEND WINNOW_BENCHMARKS ${bench_name})
endforeach()
# Its baselines are the CPU paths and cuBLAS sgemm's peak (bench/gpu_check.sh).
target_link_libraries(gpu_bench PRIVATE winnow_dedup winnow_gpu_blas)
# Its baseline is faiss's own k-means, and sgemm's peak on OpenBLAS.
target_link_libraries(semantic_dedup_bench PRIVATE winnow_dedup faiss OpenMP::OpenMP_CXX
  ${OPENBLAS_LIBRARY})
# Its baseline is OpenCV's own imdecode; it reads WebDataset shards.
target_link_libraries(image_bench PRIVATE winnow_io winnow_media ${OpenCV_LIBS})
target_include_directories(image_bench SYSTEM PRIVATE ${OpenCV_INCLUDE_DIRS})
# It runs examples/video.yaml and measures its baseline with libavcodec itself.
target_link_libraries(video_bench PRIVATE winnow_pipeline winnow_synthetic_video)
# It writes its input and measures its baseline with DuckDB itself (through the same lazy
# loading as winnow's own calls, io/duckdb_library.cpp).
target_link_libraries(parquet_bench PRIVATE winnow_io duckdb::headers)
# html_extract quality on Sphinx pages (`make bench` runs it through bench/warc_extract.sh).
add_executable(html_extract_quality EXCLUDE_FROM_ALL bench/html_extract_quality.cpp)
target_link_libraries(html_extract_quality PRIVATE winnow_text)
list(APPEND WINNOW_BENCHMARKS html_extract_quality)

# Everything the benchmark scripts run: the programs, the winnow command and, when it is built,
# the Python package (bench/python_overhead).
add_custom_target(benchmarks DEPENDS ${WINNOW_BENCHMARKS} winnow)
if(TARGET winnow_python)
  add_dependencies(benchmarks winnow_python)
endif()
