// decontaminate: the split of planted task passages checked against a brute-force Python
// reference (decontaminate_oracle.py: re-tokenises every remainder, compares joined words);
// the stage's fan-out, drops and counts; the drop action; a Parquet task file (written by
// DuckDB); parameter errors; and a run of the winnow binary whose stats.json counts the matches.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <random>

#include "core/json_text.h"
#include "duckdb_sql.h"
#include "stages/builtin_stages.h"
#include "stages/decontaminate/contamination_splitter.h"
#include "stages/filter_test_support.h"
#include "stages/step_counts.h"
#include "test_support.h"

namespace winnow::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::vector<std::string> kVocab = {
    "the",   "model", "Answer", "question", "river",  "Paris", "city",    "was",    "built",
    "in",    "of",    "and",    "a",        "to",     "which", "what",    "is",     "capital",
    "France", "water", "boils", "at",       "degrees", "Celsius", "café", "Über",   "naïve",
    "don't", "well-known", "3.14", "e.g.x", "U.S.A",  "(note)", "—",       "...",    "--",
    "data",  "set",   "train",  "test",     "benchmark", "score", "100",  "year",   "first",
    "last",  "word",  "Zürich", "ÉCOLE",    "over",   "under", "quick",   "brown",  "fox",
    "jumps", "lazy",  "dog",    "end.Next", "x!y",    "why?",  "ok.",     "Ω"};
const std::vector<std::string> kSeparators = {" ", " ", " ", " ", " ", "\n", "  ", "\t",
                                              "\u00a0", "\u3000", "\x1c", " \n "};

std::string json_line(const std::vector<std::pair<std::string, std::string>>& strings,
                      const std::vector<std::string>& list = {}, const std::string& list_key = "") {
  std::string out = "{";
  for (const auto& [key, value] : strings) {
    if (out.size() > 1) out += ",";
    append_json_string(out, key);
    out += ":";
    append_json_string(out, value);
  }
  if (!list_key.empty()) {
    if (out.size() > 1) out += ",";
    append_json_string(out, list_key);
    out += ":[";
    for (size_t i = 0; i < list.size(); ++i) {
      if (i) out += ",";
      append_json_string(out, list[i]);
    }
    out += "]";
  }
  return out + "}\n";
}

// Random task texts, and documents with some of them planted: re-cased, with punctuation and
// white space changed, glued to neighbouring punctuation.
struct Corpus {
  std::vector<std::string> task_files;
  std::vector<std::string> docs;
};

Corpus make_corpus(const TempDir& dir, uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  auto random_words = [&](size_t n) {
    std::vector<std::string> words;
    for (size_t i = 0; i < n; ++i) words.push_back(kVocab[pick(kVocab.size())]);
    return words;
  };
  auto join = [](const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
  };
  // Three tasks: one long-question set, one with a list field, one of short texts.
  std::vector<std::vector<std::string>> texts;
  std::string squad, mmlu, short_set;
  for (int i = 0; i < 12; ++i) {
    auto words = random_words(13 + pick(25));
    texts.push_back(words);
    squad += json_line({{"question", join(words)}, {"answer", "ignored text here"}});
  }
  for (int i = 0; i < 6; ++i) {
    auto q = random_words(9 + pick(20));
    auto c1 = random_words(14), c2 = random_words(3);  // the 3-word choice is too short
    texts.push_back(q);
    texts.push_back(c1);
    mmlu += json_line({{"question", join(q)}}, {join(c1), join(c2)}, "choices");
  }
  mmlu += "{\"question\": 42, \"choices\": [1, null]}\n{\"other\": \"no question\"}\n";
  for (int i = 0; i < 8; ++i) {
    auto words = random_words(8 + pick(5));
    texts.push_back(words);
    short_set += json_line({{"question", join(words)}});
  }
  short_set += json_line({{"question", "too short to protect"}});
  Corpus corpus;
  corpus.task_files = {dir.file("squad.jsonl"), dir.file("mmlu.val.jsonl"),
                       dir.file("short.jsonl")};
  write_file(corpus.task_files[0], squad);
  write_file(corpus.task_files[1], mmlu);
  write_file(corpus.task_files[2], short_set);

  for (int d = 0; d < 40; ++d) {
    std::vector<std::string> tokens = random_words(30 + pick(500));
    for (size_t i = 0; i < tokens.size(); i += 5 + pick(12)) tokens[i] += ".!?"[pick(3)];
    const size_t plants = d % 5 == 0 ? 0 : pick(8);
    size_t last_end = 0;
    for (size_t p = 0; p < plants; ++p) {
      const auto& text = texts[pick(texts.size())];
      size_t start = 0, length = text.size();
      if (text.size() > 13 && pick(2)) {
        start = pick(text.size() - 13);
        length = 13 + pick(text.size() - 13 - start + 1);
      }
      std::vector<std::string> passage(text.begin() + start, text.begin() + start + length);
      for (auto& w : passage) {
        if (pick(4) == 0) {
          for (char& c : w) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        if (pick(6) == 0) w += ",";
        if (pick(9) == 0) w = "\"" + w;
      }
      // Glued to a sentence end ("end.Which"): one word of the whole text, which only a cut
      // just after that '.' separates, as the oracle's re-tokenised remainder does.
      if (pick(3) == 0) passage.front() = "end." + passage.front();
      // Often right after the previous passage, so a cut can land on such a glued word.
      size_t at = p > 0 && pick(2) ? last_end : pick(tokens.size() + 1);
      tokens.insert(tokens.begin() + at, passage.begin(), passage.end());
      last_end = at + passage.size();
    }
    std::string doc;
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (i) doc += kSeparators[pick(kSeparators.size())];
      doc += tokens[i];
    }
    corpus.docs.push_back(doc);
  }
  return corpus;
}

