// ONNX Runtime is loaded on first use (models/onnx_session.cpp): a run with no model stage must
// never ask for it, and the first session must. One test, so the order of the two checks in
// this process is fixed (the flag cannot be reset once the library is loaded).
#include "models/onnx_runtime_requested.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>

#include "models/onnx_session.h"
#include "models/onnx_test_models.h"
#include "pipeline/executor.h"
#include "pipeline/pipeline_fixture.h"

namespace winnow {
namespace {

using testing::TempDir;

TEST(OnnxRuntimeRequested, ARunWithoutAModelStageNeverLoadsTheRuntimeAndASessionDoes) {
  ASSERT_FALSE(onnx_runtime_requested()) << "something asked for ONNX Runtime before main";

  TempDir dir;
  std::string input = dir.file("in.jsonl");
  testing::write_file(input,
                      "{\"id\":\"a\",\"text\":\"a document long enough to be kept by the filter\"}\n"
                      "{\"id\":\"b\",\"text\":\"short\"}\n");
  PipelineConfig config = testing::load_config(R"(
input:
  text_field: text
  id_field: id
output:
  format: jsonl
stages:
  - stage: text_length
    min_chars: 20
  - stage: add_id
    field: new_id
)");
  RunOptions options;
  options.inputs = {input};
  options.output = dir.file("out");
  options.threads = 2;
  RunReport report = run_pipeline(config, options);
  ASSERT_TRUE(report.status.is_ok()) << report.status.message();
  EXPECT_EQ(report.totals.documents, 2u);
  EXPECT_EQ(report.totals.kept, 1u);
  EXPECT_FALSE(onnx_runtime_requested()) << "a run with no model stage loaded ONNX Runtime";

  testing::build_bert_model(dir.file("bert"), "--seed 3");
  auto session = OnnxSession::load(dir.file("bert/model.onnx"), {});
  ASSERT_TRUE(session.is_ok()) << session.status().message();
  EXPECT_TRUE(onnx_runtime_requested());
  // Independent of the flag: the dynamic loader has the library in the process now.
  void* loaded = ::dlopen("libonnxruntime.so.1", RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(loaded, nullptr);
  if (loaded != nullptr) ::dlclose(loaded);
}

}  // namespace
}  // namespace winnow
