#include "stages/decontaminate/task_ngrams.h"

#include <simdjson.h>

#include <filesystem>

#include "io/input_reader.h"
#include "io/wide_json_numbers.h"

namespace winnow {

std::string task_name_of(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  size_t dot = name.find('.');
  if (dot != 0 && dot != std::string::npos) name.resize(dot);
  return name;
}

Result<uint16_t> TaskNgramBuilder::add_task(std::string name) {
  if (names_.size() >= TaskNgramSet::kMaxTasks) {
    return Status::errorf("more than {} task files", TaskNgramSet::kMaxTasks);
  }
  names_.push_back(std::move(name));
  return static_cast<uint16_t>(names_.size() - 1);
}

void TaskNgramBuilder::add_text(uint16_t task, std::string_view text) {
  ++texts_;
  normalized_words(text, words_);
  const size_t n = words_.size();
  if (n < options_.min_ngram_size || n == 0) return;
  hasher_.reset(words_);
  auto add = [&](size_t start, size_t length) {
    fingerprints_.push_back(ngram_fingerprint(hasher_.hash(start, length), length));
    tasks_.push_back(task);
    if (has_length_.size() <= length) has_length_.resize(length + 1);
    has_length_[length] = true;
  };
  if (n < options_.ngram_size) {
    add(0, n);
    return;
  }
  for (size_t i = 0; i + options_.ngram_size <= n; ++i) add(i, options_.ngram_size);
}

Status TaskNgramBuilder::add_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return Status::errorf("task file '{}' does not exist or is not a file", path);
  }
  auto task = add_task(task_name_of(path));
  if (!task.is_ok()) return task.status();
  InputOptions options;
  // A Parquet file is read as JSON records of the fields asked for; its reader wants one string
  // column as the text.
  options.parquet.text_field = options_.fields.front();
  options.parquet.columns = options_.fields;
  const InputFormat format = InputReader::format_of(path, InputFormat::kAuto);
  if (format == InputFormat::kWarc || format == InputFormat::kWikipedia ||
      format == InputFormat::kArxiv) {
    return Status::errorf("task file '{}': a task file is JSON Lines or Parquet", path);
  }
  const uint64_t texts_before = texts_;
  InputReader reader(path, 0, options);
  simdjson::dom::parser parser;
  while (std::unique_ptr<DocBatch> batch = reader.next()) {
    if (!batch->errors.empty()) {
      return Status::errorf("task file: {}", batch->errors.front().message);
    }
    const std::string_view raw = batch->raw_bytes();
    for (const RawLine& line : batch->raw_lines) {
      std::string_view record = raw.substr(line.offset, line.length);
      simdjson::dom::element root;
      simdjson::dom::object object;
      if (parse_record(parser, record, root) || root.get(object)) {
        return Status::errorf("task file '{}' line {}: not a JSON object", path,
                              line.line_number);
      }
      for (const std::string& field : options_.fields) {
        simdjson::dom::element value;
        if (object[field].get(value)) continue;
        std::string_view text;
        if (!value.get(text)) {
          add_text(task.value(), text);
          continue;
        }
        simdjson::dom::array list;
        if (value.get(list)) continue;
        for (simdjson::dom::element item : list) {
          if (!item.get(text)) add_text(task.value(), text);
        }
      }
    }
  }
  if (std::string failure = reader.failure(); !failure.empty()) {
    return Status::errorf("task file '{}': {}", path, failure);
  }
  // Most likely the wrong field names: a task that protects nothing must not pass unnoticed.
  if (texts_ == texts_before) {
    std::string names;
    for (const std::string& field : options_.fields) names += (names.empty() ? "" : ", ") + field;
    return Status::errorf("task file '{}': no record has a string (or list of strings) in {}",
                          path, names);
  }
  return Status::ok();
}

std::shared_ptr<const TaskNgrams> TaskNgramBuilder::build() {
  auto out = std::make_shared<TaskNgrams>();
  out->set = TaskNgramSet(fingerprints_, tasks_);
  out->task_names = std::move(names_);
  out->texts = texts_;
  for (size_t length = has_length_.size(); length-- > 0;) {
    if (has_length_[length]) out->lengths.push_back(length);
  }
  fingerprints_ = {};
  tasks_ = {};
  return out;
}

}  // namespace winnow
