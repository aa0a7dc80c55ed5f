// `output.format: megatron` end to end: the writing pass tokenises the kept documents
// (pipeline/megatron_encoder.h) into Megatron-LM indexed datasets (io/megatron_dataset.h). The
// files are read back by an independent reader written from Megatron's format description
// (megatron_read.py, standard library only), and the ids compared with Hugging Face's own
// tokenizers library (under node, as the tokenizer tests do).
#include "pipeline/megatron_encoder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <set>

#include "core/json_text.h"
#include "models/tokenizer_files.h"
#include "models/wordpiece_test_models.h"
#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// Real paragraphs in several languages and scripts, and short or odd texts (the short ones are
// what the pipelines' text_length stage drops).
std::vector<std::string> corpus_texts() {
  std::vector<std::string> texts = multilingual_paragraphs(5);
  for (const char* text :
       {"", "short", "  ",
        "a text that names <|end_of_text|> and <|begin_of_text|> among its words",
        "tab\there and a newline\nthen more text after it, long enough to be kept"}) {
    texts.push_back(text);
  }
  return texts;
}

// The texts as JSON Lines shards part-<s>.jsonl, text i in shard i % shards, ids "d<i>".
std::vector<std::string> write_shards(const TempDir& dir, const std::vector<std::string>& texts,
                                      int shards) {
  std::vector<std::string> bodies(shards);
  for (size_t i = 0; i < texts.size(); ++i) {
    std::string& body = bodies[i % shards];
    body += "{\"id\":\"d" + std::to_string(i) + "\",\"text\":";
    append_json_string(body, texts[i]);
    body += "}\n";
  }
  std::vector<std::string> paths;
  fs::create_directories(dir.file("in"));
  for (int s = 0; s < shards; ++s) {
    paths.push_back(dir.file("in/part-" + std::to_string(s) + ".jsonl"));
    write_file(paths.back(), bodies[s]);
  }
  return paths;
}

struct Dataset {
  int64_t dtype = 0;
  std::vector<int64_t> sequences;
  std::vector<std::vector<int64_t>> documents;
};

// <prefix>.bin/.idx through the independent reader.
Dataset read_dataset(const std::string& prefix) {
  std::string out;
  int rc = run_command("python3 " + kSource + "/tests/pipeline/megatron_read.py " + prefix, &out);
  if (rc != 0) throw std::runtime_error("megatron_read.py " + prefix + ": " + out);
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.parse(out);
  Dataset dataset;
  dataset.dtype = root["dtype"].get_int64();
  for (int64_t length : root["sequences"].get_array()) dataset.sequences.push_back(length);
  for (simdjson::dom::array document : root["documents"].get_array()) {
    auto& ids = dataset.documents.emplace_back();
    for (int64_t id : document) ids.push_back(id);
  }
  return dataset;
}

// The ids of the documents a rejected/ file lists (JSON Lines, each with its winnow_drop).
std::set<std::string> rejected_ids(const std::string& path) {
  std::set<std::string> ids;
  simdjson::dom::parser parser;
  for (const std::string& line : split_lines(read_decompressed(path))) {
    simdjson::dom::element record = parser.parse(line);
    EXPECT_EQ(std::string_view(record["winnow_drop"]["stage"].get_string()), "text_length");
    ids.insert(std::string(record["id"].get_string().value()));
  }
  return ids;
}

RunReport run(const std::string& yaml, const std::vector<std::string>& inputs,
              const std::string& out, int threads, uint64_t batch, bool overwrite = false) {
  PipelineConfig config = load_config(yaml);
  RunOptions options;
  options.inputs = inputs;
  options.output = out;
  options.threads = threads;
  options.batch_size = batch;
  options.overwrite = overwrite;
  return run_pipeline(config, options);
}

