#pragma once
// DocInfoLog: per-document facts a global step needs only for the few documents that turn out
// to be duplicates (the id for the duplicates table, the survivor metric). Appended by many
// threads, buffered up to a budget and spilled to one checksummed file; read back once, in
// arbitrary order, after the components are known.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "dedup/spill_file.h"

namespace winnow {

class DocInfoLog {
 public:
  using Visit = std::function<void(uint64_t doc, double metric, std::string_view id)>;

  DocInfoLog(std::string path, size_t memory_bytes);

  // Appends one entry to `out`; pass the result of many to add().
  static void serialize(std::string& out, uint64_t doc, double metric, std::string_view id);
  Status add(std::string_view serialized);  // thread-safe
  // Every entry ever added, once. Call after the last add().
  Status for_each(const Visit& visit);
  // Visits the entries of `serialized` (serialize()'s output); false when it is cut short.
  static bool visit_serialized(std::string_view serialized, const Visit& visit);

  // The entries as blocks of serialize()'s output (what add() was given, regrouped).
  Status for_each_block(const std::function<Status(std::string_view block)>& visit) {
    return log_.for_each_block(visit);
  }

  uint64_t spilled_bytes() const { return log_.spilled_bytes(); }

 private:
  SpillLog log_;
};

}  // namespace winnow