struct Expected {
  std::vector<std::string> pieces;
  std::vector<std::string> tasks;
};

std::vector<Expected> oracle(const TempDir& dir, const Corpus& corpus,
                             const std::vector<std::string>& fields, size_t ngram_size,
                             size_t min_ngram_size, const SplitRules& rules) {
  std::string job = "{\"task_files\":[";
  for (size_t i = 0; i < corpus.task_files.size(); ++i) {
    if (i) job += ",";
    append_json_string(job, corpus.task_files[i]);
  }
  job += "],\"fields\":[";
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) job += ",";
    append_json_string(job, fields[i]);
  }
  job += fmt::format(
      "],\"ngram_size\":{},\"min_ngram_size\":{},\"remove_char_each_side\":{},"
      "\"min_document_length\":{},\"docs\":[",
      ngram_size, min_ngram_size, rules.remove_char_each_side, rules.min_document_length);
  for (size_t i = 0; i < corpus.docs.size(); ++i) {
    if (i) job += ",";
    append_json_string(job, corpus.docs[i]);
  }
  job += "]}";
  write_file(dir.file("job.json"), job);
  std::string output;
  int rc = run_command("python3 " + kSource +
                           "/tests/stages/decontaminate/decontaminate_oracle.py < " +
                           dir.file("job.json"),
                       &output);
  EXPECT_EQ(rc, 0) << output;
  std::vector<Expected> out;
  simdjson::dom::parser parser;
  for (const std::string& line : split_lines(output)) {
    if (line.empty()) continue;
    simdjson::dom::element e = parser.parse(line);
    Expected x;
    for (std::string_view p : e["pieces"].get_array()) x.pieces.emplace_back(p);
    for (std::string_view t : e["tasks"].get_array()) x.tasks.emplace_back(t);
    out.push_back(std::move(x));
  }
  return out;
}

TEST(Decontaminate, SplitAgreesWithBruteForceReference) {
  TempDir dir;
  struct Setting {
    size_t ngram_size, min_ngram_size;
    SplitRules rules;
  };
  size_t matches = 0;
  for (const Setting& s : {Setting{13, 8, {30, 40}}, Setting{13, 8, {200, 200}},
                           Setting{5, 3, {0, 0}}, Setting{13, 13, {7, 90}}}) {
    SCOPED_TRACE(fmt::format("ngram_size {} margin {} min length {}", s.ngram_size,
                             s.rules.remove_char_each_side, s.rules.min_document_length));
    Corpus corpus = make_corpus(dir, 7 + static_cast<uint32_t>(s.ngram_size));
    const std::vector<std::string> fields = {"question", "choices"};
    std::vector<Expected> expected =
        oracle(dir, corpus, fields, s.ngram_size, s.min_ngram_size, s.rules);
    ASSERT_EQ(expected.size(), corpus.docs.size());
    TaskNgramBuilder builder({fields, s.ngram_size, s.min_ngram_size});
    for (const auto& file : corpus.task_files) ASSERT_TRUE(builder.add_file(file).is_ok());
    auto tasks = builder.build();
    EXPECT_EQ(tasks->task_names, (std::vector<std::string>{"squad", "mmlu", "short"}));
    ContaminationSplitter splitter(*tasks);
    std::vector<std::string_view> pieces;
    std::vector<TaskMatch> found;
    for (size_t d = 0; d < corpus.docs.size(); ++d) {
      SCOPED_TRACE("document " + std::to_string(d));
      splitter.split(corpus.docs[d], s.rules, pieces, found);
      std::vector<std::string> got(pieces.begin(), pieces.end());
      std::vector<std::string> got_tasks;
      for (const TaskMatch& m : found) got_tasks.push_back(tasks->task_names[m.task]);
      EXPECT_EQ(got, expected[d].pieces);
      EXPECT_EQ(got_tasks, expected[d].tasks);
      matches += found.size();
    }
  }
  // The corpus exercises what it is meant to: many matches across the settings.
  EXPECT_GT(matches, 100u);
}

