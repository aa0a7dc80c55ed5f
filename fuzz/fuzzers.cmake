# The libFuzzer targets: fuzz/<name>_fuzz.cpp, one program each, on the layers they exercise,
# compiled by clang with AddressSanitizer and libFuzzer's coverage (the main build uses GCC,
# which has no libFuzzer). A build of its own, like cmake/gpu_only.cmake: the top
# CMakeLists.txt, configured with -DWINNOW_FUZZ_ONLY=ON and clang, includes this file and
# nothing else. The main build does that in build/fuzz when clang can link a fuzzer (the
# `fuzzers` target, built with the tests); fuzz/run_fuzzers.sh runs them
# (tests/text/fuzz_slow_test.cpp). The layers' sources come from the same globs as the main
# build's: a new file needs no edit. The sources stay inside this build's source tree (the
# checkout), so object paths, and ccache's keys, are the same in any clone.
set(WINNOW_ROOT ${PROJECT_SOURCE_DIR})
# Passed by the main build: its generated headers (core/version.h) and DuckDB's header.
set(WINNOW_GENERATED_DIR "" CACHE PATH "The main build's generated/ folder")
set(DUCKDB_INCLUDE_DIR "" CACHE PATH "DuckDB's include folder (duckdb.h)")
set(DUCKDB_LIBRARY "" CACHE FILEPATH "DuckDB's library")

# -O1 with assertions on (no NDEBUG), whatever the build type.
set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "-g -O1")
# Instrumented for coverage and ASan everywhere; linked with libFuzzer's main in the programs.
add_compile_options(-g -O1 -fsanitize=address,fuzzer-no-link -Wno-unused-command-line-argument)
add_link_options(-fsanitize=address -Wl,--as-needed)

find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(simdjson REQUIRED)
find_package(zstd REQUIRED)
find_package(ZLIB REQUIRED)
find_package(BZip2 REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(fmt REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
find_package(CURL REQUIRED)
find_package(hwy REQUIRED)
find_package(ICU REQUIRED COMPONENTS uc i18n)
pkg_check_modules(FUZZ_PKG REQUIRED IMPORTED_TARGET libxxhash libutf8proc uchardet gumbo
  libxml-2.0 re2 libarchive)
find_library(CLD2_LIBRARY cld2 REQUIRED)

# The layers below text/ and io/, as static libraries: a program links only the objects it
# reaches, whatever the globs hold.
file(GLOB core_src CONFIGURE_DEPENDS ${WINNOW_ROOT}/src/core/*.cpp)
add_library(fuzz_core STATIC ${core_src})
target_include_directories(fuzz_core PUBLIC ${WINNOW_ROOT}/src ${WINNOW_GENERATED_DIR})
# The video module's path: the fuzzers never probe a video.
target_compile_definitions(fuzz_core PRIVATE WINNOW_VIDEO_CODECS_MODULE="")
target_link_libraries(fuzz_core PUBLIC fmt::fmt yaml-cpp PkgConfig::FUZZ_PKG simdjson::simdjson
  OpenSSL::Crypto Threads::Threads ${CMAKE_DL_LIBS})

file(GLOB kernels_src CONFIGURE_DEPENDS ${WINNOW_ROOT}/src/kernels/*.cpp)
add_library(fuzz_kernels STATIC ${kernels_src})
target_link_libraries(fuzz_kernels PUBLIC fuzz_core hwy::hwy)

file(GLOB io_src CONFIGURE_DEPENDS ${WINNOW_ROOT}/src/io/*.cpp)
add_library(fuzz_io STATIC ${io_src})
target_include_directories(fuzz_io SYSTEM PRIVATE ${DUCKDB_INCLUDE_DIR})
target_link_libraries(fuzz_io PUBLIC fuzz_core zstd::libzstd_shared ZLIB::ZLIB BZip2::BZip2
  CURL::libcurl ${DUCKDB_LIBRARY})

file(GLOB text_src CONFIGURE_DEPENDS ${WINNOW_ROOT}/src/text/*.cpp)
add_library(fuzz_text STATIC ${text_src})
target_link_libraries(fuzz_text PUBLIC fuzz_core fuzz_kernels ICU::uc ICU::i18n ${CLD2_LIBRARY})

# fuzz/<layer-name>_fuzz.cpp: each program links io and text (it uses what it includes).
file(GLOB fuzz_src CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_fuzz.cpp)
foreach(source ${fuzz_src})
  get_filename_component(name ${source} NAME_WE)
  add_executable(${name} ${source})
  target_link_libraries(${name} PRIVATE fuzz_io fuzz_text)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
endforeach()
