// Model stages on `device: cuda` declare a GPU share to the executor (`gpu_share`, 0.25 by
// default): a run without a GPU refuses them before reading anything, naming the stage and the
// share; with a GPU granted (--gpus 1) the model itself must then load on CUDA, which this
// machine's ONNX Runtime build cannot: a load-time error, exit 2, never a silent CPU run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/onnx_test_models.h"
#include "models/wordpiece_test_models.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

TEST(ModelGpuShare, DeclaredToTheExecutorAndNeverASilentCpuRun) {
  TempDir dir;
  build_bert_model(dir.file("model"), "--vocab 16");
  write_file(dir.file("model/tokenizer.json"),
             wordpiece_json({"a", "b", "c", "d", "e", "f", "g"}, {.lowercase = true}));
  write_file(dir.file("in.jsonl"), "{\"id\":\"1\",\"text\":\"a b c\"}\n");
  auto run = [&](const std::string& stage_options, const std::string& args, std::string* out) {
    const std::string yaml = "stages:\n  - stage: embed\n    model: " + dir.file("model") +
                             "\n    device: cuda\n" + stage_options;
    return winnow("run " + pipeline_file(dir, yaml) + " -i " + dir.file("in.jsonl") + " -o " +
                      dir.file("out") + " --no-progress --overwrite " + args,
                  out);
  };
  std::string out;
  EXPECT_EQ(run("", "--gpus 0", &out), 2) << out;
  EXPECT_THAT(out, HasSubstr("stage 'embed' needs a GPU (0.25 per worker)"));
  EXPECT_EQ(run("    gpu_share: 1\n", "--gpus 0", &out), 2) << out;
  EXPECT_THAT(out, HasSubstr("needs a GPU (1 per worker)"));
  EXPECT_EQ(run("    gpu_share: 1.5\n", "--gpus 2", &out), 2) << out;
  EXPECT_THAT(out, HasSubstr("whole number"));
  if (run_command("ls /proc/driver/nvidia/gpus/*/ >/dev/null 2>&1") != 0) {
    // No GPU and (here) no CUDA in ONNX Runtime: granted a GPU, the model's load fails.
    EXPECT_EQ(run("", "--gpus 1", &out), 2) << out;
    EXPECT_THAT(out, HasSubstr("CUDA"));
  }
}

}  // namespace
}  // namespace winnow::testing