// llama3's byte-level BPE (128,256 ids with its added tokens: int32), <|end_of_text|> after
// each document, a filter in front: each shard's pair holds exactly the kept documents' HF ids
// (add_special_tokens=False, the default) in input order, the dropped ones are in rejected/ as
// JSON Lines, and the files are byte for byte the same with one thread and small batches as
// with four threads and large ones.
TEST(MegatronOutput, KeptDocumentsAreHuggingFaceIdsAndTheFilesDoNotDependOnThreads) {
  std::string files = tokenizer_files_dir();
  if (files.empty()) GTEST_SKIP() << "the tokenizer files are absent and cannot be fetched";
  const std::string tokenizer = files + "/llama3/tokenizer.json";
  const int64_t eod = 128001;  // <|end_of_text|>, an added token past the model's 128,000 ids
  TempDir dir;
  std::vector<std::string> texts = corpus_texts();
  auto inputs = write_shards(dir, texts, 2);
  const std::string yaml = "output: {format: megatron, tokenizer: " + tokenizer +
                           ", append_eod: true, eod_id: " + std::to_string(eod) +
                           "}\nstages:\n  - {stage: text_length, min_chars: 40}\n";
  RunReport one = run(yaml, inputs, dir.file("one"), 1, 7);
  ASSERT_TRUE(one.status.is_ok()) << one.status.message();
  RunReport four = run(yaml, inputs, dir.file("four"), 4, 64);
  ASSERT_TRUE(four.status.is_ok()) << four.status.message();
  EXPECT_TRUE(result_tree(dir.file("one")) == result_tree(dir.file("four")));

  std::vector<std::vector<int64_t>> hf = hf_reference_ids(dir.path(), tokenizer, texts, false);
  ASSERT_EQ(hf.size(), texts.size());
  size_t kept = 0;
  size_t dropped = 0;
  for (int s = 0; s < 2; ++s) {
    const std::string name = "part-" + std::to_string(s);
    EXPECT_FALSE(fs::exists(dir.file("one/" + name + ".jsonl.zst")));
    std::set<std::string> rejected = rejected_ids(dir.file("one/rejected/" + name + ".jsonl.zst"));
    std::vector<std::vector<int64_t>> expected;
    for (size_t i = s; i < texts.size(); i += 2) {
      if (rejected.count("d" + std::to_string(i))) continue;
      expected.push_back(hf[i]);
      if (!expected.back().empty()) expected.back().push_back(eod);
    }
    Dataset dataset = read_dataset(dir.file("one/" + name));
    EXPECT_EQ(dataset.dtype, 4) << "int32";
    EXPECT_EQ(dataset.documents.size(), expected.size()) << name;
    EXPECT_TRUE(dataset.documents == expected) << name;
    kept += expected.size();
    dropped += rejected.size();
  }
  EXPECT_GT(kept, 40u);
  EXPECT_GE(dropped, 3u);  // "", "short", "  "
  EXPECT_EQ(kept + dropped, texts.size());
}

// A WordPiece vocabulary of a few thousand ids: uint16. With add_special_tokens each document
// is [CLS] ... [SEP] (so the empty text has tokens too). With max_file_bytes the pairs are cut
// between documents at that many .bin bytes; together they hold every document's HF ids, in
// order.
TEST(MegatronOutput, SmallVocabularyIsUint16AndPartsAreCutBetweenDocuments) {
  TempDir dir;
  std::vector<std::string> texts = corpus_texts();
  std::string tokenizer = dir.file("wordpiece.json");
  write_file(tokenizer, wordpiece_json(vocabulary_from(texts), {}));
  auto inputs = write_shards(dir, texts, 1);
  const uint64_t max_bytes = 4000;
  RunReport r =
      run("output: {format: megatron, tokenizer: " + tokenizer +
              ", add_special_tokens: true, max_file_bytes: " + std::to_string(max_bytes) + "}\n",
          inputs, dir.file("out"), 2, 16);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();

  std::vector<std::vector<int64_t>> documents;
  size_t parts = 0;
  for (;; ++parts) {
    std::string prefix = dir.file("out/part-0-p" + fmt::format("{:05}", parts));
    if (!fs::exists(prefix + ".bin")) break;
    Dataset dataset = read_dataset(prefix);
    EXPECT_EQ(dataset.dtype, 8) << "uint16";
    if (dataset.documents.size() > 1) {
      EXPECT_LE(fs::file_size(prefix + ".bin"), max_bytes) << prefix;
    }
    documents.insert(documents.end(), dataset.documents.begin(), dataset.documents.end());
  }
  EXPECT_GE(parts, 3u);
  std::vector<std::vector<int64_t>> hf = hf_reference_ids(dir.path(), tokenizer, texts);
  EXPECT_EQ(documents.size(), texts.size());
  EXPECT_TRUE(documents == hf);

  // Rerun whole with --overwrite: the parts of the earlier run go, one pair holds everything.
  r = run("output: {format: megatron, tokenizer: " + tokenizer + ", add_special_tokens: true}\n",
          inputs, dir.file("out"), 2, 16, true);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  EXPECT_FALSE(fs::exists(dir.file("out/part-0-p00000.bin")));
  EXPECT_FALSE(fs::exists(dir.file("out/part-0-p00000.idx")));
  EXPECT_TRUE(read_dataset(dir.file("out/part-0")).documents == hf);
}

