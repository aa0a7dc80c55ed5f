#pragma once
// The end-to-end check every model-backed stage needs: a pipeline naming a model file that
// does not exist fails before anything is read, exits 2 (a setup error, like a bad pipeline
// file), writes no stats.json, and says where: the pipeline file's line, the key and the path.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_support.h"

namespace winnow::testing {

// `stage_yaml`: the stage's lines of the pipeline file, starting with "  - stage: NAME\n";
// `model_line`: the line of the file that names the model, as "p.yaml:N".
inline void expect_missing_model_is_setup_error(const std::string& stage_yaml,
                                                const std::string& model_line,
                                                const std::string& model_path) {
  TempDir dir;
  write_file(dir.file("p.yaml"), "stages:\n" + stage_yaml);
  write_file(dir.file("in.jsonl"), "{\"text\": \"hello\"}\n");
  std::string out;
  EXPECT_EQ(run_command(std::string(WINNOW_BINARY) + " run " + dir.file("p.yaml") + " -i " +
                            dir.file("in.jsonl") + " -o " + dir.file("out"),
                        &out),
            2);
  EXPECT_FALSE(std::filesystem::exists(dir.file("out/stats.json")));
  EXPECT_THAT(out, ::testing::HasSubstr(model_line));
  EXPECT_THAT(out, ::testing::HasSubstr("'model'"));
  EXPECT_THAT(out, ::testing::HasSubstr(model_path));
}

}  // namespace winnow::testing
