// input.format and input.warc in pipeline files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "stages/builtin_stages.h"
#include "pipeline/pipeline_config.h"

namespace winnow {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class WarcConfigTest : public ::testing::Test {
 protected:
  WarcConfigTest() { register_builtin_stages(registry_); }
  Result<PipelineConfig> load(const std::string& yaml) {
    return PipelineConfig::load_string(yaml, "p.yaml", registry_);
  }
  std::string error_of(const std::string& yaml) {
    auto config = load(yaml);
    return config.is_ok() ? std::string() : config.status().message();
  }
  StageRegistry registry_;
};

TEST_F(WarcConfigTest, ReadsFormatAndWarcOptions) {
  auto config = load(
      "input:\n"
      "  format: warc\n"
      "  warc:\n"
      "    record_types: [response, conversion]\n"
      "    content_types: [text/html, 'text/*']\n"
      "    status_codes: [200, 203]\n"
      "    max_record_bytes: 1000\n");
  ASSERT_TRUE(config.is_ok()) << config.status().message();
  EXPECT_EQ(config->input_format, InputFormat::kWarc);
  EXPECT_THAT(config->warc.record_types, ElementsAre("response", "conversion"));
  EXPECT_THAT(config->warc.content_types, ElementsAre("text/html", "text/*"));
  EXPECT_THAT(config->warc.status_codes, ElementsAre(200, 203));
  EXPECT_EQ(config->warc.max_record_bytes, 1000u);
}

TEST_F(WarcConfigTest, DefaultsAreAutoAndHtmlResponses) {
  auto config = load("input:\n  paths: [a.warc.gz]\n");
  ASSERT_TRUE(config.is_ok());
  EXPECT_EQ(config->input_format, InputFormat::kAuto);
  EXPECT_THAT(config->warc.record_types, ElementsAre("response"));
  EXPECT_THAT(config->warc.content_types, ElementsAre("text/html", "application/xhtml+xml"));
  EXPECT_TRUE(config->warc.status_codes.empty());
}

// input.warc.verify_digests: on unless turned off.
TEST_F(WarcConfigTest, DigestChecksAreOnByDefault) {
  auto defaults = load("input:\n  paths: [a.warc.gz]\n");
  ASSERT_TRUE(defaults.is_ok());
  EXPECT_TRUE(defaults->warc.verify_digests);
  auto config = load("input:\n  warc:\n    verify_digests: false\n");
  ASSERT_TRUE(config.is_ok()) << config.status().message();
  EXPECT_FALSE(config->warc.verify_digests);
  EXPECT_FALSE(config->input_options(10).warc.verify_digests);
  EXPECT_THAT(error_of("input:\n  warc:\n    verify_digests: maybe\n"),
              HasSubstr("p.yaml:3: "));
}

// input.follow_links: off unless turned on; it reaches input discovery.
TEST_F(WarcConfigTest, FollowLinksIsOffByDefault) {
  auto defaults = load("input:\n  paths: [a.warc.gz]\n");
  ASSERT_TRUE(defaults.is_ok());
  EXPECT_FALSE(defaults->follow_links);
  EXPECT_FALSE(defaults->input_files().follow_links);
  auto config = load("input:\n  follow_links: true\n");
  ASSERT_TRUE(config.is_ok()) << config.status().message();
  EXPECT_TRUE(config->follow_links);
  EXPECT_TRUE(config->input_files().follow_links);
  EXPECT_THAT(error_of("input:\n  follow_links: 3\n"), HasSubstr("p.yaml:2: "));
}

TEST_F(WarcConfigTest, ErrorsNameTheLine) {
  EXPECT_THAT(
      error_of("input:\n  format: csv\n"),
      HasSubstr("p.yaml:2: input format must be one of auto, jsonl, warc, images, parquet"));
  EXPECT_THAT(error_of("input:\n  warc:\n    record_types: [request]\n"),
              HasSubstr("p.yaml:3: record type 'request' is not one of"));
  EXPECT_THAT(error_of("input:\n  warc:\n    content_types: [html]\n"),
              HasSubstr("p.yaml:3: content type 'html' must be type/subtype"));
  EXPECT_THAT(error_of("input:\n  warc:\n    status_codes: [20]\n"),
              HasSubstr("p.yaml:3: status code '20' is not an HTTP status"));
  EXPECT_THAT(error_of("input:\n  warc:\n    bogus: 1\n"),
              HasSubstr("p.yaml:3: unknown key 'bogus' in input.warc"));
  EXPECT_THAT(error_of("input:\n  warc:\n    max_record_bytes: 0\n"), HasSubstr("p.yaml:3:"));
}

TEST_F(WarcConfigTest, WarcOptionsChangeTheFingerprint) {
  auto a = load("input:\n  paths: [x]\n");
  auto b = load("input:\n  paths: [x]\n  warc:\n    status_codes: [200]\n");
  auto c = load("input:\n  paths: [y]\n");
  ASSERT_TRUE(a.is_ok() && b.is_ok() && c.is_ok());
  EXPECT_NE(a->fingerprint, b->fingerprint);
  EXPECT_EQ(a->fingerprint, c->fingerprint);  // paths are not part of it
}

}  // namespace
}  // namespace winnow
