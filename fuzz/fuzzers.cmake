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

# winnow_reached_sources(OUT FILE...): the .cpp files of src/ that FILE reaches through its
# #include "layer/name.h" lines, followed transitively (name.h, and name.cpp with what it
# includes; for a header without a name.cpp, the .cpp files of its folder that include it). Only those are compiled with clang, not whole layers: they are what the program
# links, and a file no fuzzer reaches need not build with this clang. Each file read is a
# configure dependency, so an #include added later is followed at the next build.
function(winnow_reached_sources out)
  set(queue ${ARGN})
  set(seen)
  set(sources)
  while(queue)
    list(POP_FRONT queue file)
    if(file IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${file})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
    file(STRINGS ${file} includes REGEX "^#include \"[a-z_0-9]+/[a-z_0-9/]+\\.h\"")
    foreach(line ${includes})
      string(REGEX REPLACE "^#include \"([^\"]+)\\.h\".*" "\\1" stem "${line}")
      set(candidates ${WINNOW_ROOT}/src/${stem}.h)
      if(EXISTS ${WINNOW_ROOT}/src/${stem}.cpp)
        list(APPEND candidates ${WINNOW_ROOT}/src/${stem}.cpp)
      elseif(NOT "${WINNOW_ROOT}/src/${stem}.h" IN_LIST seen)
        # A header without a .cpp of its name (text/html_parser_backends.h): the .cpp files of
        # its folder that include it implement it.
        get_filename_component(folder ${WINNOW_ROOT}/src/${stem}.h DIRECTORY)
        file(GLOB siblings ${folder}/*.cpp)
        foreach(sibling ${siblings})
          file(STRINGS ${sibling} includes_it REGEX "^#include \"${stem}\\.h\"")
          if(includes_it)
            list(APPEND candidates ${sibling})
          endif()
        endforeach()
      endif()
      foreach(candidate ${candidates})
        if(EXISTS ${candidate} AND NOT candidate IN_LIST seen)
          list(APPEND queue ${candidate})
          if(candidate MATCHES "\\.cpp$")
            list(APPEND sources ${candidate})
          endif()
        endif()
      endforeach()
    endforeach()
  endwhile()
  list(REMOVE_DUPLICATES sources)
  set(${out} ${sources} PARENT_SCOPE)
endfunction()

# fuzz/<name>_fuzz.cpp: one program each, on the sources it reaches and the libraries those use
# (--as-needed keeps only what it references).
file(GLOB fuzz_programs CONFIGURE_DEPENDS ${WINNOW_ROOT}/fuzz/*_fuzz.cpp)
foreach(program ${fuzz_programs})
  get_filename_component(name ${program} NAME_WE)
  winnow_reached_sources(reached ${program})
  add_executable(${name} ${program} ${reached})
  target_include_directories(${name} PRIVATE ${WINNOW_ROOT}/src ${WINNOW_GENERATED_DIR})
  target_include_directories(${name} SYSTEM PRIVATE ${DUCKDB_INCLUDE_DIR})
  target_link_libraries(${name} PRIVATE fmt::fmt yaml-cpp PkgConfig::FUZZ_PKG simdjson::simdjson
    OpenSSL::Crypto Threads::Threads ${CMAKE_DL_LIBS} zstd::libzstd_shared ZLIB::ZLIB
    BZip2::BZip2 CURL::libcurl hwy::hwy ICU::uc ICU::i18n ${CLD2_LIBRARY} ${DUCKDB_LIBRARY})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
endforeach()
