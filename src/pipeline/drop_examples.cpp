#include "pipeline/drop_examples.h"

#include <algorithm>

#include "core/utf8.h"

namespace winnow {

namespace {

// The start of `text`, cut on a code point boundary, invalid bytes replaced.
std::string excerpt_of(std::string_view text) {
  std::string out;
  append_sanitized_utf8(out, utf8_prefix(text, DropExamples::kExcerptBytes));
  if (text.size() > DropExamples::kExcerptBytes) out += "\u2026";
  return out;
}

}  // namespace

void DropExamples::keep(std::vector<DropExample>& examples, DropExample example) {
  if (examples.size() == kPerReason && example.key >= examples.back().key) return;
  auto at = std::lower_bound(examples.begin(), examples.end(), example.key,
                             [](const DropExample& e, uint64_t key) { return e.key < key; });
  examples.insert(at, std::move(example));
  if (examples.size() > kPerReason) examples.pop_back();
}

void DropExamples::offer(const DocBatch& batch, const ReasonTable& reasons) {
  std::lock_guard lock(mutex_);
  for (size_t i = 0; i < batch.size(); ++i) {
    if (batch.kept(i)) continue;
    const DropReason& reason = reasons.at(batch.drop_reason(i));
    if (reason.error()) {  // a stage's error record: its message is the example
      const AnnotationColumn* message = batch.find_annotation(kRowErrorField);
      std::vector<DropExample>& examples = errors_[reason.qualified()];
      uint64_t key = batch.key(i).value();
      if (examples.size() == kPerReason && key >= examples.back().key) continue;
      keep(examples,
           {key, std::string(batch.id(i)),
            excerpt_of(message && message->has(i) ? message->string_at(i) : ""), batch.shard, 0});
      continue;
    }
    if (!reason.dropped()) continue;  // replaced by its children, or merged: not a drop
    std::vector<DropExample>& examples = dropped_[reason.qualified()];
    uint64_t key = batch.key(i).value();
    if (examples.size() == kPerReason && key >= examples.back().key) continue;
    keep(examples, {key, std::string(batch.id(i)), excerpt_of(batch.text(i)), batch.shard,
                    batch.drop_score(i)});
  }
  for (const InputErrorRecord& error : batch.errors) {
    std::vector<DropExample>& examples = errors_[std::string(input_error_name(error.kind))];
    uint64_t key = DocKey::make(batch.shard, error.line).value();
    if (examples.size() == kPerReason && key >= examples.back().key) continue;
    keep(examples, {key, "", excerpt_of(error.message + " | " + error.excerpt), batch.shard, 0});
  }
}

std::map<std::string, std::vector<DropExample>> DropExamples::dropped() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

std::map<std::string, std::vector<DropExample>> DropExamples::errors() const {
  std::lock_guard lock(mutex_);
  return errors_;
}

}  // namespace winnow
