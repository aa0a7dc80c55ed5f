#pragma once
// DuplicatesTable: the result of a dedup identify pass. One entry per document that belongs to
// a group of duplicates (component of size >= 2): its DocKey, id, component id (the smallest
// DocKey of the component) and whether it is the component's survivor. Entries are sorted by
// (component, DocKey), so the table is byte-identical whatever the threads or batch sizes.
//
// Two on-disk forms, written atomically (temporary name, fsync, rename):
//   jsonl:  {"doc_key":N,"shard":S,"row":R,"id":"...","component":C,"component_size":K,
//            "survivor":true}
//   binary: "WNDUPS1\n", entry count (u64), then per entry doc (u64), component (u64),
//           survivor (u8), id length (u32) and bytes; an XXH3-64 of everything before it at
//           the end. Read back with verification.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace winnow {

struct DuplicateEntry {
  uint64_t doc = 0;
  uint64_t component = 0;
  bool survivor = false;
  std::string id;
};

// The non-survivors, for the remove pass: sorted DocKeys with their component ids.
class RemovalSet {
 public:
  RemovalSet() = default;
  explicit RemovalSet(std::vector<std::pair<uint64_t, uint64_t>> sorted)
      : entries_(std::move(sorted)) {}
  // The component of `doc` when it must be removed.
  const uint64_t* find(uint64_t doc) const;
  size_t size() const { return entries_.size(); }

 private:
  std::vector<std::pair<uint64_t, uint64_t>> entries_;
};

enum class TableFormat { kJsonl, kBinary };

// How the table files are framed: a JSONL table is its entries' lines; a binary one is
// kBinaryTableMagic, the entry count (u64), the entries, then an XXH3-64 of everything before.
inline constexpr std::string_view kBinaryTableMagic = "WNDUPS1\n";
// One entry as written in `format` (a JSONL line with the group's size; or its binary form).
void append_table_entry(std::string& out, const DuplicateEntry& e, uint64_t component_size,
                        TableFormat format);

class DuplicatesTable {
 public:
  std::vector<DuplicateEntry> entries;  // sorted by (component, doc)

  void sort();
  RemovalSet removal_set() const;
  // component size -> number of components of that size
  std::map<uint64_t, uint64_t> component_sizes() const;
  uint64_t components() const;
  uint64_t removed() const;

  Status write(const std::string& path, TableFormat format) const;
  static Result<DuplicatesTable> read(const std::string& path);  // either form
};

}  // namespace winnow
