# The GPU-only build (-DWINNOW_GPU_ONLY=ON): the GPU libraries
# (winnow_gpu, winnow_gpu_blas), their tests (tests/gpu/) and gpu_bench, with the CPU
# references those compare against, and nothing else. It needs only the CUDA toolkit (nvcc,
# cudart, cuBLAS), GoogleTest, fmt and xxHash, so bench/gpu_check.sh builds it on a bare GPU
# machine in about a minute; no DuckDB, OpenCV, FFmpeg, faiss, ONNX Runtime, OpenBLAS, highway
# or simdjson. Where the full build uses those for the CPU references, this one compiles the
# same code's portable twins (src/*/gpu_only/, and WINNOW_NO_SIMDJSON in core/utf8.cpp):
#   - gemm_abt on plain loops instead of OpenBLAS (the GPU products are compared within 1e-5);
#   - minhash_update on the scalar reference instead of highway (the same signatures);
#   - UTF-8 validation by the scalar RFC 3629 rule instead of simdjson's (the same verdicts).
# Word shingles need utf8proc and ICU: with both found they are built as in the full build;
# without, the word-shingle test cases skip, saying why.
# Included by the top CMakeLists.txt, which returns after it.

# CUDA is the point of this build: without nvcc it stops here, saying so.
if(NOT DEFINED ENV{CUDACXX} AND NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
  set(ENV{CUDACXX} /usr/local/cuda/bin/nvcc)
endif()
include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  message(FATAL_ERROR "WINNOW_GPU_ONLY needs nvcc: set CUDACXX, put nvcc on PATH, or install "
    "the CUDA toolkit under /usr/local/cuda")
endif()
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 80 90)
endif()
if(NOT CMAKE_CUDA_HOST_COMPILER)
  set(CMAKE_CUDA_HOST_COMPILER ${CMAKE_CXX_COMPILER})
endif()
set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
enable_language(CUDA)
if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
find_package(CUDAToolkit REQUIRED)
set(WINNOW_HAVE_CUDA ON)
message(STATUS "CUDA: ON ${CMAKE_CUDA_COMPILER_VERSION} (GPU-only build)")

# Position-independent throughout: the products module links the static libraries.
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
find_package(Threads REQUIRED)
find_package(fmt REQUIRED)
find_package(GTest REQUIRED)
include(GoogleTest)
# xxHash: its header and library directly (a bare machine may have no pkg-config; XXHASH_ROOT
# or CMAKE_PREFIX_PATH names an unpacked copy).
# The suffixes are spelled out: a compiler outside the distribution (e.g. /opt/gcc) leaves
# CMAKE_LIBRARY_ARCHITECTURE empty, so CMake would not look in lib/x86_64-linux-gnu itself.
find_path(XXHASH_INCLUDE_DIR xxhash.h HINTS ${XXHASH_ROOT} ENV XXHASH_ROOT PATH_SUFFIXES include)
find_library(XXHASH_LIBRARY xxhash HINTS ${XXHASH_ROOT} ENV XXHASH_ROOT
  PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu lib/aarch64-linux-gnu)
if(NOT XXHASH_INCLUDE_DIR OR NOT XXHASH_LIBRARY)
  message(FATAL_ERROR "WINNOW_GPU_ONLY needs xxHash (xxhash.h and libxxhash): install libxxhash-dev "
    "or pass -DXXHASH_ROOT=/path holding include/xxhash.h and lib/libxxhash.so")
endif()
add_library(winnow_xxhash INTERFACE)
target_include_directories(winnow_xxhash INTERFACE ${XXHASH_INCLUDE_DIR})
target_link_libraries(winnow_xxhash INTERFACE ${XXHASH_LIBRARY})

# Optional: utf8proc and ICU, for word shingles.
find_package(ICU COMPONENTS uc QUIET)
find_path(UTF8PROC_INCLUDE_DIR utf8proc.h)
find_library(UTF8PROC_LIBRARY utf8proc)
if(ICU_FOUND AND UTF8PROC_INCLUDE_DIR AND UTF8PROC_LIBRARY)
  set(WINNOW_WORD_SHINGLES ON)
else()
  set(WINNOW_WORD_SHINGLES OFF)
endif()
message(STATUS "Word shingles (utf8proc, ICU): ${WINNOW_WORD_SHINGLES}")

configure_file(src/core/version.h.in ${CMAKE_BINARY_DIR}/generated/core/version.h @ONLY)

# The sources the GPU code and its CPU references use: named one by one (the layers' other
# files need the libraries this build leaves out).
set(WINNOW_GPU_ONLY_SRC
  src/core/arena.cpp src/core/ascii.cpp src/core/doc_batch.cpp src/core/hash.cpp
  src/core/item_kind.cpp src/core/json_text.cpp src/core/payload.cpp src/core/utf8.cpp
  src/core/worker_device.cpp
  src/kernels/minhash_scalar.cpp src/kernels/gpu_only/minhash_dispatch_scalar.cpp
  src/dedup/cluster_pruner.cpp src/dedup/prune_tile.cpp src/dedup/kmeans_assign.cpp
  src/dedup/gpu_only/blas_gemm_loops.cpp
  src/dedup/minhash_signer.cpp src/dedup/shingler.cpp src/dedup/fuzzy_keyer.cpp
  src/dedup/bucket_keyer.cpp
  src/dedup/gpu_minhash_pool.cpp)
