#pragma once
// num2words' words for numbers (Debian's python3-num2words, through
// tests/text/english_numbers_reference.py, which maps its convention to NeMo's: no "and",
// hyphens and commas as spaces): the independent source of the number-reading tests.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.h"

namespace winnow::testing {

struct Num2WordsQuery {
  std::string kind, value;  // kind: what english_numbers_reference.py reads ("cardinal", ...)
};

// num2words' answer to each query, one line each.
inline std::vector<std::string> num2words(const std::vector<Num2WordsQuery>& queries) {
  TempDir dir;
  std::string input;
  for (const Num2WordsQuery& q : queries) input += q.kind + " " + q.value + "\n";
  write_file(dir.file("in.txt"), input);
  std::string output;
  EXPECT_EQ(run_command("/usr/bin/python3 " + kSource +
                            "/tests/text/english_numbers_reference.py < " + dir.file("in.txt"),
                        &output),
            0)
      << output << " (python3-num2words is installed by scripts/setup)";
  std::vector<std::string> lines = split_lines(output);
  EXPECT_EQ(lines.size(), queries.size());
  lines.resize(queries.size());
  return lines;
}

}  // namespace winnow::testing