// A cut that falls inside a token: "end.Seven" is one word of the whole text, but the text after
// the cut starts at "Seven", whose n-gram is then found (as NeMo's re-tokenised remainder would).
TEST(Decontaminate, SearchesTheTextAfterACutWithItsOwnFirstWord) {
  TaskNgramBuilder builder({{"text"}, 13, 8});
  uint16_t task = builder.add_task("t").value();
  builder.add_text(task, "one two three four five six seven eight");
  builder.add_text(task, "seven eight nine ten eleven twelve thirteen fourteen");
  auto tasks = builder.build();
  ContaminationSplitter splitter(*tasks);
  const std::string text =
      "Intro words here. One two three four five six seven eight, filler filler "
      "end.Seven eight nine ten eleven twelve thirteen fourteen and the rest of it.";
  std::vector<std::string_view> pieces;
  std::vector<TaskMatch> matches;
  splitter.split(text, {1, 5}, pieces, matches);
  ASSERT_EQ(matches.size(), 2u);
  EXPECT_EQ(text.substr(matches[1].begin, 5), "Seven");
  splitter.reset(text);
  // In the whole text the second passage's first word is "endseven": only its cut finds it.
  EXPECT_FALSE(splitter.first_match(matches[0].end).has_value());
  EXPECT_THAT(pieces, ::testing::ElementsAre("Intro words here."));
}

class DecontaminateStageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir_.file("squad.jsonl"),
               json_line({{"question", "what is the boiling point of water at sea level in "
                                       "degrees celsius on earth"}}) +
                   json_line({{"question", "which river flows through the city of paris in "
                                           "northern france"}}));
  }
  std::unique_ptr<Stage> make(std::map<std::string, StageParams::Value> values,
                              StageContext& context) {
    values["tasks"] = std::vector<std::string>{dir_.file("squad.jsonl")};
    values["fields"] = std::vector<std::string>{"question"};
    auto stage = build_stage(decontaminate_spec(), values, context);
    EXPECT_TRUE(stage.is_ok()) << stage.status().message();
    return stage.is_ok() ? std::move(stage.value()) : nullptr;
  }
  TempDir dir_;
};

const std::string kClean =
    "A clean document about cooking pasta. Boil it for ten minutes. Then drain it well.";
const std::string kOnce =
    "Cooking notes come first. They go on for a while here. What is the Boiling point of "
    "water, at sea level in degrees Celsius on Earth? Then more text follows it. And then "
    "the last sentence closes it.";
const std::string kShort = "Which river flows through the city of Paris in northern France?";