if(WINNOW_WORD_SHINGLES)
  list(APPEND WINNOW_GPU_ONLY_SRC src/text/dedup_normalizer.cpp src/text/python_text.cpp)
else()
  list(APPEND WINNOW_GPU_ONLY_SRC src/text/gpu_only/word_shingles_unavailable.cpp)
endif()
add_library(winnow_cpu_reference STATIC ${WINNOW_GPU_ONLY_SRC})
target_include_directories(winnow_cpu_reference PUBLIC src ${CMAKE_BINARY_DIR}/generated)
target_compile_definitions(winnow_cpu_reference PRIVATE WINNOW_NO_SIMDJSON)
target_link_libraries(winnow_cpu_reference PUBLIC fmt::fmt winnow_xxhash Threads::Threads)
if(WINNOW_WORD_SHINGLES)
  target_include_directories(winnow_cpu_reference PRIVATE ${UTF8PROC_INCLUDE_DIR})
  target_link_libraries(winnow_cpu_reference PRIVATE ${UTF8PROC_LIBRARY} ICU::uc)
endif()

file(GLOB WINNOW_GPU_SRC CONFIGURE_DEPENDS src/gpu/*.cpp src/gpu/*.cu)
list(FILTER WINNOW_GPU_SRC EXCLUDE REGEX "_none\\.cpp$")
add_library(winnow_gpu STATIC ${WINNOW_GPU_SRC})
target_link_libraries(winnow_gpu PUBLIC winnow_cpu_reference PRIVATE CUDA::cudart_static)
target_compile_options(winnow_gpu PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
add_library(winnow_gpu_blas STATIC src/gpu/blas/gpu_similarity.cpp src/gpu/blas/similarity_device.cu)
target_link_libraries(winnow_gpu_blas PUBLIC winnow_gpu PRIVATE CUDA::cudart_static CUDA::cublas)
# The products as the full build has them: a module loaded on the first product
# (products_loader.cpp), for the test that checks the loading (products_module_gpu_test).
add_library(winnow_gpu_products MODULE src/gpu/blas/similarity_device.cu
  src/gpu/blas/products_module.cpp)
target_link_libraries(winnow_gpu_products PRIVATE winnow_gpu CUDA::cudart_static CUDA::cublas)
set_target_properties(winnow_gpu_products PROPERTIES CXX_VISIBILITY_PRESET hidden
  CUDA_VISIBILITY_PRESET hidden LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
add_library(winnow_gpu_blas_module STATIC src/gpu/blas/gpu_similarity.cpp
  src/gpu/blas/products_loader.cpp src/core/codec_module.cpp src/core/codec_module_paths.cpp)
target_link_libraries(winnow_gpu_blas_module PUBLIC winnow_gpu ${CMAKE_DL_LIBS})
set_source_files_properties(src/core/codec_module_paths.cpp PROPERTIES COMPILE_DEFINITIONS
  "WINNOW_GPU_PRODUCTS_MODULE=\"$<TARGET_FILE:winnow_gpu_products>\"")
add_dependencies(winnow_gpu_blas_module winnow_gpu_products)
# Semantic dedup's GPU path with the CPU's decisions (the host's settling of the products).
add_library(winnow_semantic_device STATIC src/dedup/semantic_device.cpp)
target_link_libraries(winnow_semantic_device PUBLIC winnow_gpu_blas winnow_gpu)

enable_testing()
file(GLOB_RECURSE WINNOW_GPU_TESTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/gpu/*_test.cpp)
foreach(test_source ${WINNOW_GPU_TESTS})
  get_filename_component(test_name ${test_source} NAME_WE)
  add_executable(${test_name} ${test_source})
  if(test_name STREQUAL "products_module_gpu_test")
    target_link_libraries(${test_name} PRIVATE winnow_gpu_blas_module GTest::gtest_main)
  else()
    target_link_libraries(${test_name} PRIVATE winnow_semantic_device winnow_gpu_blas winnow_gpu
      GTest::gtest_main)
  endif()
  target_include_directories(${test_name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  if(NOT WINNOW_WORD_SHINGLES)
    target_compile_definitions(${test_name} PRIVATE WINNOW_NO_WORD_SHINGLES)
  endif()
  if(test_name MATCHES "_gpu_test$")
    set(labels "gpu")
  else()
    set(labels "unit")
  endif()
  gtest_discover_tests(${test_name} PROPERTIES LABELS "${labels}" TIMEOUT 300
                       DISCOVERY_TIMEOUT 60)
endforeach()

add_executable(gpu_bench bench/gpu_bench.cpp)
set_target_properties(gpu_bench PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
target_link_libraries(gpu_bench PRIVATE winnow_semantic_device winnow_gpu_blas winnow_gpu)
target_compile_definitions(gpu_bench PRIVATE WINNOW_PORTABLE_GEMM)
