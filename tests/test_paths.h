#pragma once
// The winnow binary under test and the source tree: WINNOW_BINARY and WINNOW_SOURCE_DIR (defined
// for every test by tests/CMakeLists.txt) call these. Functions compiled once, in
// test_support.cpp, rather than path literals on every test's compile line: the test files then
// compile alike in any checkout, and a fresh clone anywhere finds them in ccache. Part of the
// tests' precompiled header, so every test file sees them whatever it includes.
const char* winnow_test_binary();
const char* winnow_test_source_dir();
