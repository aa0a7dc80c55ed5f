// Which Parquet columns a pass reads, from the stages of a loaded pipeline: the builtin stages'
// declarations (text-only stages read nothing by name, select its field, the dedup stages their
// survivor or ranking fields) and the conservative default for a stage that declares nothing.
#include "pipeline/record_projection.h"

#include <gtest/gtest.h>

#include "stages/builtin_stages.h"

namespace winnow {
namespace {

class RecordProjection : public ::testing::Test {
 protected:
  RecordProjection() {
    register_builtin_stages(registry_);
    // A stage that says nothing of what it reads (as a Python stage or a new one).
    StageSpec silent{"silent", "reads who knows what", {}, [](const StageParams&, StageContext&) {
                       return Result<std::unique_ptr<Stage>>(Status::error("not built here"));
                     }};
    registry_.add(std::move(silent));
  }

  // The columns a pass through stages [0, to] of `stages_yaml` reads.
  std::optional<std::vector<std::string>> columns(const std::string& stages_yaml, size_t to,
                                                  const std::string& input = "") {
    auto config =
        PipelineConfig::load_string(input + "stages:\n" + stages_yaml, "p.yaml", registry_);
    EXPECT_TRUE(config.is_ok()) << config.status().message();
    std::vector<PassStage> stages;
    for (const StageConfig& sc : config->stages) {
      stages.push_back({sc.name, nullptr, {}, record_fields_of(sc)});
    }
    return projected_columns(stages, 0, to, config->text_field, config->id_field);
  }

  StageRegistry registry_;
};

using Columns = std::optional<std::vector<std::string>>;

TEST_F(RecordProjection, TextOnlyStagesNeedTheTextAndIdOnly) {
  EXPECT_EQ(columns("  - stage: exact_dedup\n", 0), Columns({{"id", "text"}}));
  EXPECT_EQ(columns("  - stage: text_length\n    min_chars: 10\n"
                    "  - stage: unicode_fix\n"
                    "  - stage: fuzzy_dedup\n",
                    2),
            Columns({{"id", "text"}}));
}

TEST_F(RecordProjection, FieldsReadByNameAreAdded) {
  EXPECT_EQ(columns("  - stage: select\n    field: meta.lang\n    equals: en\n"
                    "  - stage: fuzzy_dedup\n    survivor: field\n    survivor_field: quality\n",
                    1),
            Columns({{"id", "meta", "meta.lang", "quality", "text"}}));
  EXPECT_EQ(columns("  - stage: semantic_dedup\n    n_clusters: 2\n    eps: 0.1\n"
                    "    embedding_field: vec\n",
                    0),
            Columns({{"id", "text", "vec"}}));
  // The input's own text and id fields, nested or not.
  EXPECT_EQ(
      columns("  - stage: exact_dedup\n", 0, "input: {text_field: body, id_field: meta.uid}\n"),
      Columns({{"body", "meta", "meta.uid"}}));
}

TEST_F(RecordProjection, OnlyTheStagesUpToThePointCount) {
  // The select after the dedup stage does not run in its identify pass.
  const std::string stages =
      "  - stage: exact_dedup\n"
      "  - stage: select\n    field: lang\n    equals: en\n";
  EXPECT_EQ(columns(stages, 0), Columns({{"id", "text"}}));
  EXPECT_EQ(columns(stages, 1), Columns({{"id", "lang", "text"}}));
}

TEST_F(RecordProjection, AStageThatDeclaresNothingReadsEveryColumn) {
  EXPECT_EQ(columns("  - stage: silent\n  - stage: exact_dedup\n", 1), std::nullopt);
  EXPECT_EQ(columns("  - stage: exact_dedup\n  - stage: silent\n", 0), Columns({{"id", "text"}}));
}

}  // namespace
}  // namespace winnow
