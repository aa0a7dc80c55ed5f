#pragma once
// Helpers for stage tests: batches built by hand, stages built from their StageSpec.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/doc_batch.h"
#include "core/reason_table.h"
#include "core/stage.h"

namespace winnow::testing {

struct TestDoc {
  std::string text;
  std::string record = "{}";  // the raw JSON record
};

// A batch whose records live in one padded raw buffer, as the reader leaves them, so stages
// that parse records in place (select) can read them. Row i gets DocKey (shard, first_row + i).
inline std::unique_ptr<DocBatch> make_batch(const std::vector<TestDoc>& docs, uint32_t shard = 0,
                                            uint64_t first_row = 0) {
  std::string joined;
  std::vector<std::pair<size_t, size_t>> spans;
  for (const auto& doc : docs) {
    spans.emplace_back(joined.size(), doc.record.size());
    joined += doc.record;
    joined += '\n';
  }
  auto buffer = std::make_unique<char[]>(joined.size() + kRecordPadding);
  std::memcpy(buffer.get(), joined.data(), joined.size());
  std::memset(buffer.get() + joined.size(), 0, kRecordPadding);
  const char* base = buffer.get();

  auto batch = std::make_unique<DocBatch>();
  batch->shard = shard;
  batch->set_raw_buffer(std::move(buffer), joined.size());
  for (size_t i = 0; i < docs.size(); ++i) {
    std::string_view record(base + spans[i].first, spans[i].second);
    std::string id = "orig-" + std::to_string(first_row + i);
    batch->add_document(DocKey::make(shard, first_row + i), id, false, docs[i].text, record,
                        first_row + i + 1);
  }
  return batch;
}

// A batch of records only (texts are empty).
inline std::unique_ptr<DocBatch> make_record_batch(const std::vector<std::string>& records) {
  std::vector<TestDoc> docs;
  for (const auto& r : records) docs.push_back({"", r});
  return make_batch(docs);
}

// A batch of texts only (records are "{}").
inline std::unique_ptr<DocBatch> make_text_batch(const std::vector<std::string>& texts) {
  std::vector<TestDoc> docs;
  for (const auto& t : texts) docs.push_back({t});
  return make_batch(docs);
}

// Builds a stage from its spec and typed parameter values, as a pipeline would.
inline Result<std::unique_ptr<Stage>> build_stage(
    const StageSpec& spec, const std::map<std::string, StageParams::Value>& values,
    StageContext& context) {
  auto params = StageParams::from_values(values, spec.params, context.stage_name());
  if (!params.is_ok()) return params.status();
  return spec.make(params.value(), context);
}

// The qualified reason of document i ("stage/reason"), or "kept".
inline std::string reason_of(const DocBatch& batch, const ReasonTable& reasons, size_t i) {
  if (batch.kept(i)) return "kept";
  return reasons.at(batch.drop_reason(i)).qualified();
}

inline std::vector<std::string> reasons_of(const DocBatch& batch, const ReasonTable& reasons) {
  std::vector<std::string> out;
  for (size_t i = 0; i < batch.size(); ++i) out.push_back(reason_of(batch, reasons, i));
  return out;
}

}  // namespace winnow::testing
