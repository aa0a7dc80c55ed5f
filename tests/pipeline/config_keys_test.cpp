#include "pipeline/config_keys.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "pipeline/pipeline_config.h"
#include "stages/builtin_stages.h"
#include "test_support.h"

namespace winnow {
namespace {

using ::testing::HasSubstr;

// A pipeline file setting every declared key with a value of its own (`value_of`), nested by
// section ("input.warc" and "input.wikipedia" inside "input").
std::string pipeline_setting_every_key(
    const std::function<std::optional<std::string>(const ConfigKey&)>& value_of) {
  YAML::Node root(YAML::NodeType::Map);
  for (const ConfigKey& key : config_keys()) {
    std::optional<std::string> value = value_of(key);
    if (!value) continue;
    YAML::Node parsed = YAML::Load(*value);
    if (key.section.empty()) {
      root[std::string(key.name)] = parsed;
    } else if (key.section == "input.warc") {
      root["input"]["warc"][std::string(key.name)] = parsed;
    } else if (key.section == "input.wikipedia") {
      root["input"]["wikipedia"][std::string(key.name)] = parsed;
    } else {
      root[std::string(key.section)][std::string(key.name)] = parsed;
    }
  }
  YAML::Emitter out;
  out << root;
  return out.c_str();
}

std::string full_name(const ConfigKey& key) {
  return key.section.empty() ? std::string(key.name)
                             : std::string(key.section) + "." + std::string(key.name);
}

class ConfigKeysTest : public ::testing::Test {
 protected:
  ConfigKeysTest() { register_builtin_stages(registry_); }
  StageRegistry registry_;
};

// The reference's defaults are what the loader does when a key is absent: a file writing every
// key with its documented default loads and holds the same values as an empty file.
TEST_F(ConfigKeysTest, EveryKeyWrittenWithItsDocumentedDefaultLoadsUnchanged) {
  const PipelineConfig defaults;
  std::string yaml = pipeline_setting_every_key([&](const ConfigKey& key) {
    std::optional<std::string> value;
    if (key.value_in && !key.value_in(defaults).empty()) value = key.value_in(defaults);
    return value;
  });
  auto loaded = PipelineConfig::load_string(yaml, "defaults.yaml", registry_);
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().message() << "\n" << yaml;
  for (const ConfigKey& key : config_keys()) {
    if (!key.value_in) continue;
    EXPECT_EQ(key.value_in(*loaded), key.value_in(defaults)) << full_name(key);
  }
}

// Every declared key is read, not only let through: set to a value other than its default, the
// loaded pipeline holds that value. A key added to the table needs a value here.
TEST_F(ConfigKeysTest, EveryDeclaredKeyIsReadByTheLoader) {
  const std::map<std::string, std::string> other_values = {
      {"on_error", "skip"},
      {"threads", "3"},
      {"gpus", "0"},
      {"fuse", "false"},
      {"report.pictures_per_reason", "2"},
      {"report.max_bytes", "100000"},
      {"materialize", "always"},
      {"batch_size", "7"},
      {"batch_bytes", "1000"},
      {"seed", "7"},
      {"input.paths", "[a.jsonl, b/]"},
      {"input.format", "warc"},
      {"input.text_field", "body"},
      {"input.id_field", "uid"},
      {"input.max_line_bytes", "1000"},
      {"input.max_file_bytes", "2000"},
      {"input.max_image_pixels", "1000000"},
      {"input.follow_links", "true"},
      {"input.union_schemas", "true"},
      {"input.parquet_split_mb", "0.5"},
      {"input.project_columns", "false"},
      {"input.warc.record_types", "[response, conversion]"},
      {"input.warc.content_types", "[text/*]"},
      {"input.warc.status_codes", "[200, 404]"},
      {"input.warc.max_record_bytes", "3000"},
      {"input.warc.verify_digests", "false"},
      {"input.wikipedia.namespaces", "[0, 14]"},
      {"input.wikipedia.language", "de"},
      {"output.path", "elsewhere"},
      {"output.format", "jsonl.gz"},
      {"output.compression_level", "5"},
      {"output.parquet_compression", "snappy"},
      {"output.row_group_rows", "500"},
      {"output.write_rejected", "false"},
      {"output.max_file_bytes", "4000"},
      {"output.max_tar_bytes", "5000000"},
      {"output.tokenizer", "model/tokenizer.json"},
      {"output.add_special_tokens", "true"},
      {"output.append_eod", "true"},
      {"output.eod_id", "2"},
      {"autoscale.enabled", "false"},
      {"autoscale.interval_ms", "50"},
      {"autoscale.headroom", "2.5"},
      {"autoscale.min_samples", "2"},
      {"autoscale.shrink_cycles", "4"},
      {"autoscale.grace_ms", "10"},
      {"autoscale.window", "8"},
      {"autoscale.starved_busy", "0.25"},
  };
  const PipelineConfig defaults;
  for (const ConfigKey& key : config_keys()) {
    if (!key.value_in) continue;
    auto value = other_values.find(full_name(key));
    ASSERT_NE(value, other_values.end()) << "give " << full_name(key) << " a value in this test";
    ASSERT_NE(value->second, key.value_in(defaults)) << full_name(key);
  }
  std::string yaml = pipeline_setting_every_key([&](const ConfigKey& key) {
    std::optional<std::string> value;
    if (key.value_in) value = other_values.at(full_name(key));
    return value;
  });
  auto loaded = PipelineConfig::load_string(yaml, "others.yaml", registry_);
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().message() << "\n" << yaml;
  for (const ConfigKey& key : config_keys()) {
    if (!key.value_in) continue;
    EXPECT_EQ(key.value_in(*loaded), other_values.at(full_name(key))) << full_name(key);
  }
}

// A key that is not declared is refused, and the message lists the section's declared keys.
TEST_F(ConfigKeysTest, AnUndeclaredKeyIsRefusedWithTheDeclaredOnes) {
  auto loaded =
      PipelineConfig::load_string("output:\n  path: out\n  colour: blue\n", "x.yaml", registry_);
  ASSERT_FALSE(loaded.is_ok());
  std::string known;
  for (const std::string& name : config_keys_in("output")) {
    known += (known.empty() ? "" : ", ") + name;
  }
  EXPECT_THAT(loaded.status().message(),
              HasSubstr("x.yaml:3: unknown key 'colour' in output (known: " + known + ")"));
}

// docs/porting.md names winnow's stages and keys by hand: each stage it maps a class to is a
// registered stage, and each `section.key` it names is declared.
TEST_F(ConfigKeysTest, ThePortingGuideNamesStagesAndKeysThatExist) {
  std::string guide = testing::read_file(std::string(WINNOW_SOURCE_DIR) + "/docs/porting.md");
  std::istringstream lines(guide.substr(guide.find("\n## Stages")));
  std::string line;
  size_t stages_named = 0;
  // The last cell of a row, up to its first " (": "`a`, `b`" names stages a and b. The
  // parenthesis stays inside the cell, so a row whose first cell names options is not read as
  // naming stages.
  const std::regex stage_row(R"(\|\s*((?:`[a-z0-9_]+`(?:, )?)+)(?: \([^|]*\))?\s*\|\s*$)");
  const std::regex name_in_backticks("`([a-z0-9_]+)`");
  while (std::getline(lines, line)) {
    std::smatch row;
    if (!std::regex_search(line, row, stage_row)) continue;
    std::string cell = row[1];
    for (std::sregex_iterator it(cell.begin(), cell.end(), name_in_backticks), end; it != end;
         ++it) {
      EXPECT_NE(registry_.find((*it)[1]), nullptr) << "porting.md names stage " << (*it)[1];
      ++stages_named;
    }
  }
  EXPECT_GE(stages_named, 40u);

  const std::regex dotted_key("`(input|output|autoscale|input\\.warc)\\.([a-z_]+)[`:]");
  size_t keys_named = 0;
  for (std::sregex_iterator it(guide.begin(), guide.end(), dotted_key), end; it != end; ++it) {
    EXPECT_EQ(config_keys_in((*it)[1].str()).count((*it)[2]), 1u)
        << "porting.md names key " << (*it)[0];
    ++keys_named;
  }
  EXPECT_GE(keys_named, 3u);
}

}  // namespace
}  // namespace winnow
