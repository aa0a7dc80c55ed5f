#pragma once
// DropExamples: a few dropped items per reason and a few error records per kind, for the report
// (report.html shows why items went, with a link to the file that holds each). The examples
// kept are those with the smallest keys (errors: the first of the smallest shards), so the same
// run shows the same examples whatever the threads.
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/doc_batch.h"
#include "core/reason_table.h"

namespace winnow {

struct DropExample {
  uint64_t key = 0;        // DocKey value (errors: shard and line)
  std::string id;          // the item's id (errors: the file and line)
  std::string excerpt;     // the start of its text (errors: the message and excerpt)
  uint32_t shard = 0;      // the shard whose rejected/ or errors/ file holds it
  double score = 0;        // the drop's score when it has one (NaN otherwise)
};

class DropExamples {
 public:
  static constexpr size_t kPerReason = 3;
  static constexpr size_t kExcerptBytes = 240;

  // Thread-safe; `batch` as the writer gets it (rows in their final state).
  void offer(const DocBatch& batch, const ReasonTable& reasons);

  // "stage/reason" -> examples, smallest keys first; error kind -> examples.
  std::map<std::string, std::vector<DropExample>> dropped() const;
  std::map<std::string, std::vector<DropExample>> errors() const;

 private:
  static void keep(std::vector<DropExample>& examples, DropExample example);
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<DropExample>> dropped_;
  std::map<std::string, std::vector<DropExample>> errors_;
};

}  // namespace winnow