TEST_F(DecontaminateStageTest, SplitsDropsAndCounts) {
  ReasonTable reasons;
  StageContext context(reasons, "dc", 0, 1);
  auto stage = make({{"remove_char_each_side", int64_t{5}}, {"min_document_length", int64_t{10}},
                     {"max_splits", int64_t{2}}},
                    context);
  // Four matches, each with a sentence before it that survives: five pieces.
  std::string many;
  for (int i = 0; i < 4; ++i) {
    many += "Filler sentence number " + std::to_string(i) + " is here. Pad it. " + kShort +
            " Pad it. ";
  }
  many += "The end of it all, which is long enough.";
  auto batch = make_text_batch({kClean, kOnce, kShort, many});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  // kClean stays; kOnce becomes its two pieces; kShort has nothing left; `many` has 5 pieces.
  ASSERT_EQ(batch->size(), 6u);
  EXPECT_EQ(reason_of(*batch, reasons, 0), "kept");
  EXPECT_EQ(batch->text(0), kClean);
  EXPECT_FALSE(batch->text_changed(0));
  EXPECT_EQ(reason_of(*batch, reasons, 1), "dc/split");
  // The margin (5) runs back past "here." and on past "Earth?".
  EXPECT_EQ(batch->text(2), "Cooking notes come first.");
  EXPECT_EQ(batch->id(2), "orig-1-0");
  EXPECT_EQ(batch->text(3), " Then more text follows it. And then the last sentence closes it.");
  EXPECT_EQ(batch->id(3), "orig-1-1");
  EXPECT_EQ(reason_of(*batch, reasons, 4), "dc/contaminated");
  EXPECT_EQ(reason_of(*batch, reasons, 5), "dc/too_many_splits");
  EXPECT_EQ(batch->drop_score(5), 5.0);
  EXPECT_EQ(batch->stage_counts,
            (std::map<std::string, uint64_t>{{"dc/documents_matched", 3}, {"dc/matches/squad", 6}}));
}

TEST_F(DecontaminateStageTest, DropActionDropsEveryMatchedDocument) {
  ReasonTable reasons;
  StageContext context(reasons, "dc", 0, 1);
  auto stage = make({{"action", std::string("drop")}}, context);
  auto batch = make_text_batch({kClean, kOnce, kShort});
  ASSERT_TRUE(stage->process(*batch).is_ok());
  EXPECT_EQ(reasons_of(*batch, reasons),
            (std::vector<std::string>{"kept", "dc/contaminated", "dc/contaminated"}));
  EXPECT_EQ(batch->stage_counts,
            (std::map<std::string, uint64_t>{{"dc/documents_matched", 2}, {"dc/matches/squad", 2}}));
}

TEST_F(DecontaminateStageTest, ReadsParquetTaskFiles) {
  DuckDbSql sql;
  const std::string path = dir_.file("arc.parquet");
  sql.exec("COPY (SELECT 'a question of no interest to anyone at all here' AS question, "
           "['the quick brown fox jumps over the lazy dog twice', 'no'] AS choices) TO '" +
           path + "' (FORMAT parquet)");
  TaskNgramBuilder builder({{"question", "choices"}, 13, 8});
  ASSERT_TRUE(builder.add_file(dir_.file("squad.jsonl")).is_ok());
  Status added = builder.add_file(path);
  ASSERT_TRUE(added.is_ok()) << added.message();
  auto tasks = builder.build();
  EXPECT_EQ(tasks->texts, 5u);
  ContaminationSplitter splitter(*tasks);
  splitter.reset("He saw the Quick brown fox jump? No: the quick brown fox jumps over the lazy "
                 "dog, twice.");
  auto match = splitter.first_match(0);
  ASSERT_TRUE(match.has_value());
  EXPECT_EQ(tasks->task_names[match->task], "arc");
  EXPECT_EQ(match->begin, 37u);
}

TEST_F(DecontaminateStageTest, ParameterErrorsNameTheKey) {
  ReasonTable reasons;
  StageContext context(reasons, "dc", 0, 1);
  auto missing = build_stage(decontaminate_spec(),
                             {{"tasks", std::vector<std::string>{dir_.file("nope.jsonl")}}},
                             context);
  ASSERT_FALSE(missing.is_ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("'tasks'"));
  EXPECT_THAT(missing.status().message(), HasSubstr("nope.jsonl"));
  // The default field, `text`, is in none of squad.jsonl's records.
  auto fields = build_stage(decontaminate_spec(),
                            {{"tasks", std::vector<std::string>{dir_.file("squad.jsonl")}}},
                            context);
  ASSERT_FALSE(fields.is_ok());
  EXPECT_THAT(fields.status().message(), HasSubstr("no record has a string"));
  auto sizes = build_stage(decontaminate_spec(),
                           {{"tasks", std::vector<std::string>{dir_.file("squad.jsonl")}},
                            {"min_ngram_size", int64_t{14}}},
                           context);
  ASSERT_FALSE(sizes.is_ok());
  EXPECT_THAT(sizes.status().message(), HasSubstr("min_ngram_size"));
  auto action = build_stage(decontaminate_spec(),
                            {{"tasks", std::vector<std::string>{dir_.file("squad.jsonl")}},
                             {"action", std::string("mask")}},
                            context);
  ASSERT_FALSE(action.is_ok());
  EXPECT_THAT(action.status().message(), HasSubstr("split or drop"));
}

