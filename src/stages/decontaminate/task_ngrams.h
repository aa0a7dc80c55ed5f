#pragma once
// TaskNgrams: what `decontaminate` protects — the n-grams of the evaluation tasks' texts,
// built once when the pipeline is loaded and shared read-only by every worker.
//
// From each task text, as NeMo Curator's DownstreamTask._update_ngrams makes them: a text of
// fewer than `min_ngram_size` words gives nothing; one of fewer than `ngram_size` words gives
// one n-gram of all its words; a longer one every `ngram_size`-gram. Task files (JSONL or
// Parquet, read by io/input_reader.h) give a text per field in `fields` of each record: a
// string, or each string of a list; other values and missing fields give nothing (a file that
// gives no text at all is an error: its fields are most likely misnamed). Each file is
// one task, named after the file (its base name without extensions), in the order given.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "stages/decontaminate/task_ngram_set.h"

namespace winnow {

struct TaskNgramOptions {
  std::vector<std::string> fields = {"text"};
  size_t ngram_size = 13;
  size_t min_ngram_size = 8;
};

struct TaskNgrams {
  TaskNgramSet set;
  std::vector<std::string> task_names;  // by task index
  std::vector<size_t> lengths;          // the n-gram lengths in the set, longest first
  uint64_t texts = 0;                   // task texts read
};

class TaskNgramBuilder {
 public:
  explicit TaskNgramBuilder(TaskNgramOptions options) : options_(std::move(options)) {}

  // A new task; returns its index (an error past TaskNgramSet::kMaxTasks).
  Result<uint16_t> add_task(std::string name);
  void add_text(uint16_t task, std::string_view text);
  // Reads every text of `path` into a new task named after the file.
  Status add_file(const std::string& path);
  // The set; the builder is spent.
  std::shared_ptr<const TaskNgrams> build();

 private:
  TaskNgramOptions options_;
  std::vector<std::string> names_;
  std::vector<uint64_t> fingerprints_;
  std::vector<uint16_t> tasks_;
  std::vector<bool> has_length_;
  std::vector<NormalizedWord> words_;
  NgramHasher hasher_;
  uint64_t texts_ = 0;
};

// The name a task file gives its task: "data/squad_v2.val.jsonl.gz" → "squad_v2".
std::string task_name_of(const std::string& path);

}  // namespace winnow
