// Fan-out and fan-in through the real binary: examples/chunks.yaml (chunk → per-piece filters
// → join) over this machine's documentation gives byte-identical output for 1, 2 and 4 threads
// and batch sizes 1, 7 and 1000, fused or not; stats.json accounts for every item at every
// level and each step's items in and out chain; report.html shows the fan-out.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "pipeline/pipeline_fixture.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;

class FanOut : public ExampleCorpusTest {};

TEST_F(FanOut, ChunkFilterJoinIsTheSameWhateverThreadsAndBatches) {
  const std::string pipeline = kSource + "/examples/chunks.yaml";
  std::string summary = run_winnow(pipeline, "reference", "--threads 1 --batch-size 1000");
  EXPECT_THAT(summary, HasSubstr("reconciled"));
  auto expected = read_output_tree(dir_->file("reference"));
  for (int threads : {1, 2, 4}) {
    for (int batch : {1, 7, 1000}) {
      std::string options =
          "--threads " + std::to_string(threads) + " --batch-size " + std::to_string(batch);
      if (threads == 2 && batch == 7) options += " --no-fuse";
      SCOPED_TRACE(options);
      run_winnow(pipeline, "run", options);
      EXPECT_TRUE(read_output_tree(dir_->file("run")) == expected);
    }
  }
}

// Pieces are items like any other: a dedup step between chunk and join removes the pieces
// (paragraphs) that other documents share, identically for any threads and batch sizes, and its
// table says which pieces it removed by their derived keys.
TEST_F(FanOut, PiecesCanBeDeduplicatedAcrossDocuments) {
  const std::string pipeline = dir_->file("chunk_dedup.yaml");
  write_file(pipeline, R"(
stages:
  - {stage: chunk, max_chars: 1500}
  - {stage: exact_dedup}
  - {stage: join}
)");
  std::string summary = run_winnow(pipeline, "dedup-a", "--threads 1 --batch-size 1000");
  EXPECT_THAT(summary, HasSubstr("reconciled"));
  run_winnow(pipeline, "dedup-b", "--threads 3 --batch-size 7");
  EXPECT_TRUE(read_output_tree(dir_->file("dedup-a")) == read_output_tree(dir_->file("dedup-b")));
  std::string table = read_file(dir_->file("dedup-a/global/exact_dedup/duplicates.jsonl"));
  EXPECT_THAT(table, HasSubstr("\"derived\":true"));
  EXPECT_THAT(table, ::testing::Not(HasSubstr("\"shard\"")));
}

TEST_F(FanOut, EveryItemIsAccountedAtEveryLevel) {
  run_winnow(kSource + "/examples/chunks.yaml", "counted", "--threads 2");
  simdjson::dom::parser parser;
  simdjson::dom::element stats = parser.load(dir_->file("counted/stats.json"));
  EXPECT_TRUE(bool(stats["reconciles"]));
  simdjson::dom::element totals = stats["totals"];
  uint64_t documents = totals["documents"], kept = totals["kept"];
  uint64_t children = totals["children"]["chunk/split"];
  uint64_t parents = totals["fanned_out"]["chunk/split"];
  uint64_t merged = totals["merged"]["join/merged"];
  uint64_t joined = totals["merge_results"]["join/merged"];
  uint64_t dropped = totals["dropped"];
  EXPECT_GT(children, parents);  // long documents became several pieces
  EXPECT_GT(dropped, 0u);        // some pieces were not prose
  EXPECT_EQ(documents + children + joined, kept + dropped + parents + merged);
  // Level by level: the documents read and the joined ones; the pieces.
  simdjson::dom::element top = totals["levels"]["document@0"];
  simdjson::dom::element pieces = totals["levels"]["document@1"];
  EXPECT_EQ(uint64_t(top["created"]), documents + joined);
  EXPECT_EQ(uint64_t(top["kept"]), kept);
  EXPECT_EQ(uint64_t(top["fanned_out"]), parents);
  EXPECT_EQ(uint64_t(pieces["created"]), children);
  EXPECT_EQ(uint64_t(pieces["merged"]), merged);
  EXPECT_EQ(uint64_t(pieces["dropped"]), dropped);
  // Each step's items out are the next one's items in; the chunk step fans out, join fans in.
  uint64_t previous_out = documents;
  std::vector<std::string> names;
  for (simdjson::dom::element step : stats["steps"].get_array()) {
    std::string name(std::string_view(step["name"].get_string()));
    names.push_back(name);
    EXPECT_EQ(uint64_t(step["items_in"]), previous_out) << name;
    previous_out = step["items_out"];
    if (name == "chunk") {
      EXPECT_EQ(uint64_t(step["fanned_out"]), parents);
      EXPECT_EQ(uint64_t(step["children"]), children);
    }
    if (name == "join") {
      EXPECT_EQ(uint64_t(step["merged"]), merged);
      EXPECT_EQ(uint64_t(step["merge_results"]), joined);
    }
  }
  EXPECT_EQ(previous_out, kept);
  EXPECT_EQ(names, (std::vector<std::string>{"read", "parse", "chunk", "symbols", "alphabetic",
                                             "join", "encode", "write"}));
  // The report shows the fan-out and fan-in.
  std::string report = read_file(dir_->file("counted/report.html"));
  EXPECT_THAT(report, HasSubstr("chunk"));
  EXPECT_THAT(report, HasSubstr("into " + std::to_string(children) + " children"));
  EXPECT_THAT(report, HasSubstr("document@1"));
}

TEST_F(FanOut, JoinedDocumentsAreTheirParentsWithoutTheDroppedPieces) {
  run_winnow(kSource + "/examples/chunks.yaml", "joined", "--threads 2 --output-format jsonl");
  run_winnow(kSource + "/bench/passthrough.yaml", "original", "--threads 2 --output-format jsonl");
  // The same documents (ids, every other field), in the same order, each text no longer than
  // its parent's; the documents whose every piece was dropped are gone.
  std::map<std::string, std::string> original;
  simdjson::dom::parser parser;
  for (const auto& [file, bytes] : read_output_tree(dir_->file("original"))) {
    if (file.find('/') != std::string::npos) continue;
    for (const std::string& line : split_lines(bytes)) {
      simdjson::dom::element doc = parser.parse(line);
      original[std::string(doc["id"].get_string().value())] =
          std::string(doc["text"].get_string().value());
    }
  }
  size_t joined = 0, shorter = 0;
  for (const auto& [file, bytes] : read_output_tree(dir_->file("joined"))) {
    if (file.find('/') != std::string::npos) continue;
    for (const std::string& line : split_lines(bytes)) {
      simdjson::dom::element doc = parser.parse(line);
      std::string id(doc["id"].get_string().value());
      ASSERT_TRUE(original.count(id)) << id;
      std::string_view text = doc["text"].get_string().value();
      // Pieces are stripped and joined with a blank line: about as long as the parent at most.
      EXPECT_LE(text.size(), original[id].size() + original[id].size() / 50 + 16) << id;
      EXPECT_TRUE(doc["chunk_index"].error()) << "a piece's field on a joined document";
      shorter += text.size() < original[id].size();
      ++joined;
    }
  }
  EXPECT_GT(joined, 100u);
  EXPECT_GT(shorter, 0u);
}

}  // namespace
}  // namespace winnow::testing