// Through the binary: the pieces written with their ids, the dropped document under rejected/,
// and the matches per task in the step's counts in stats.json.
TEST_F(DecontaminateStageTest, EndToEndThroughWinnow) {
  std::filesystem::create_directories(dir_.file("in"));
  write_file(dir_.file("in/docs.jsonl"),
             json_line({{"id", "a"}, {"text", kClean}}) + json_line({{"id", "b"}, {"text", kOnce}}) +
                 json_line({{"id", "c"}, {"text", kShort}}));
  std::string pipeline = pipeline_file(dir_, fmt::format(R"(
stages:
  - {{stage: decontaminate, name: dc, tasks: ['{}'], fields: [question],
     remove_char_each_side: 5, min_document_length: 10}}
)",
                                                         dir_.file("squad.jsonl")));
  std::string output;
  ASSERT_EQ(winnow("run " + pipeline + " --input " + dir_.file("in") + " --output " +
                       dir_.file("out") + " --output-format jsonl --threads 2",
                   &output),
            0)
      << output;
  std::string kept = read_file(dir_.file("out/docs.jsonl"));
  EXPECT_THAT(kept, HasSubstr("\"id\":\"b-0\""));
  EXPECT_THAT(kept, HasSubstr("\"text\":\"Cooking notes come first.\""));
  EXPECT_THAT(kept, Not(HasSubstr("oiling point")));
  std::string rejected = read_decompressed(dir_.file("out/rejected/docs.jsonl"));
  EXPECT_THAT(rejected, HasSubstr("\"stage\":\"dc\",\"reason\":\"contaminated\""));
  simdjson::dom::parser parser;
  simdjson::dom::element stats = parser.load(dir_.file("out/stats.json"));
  EXPECT_EQ(step_counts(dir_.file("out/stats.json"), "dc"),
            (std::map<std::string, uint64_t>{{"documents_matched", 2}, {"matches/squad", 2}}));
  EXPECT_TRUE(bool(stats["reconciles"]));
}

// max_matches: a first pass counts each task n-gram's matches over the corpus; one found more
// often than that is left in place. kShort's question is in three documents, kOnce's in one.
TEST_F(DecontaminateStageTest, MaxMatchesLeavesTaskNgramsTooCommonInTheCorpus) {
  std::filesystem::create_directories(dir_.file("in"));
  std::string docs;
  for (const char* id : {"s1", "s2", "s3"}) {
    docs += json_line({{"id", id}, {"text", "Some words first. " + kShort}});
  }
  docs += json_line({{"id", "b"}, {"text", kOnce}});
  write_file(dir_.file("in/docs.jsonl"), docs);
  auto run = [&](int max_matches) {
    std::string pipeline = pipeline_file(dir_, fmt::format(R"(
stages:
  - {{stage: decontaminate, name: dc, tasks: ['{}'], fields: [question],
     remove_char_each_side: 5, min_document_length: 10, max_matches: {}}}
)",
                                                           dir_.file("squad.jsonl"), max_matches));
    std::string output;
    EXPECT_EQ(winnow("run " + pipeline + " --input " + dir_.file("in") + " --output " +
                         dir_.file("out") + " --output-format jsonl --threads 2 --overwrite",
                     &output),
              0)
        << output;
    simdjson::dom::parser parser;
    simdjson::dom::element stats = parser.load(dir_.file("out/stats.json"));
    EXPECT_TRUE(bool(stats["reconciles"]));
    uint64_t contaminated = 0;  // absent when none
    auto dropped = stats["totals"]["dropped_by_reason"]["dc/contaminated"].get_uint64();
    if (!dropped.error()) contaminated = dropped.value();
    return std::pair{read_file(dir_.file("out/docs.jsonl")), contaminated};
  };
  // Three matches of kShort's n-gram: more than 2, so it stays; kOnce's is cut out.
  auto [kept, contaminated] = run(2);
  EXPECT_THAT(kept, HasSubstr("\"id\":\"s3\""));
  EXPECT_THAT(kept, HasSubstr("\"id\":\"b-0\""));
  EXPECT_EQ(contaminated, 0u);
  // Not more than 3: every match is removed (the short documents have nothing left).
  auto [kept3, contaminated3] = run(3);
  EXPECT_THAT(kept3, Not(HasSubstr("\"id\":\"s3\"")));
  EXPECT_EQ(contaminated3, 3u);
}

}  // namespace
}  // namespace winnow::testing