// The post-processor's [CLS] ... [SEP] only with add_special_tokens; the ids follow from the
// vocabulary's order ([PAD] [UNK] [CLS] [SEP] [MASK] at 0-4, then "some" 5, "text" 6). An empty
// text without special tokens is a document with no sequence (and no end-of-document id).
TEST(MegatronOutput, SpecialTokensOnlyWhenAsked) {
  TempDir dir;
  auto inputs = write_shards(dir, {"some text", "text some some", ""}, 1);
  std::string tokenizer = dir.file("wordpiece.json");
  write_file(tokenizer, wordpiece_json({"some", "text"}, {}));
  RunReport r =
      run("output: {format: megatron, tokenizer: " + tokenizer + ", append_eod: true, eod_id: 4}\n",
          inputs, dir.file("plain"), 1, 8);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  using Ids = std::vector<std::vector<int64_t>>;
  Dataset plain = read_dataset(dir.file("plain/part-0"));
  EXPECT_EQ(plain.documents, (Ids{{5, 6, 4}, {6, 5, 5, 4}, {}}));
  EXPECT_EQ(plain.sequences, (std::vector<int64_t>{3, 4}));
  r = run("output: {format: megatron, tokenizer: " + tokenizer +
              ", add_special_tokens: true, append_eod: true, eod_id: 4}\n",
          inputs, dir.file("specials"), 1, 8);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  Dataset dataset = read_dataset(dir.file("specials/part-0"));
  EXPECT_EQ(dataset.documents, (Ids{{2, 5, 6, 3, 4}, {2, 6, 5, 5, 3, 4}, {2, 3, 4}}));
  EXPECT_EQ(dataset.sequences, (std::vector<int64_t>{5, 6, 3}));
  EXPECT_EQ(dataset.dtype, 8);
}

TEST(MegatronOutput, MissingSettingsAreRefusedBeforeAnythingIsWritten) {
  TempDir dir;
  auto inputs = write_shards(dir, {"some text"}, 1);
  static StageRegistry registry = builtin_registry();
  auto no_eod = PipelineConfig::load_string(
      "output: {format: megatron, tokenizer: t.json, append_eod: true}\n", "x.yaml", registry);
  ASSERT_FALSE(no_eod.is_ok());
  EXPECT_THAT(no_eod.status().message(), HasSubstr("eod_id"));

  RunReport r = run("output: {format: megatron}\n", inputs, dir.file("out"), 1, 8);
  EXPECT_FALSE(r.status.is_ok());
  EXPECT_THAT(r.status.message(), HasSubstr("output.tokenizer"));
  EXPECT_FALSE(fs::exists(dir.file("out")));

  std::string tokenizer = dir.file("wordpiece.json");
  write_file(tokenizer, wordpiece_json({"some", "text"}, {}));
  r = run("output: {format: megatron, tokenizer: " + tokenizer + ", append_eod: true, eod_id: 7}\n",
          inputs, dir.file("out"), 1, 8);
  EXPECT_FALSE(r.status.is_ok());
  EXPECT_THAT(r.status.message(), HasSubstr("eod_id 7"));
}

}  // namespace
}  // namespace winnow::testing
