#include "dedup/duplicates_table.h"

#include <simdjson.h>
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/doc_key.h"
#include "core/json_text.h"
#include "io/atomic_file.h"

namespace winnow {

namespace {

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

template <typename T>
bool get(std::string_view data, size_t& at, T& value) {
  if (data.size() - at < sizeof value) return false;
  std::memcpy(&value, data.data() + at, sizeof value);
  at += sizeof value;
  return true;
}

}  // namespace

const uint64_t* RemovalSet::find(uint64_t doc) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), doc,
                             [](const auto& e, uint64_t d) { return e.first < d; });
  if (it == entries_.end() || it->first != doc) return nullptr;
  return &it->second;
}

void DuplicatesTable::sort() {
  std::sort(entries.begin(), entries.end(), [](const DuplicateEntry& x, const DuplicateEntry& y) {
    return x.component != y.component ? x.component < y.component : x.doc < y.doc;
  });
}

RemovalSet DuplicatesTable::removal_set() const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const auto& e : entries) {
    if (!e.survivor) out.emplace_back(e.doc, e.component);
  }
  std::sort(out.begin(), out.end());
  return RemovalSet(std::move(out));
}

std::map<uint64_t, uint64_t> DuplicatesTable::component_sizes() const {
  std::map<uint64_t, uint64_t> sizes;
  for (size_t i = 0; i < entries.size();) {
    size_t j = i;
    while (j < entries.size() && entries[j].component == entries[i].component) ++j;
    ++sizes[j - i];
    i = j;
  }
  return sizes;
}

uint64_t DuplicatesTable::components() const {
  uint64_t n = 0;
  for (const auto& [size, count] : component_sizes()) n += count;
  return n;
}

uint64_t DuplicatesTable::removed() const {
  return static_cast<uint64_t>(std::count_if(entries.begin(), entries.end(),
                                             [](const DuplicateEntry& e) { return !e.survivor; }));
}

void append_table_entry(std::string& out, const DuplicateEntry& e, uint64_t component_size,
                        TableFormat format) {
  if (format == TableFormat::kBinary) {
    put<uint64_t>(out, e.doc);
    put<uint64_t>(out, e.component);
    put<uint8_t>(out, e.survivor ? 1 : 0);
    put<uint32_t>(out, static_cast<uint32_t>(e.id.size()));
    out += e.id;
    return;
  }
  DocKey key(e.doc);
  // An item a fan-out made (a chunk) has a derived key: no shard and row of its own.
  if (key.derived()) {
    out += fmt::format("{{\"doc_key\":{},\"derived\":true,\"id\":", e.doc);
  } else {
    out += fmt::format("{{\"doc_key\":{},\"shard\":{},\"row\":{},\"id\":", e.doc, key.shard(),
                       key.row());
  }
  append_json_string(out, e.id);
  out += fmt::format(",\"component\":{},\"component_size\":{},\"survivor\":{}}}\n", e.component,
                     component_size, e.survivor ? "true" : "false");
}

Status DuplicatesTable::write(const std::string& path, TableFormat format) const {
  auto file = AtomicFile::create(path);
  if (!file.is_ok()) return file.status();
  std::map<uint64_t, uint64_t> sizes;
  for (const auto& e : entries) ++sizes[e.component];
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  std::string out;
  auto flush = [&]() -> Status {
    if (format == TableFormat::kBinary) XXH3_64bits_update(state, out.data(), out.size());
    Status s = file->write(out);
    out.clear();
    return s;
  };
  if (format == TableFormat::kBinary) {
    out += kBinaryTableMagic;
    put<uint64_t>(out, entries.size());
  }
  Status status;
  for (const auto& e : entries) {
    append_table_entry(out, e, sizes[e.component], format);
    if (out.size() > (1 << 20)) {
      status = flush();
      if (!status.is_ok()) break;
    }
  }
  if (status.is_ok()) status = flush();
  const uint64_t checksum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  WINNOW_RETURN_IF_ERROR(status);
  if (format == TableFormat::kBinary) {
    put<uint64_t>(out, checksum);
    WINNOW_RETURN_IF_ERROR(file->write(out));
  }
  return file->commit();
}

Result<DuplicatesTable> DuplicatesTable::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::errorf("cannot read duplicates table {}", path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string data = std::move(buffer).str();
  DuplicatesTable table;
  auto corrupt = [&](const std::string& why) {
    return Status::errorf("duplicates table {} is corrupt: {}", path, why);
  };
  if (data.compare(0, kBinaryTableMagic.size(), kBinaryTableMagic) == 0) {
    if (data.size() < kBinaryTableMagic.size() + 16) return corrupt("too short");
    uint64_t stored;
    std::memcpy(&stored, data.data() + data.size() - 8, 8);
    std::string_view body(data.data(), data.size() - 8);
    if (XXH3_64bits(body.data(), body.size()) != stored) return corrupt("checksum mismatch");
    size_t at = kBinaryTableMagic.size();
    uint64_t count;
    get(body, at, count);
    for (uint64_t i = 0; i < count; ++i) {
      DuplicateEntry e;
      uint8_t survivor;
      uint32_t id_bytes;
      if (!get(body, at, e.doc) || !get(body, at, e.component) || !get(body, at, survivor) ||
          !get(body, at, id_bytes) || body.size() - at < id_bytes) {
        return corrupt("truncated entry");
      }
      e.survivor = survivor != 0;
      e.id.assign(body.data() + at, id_bytes);
      at += id_bytes;
      table.entries.push_back(std::move(e));
    }
    if (at != body.size()) return corrupt("trailing bytes");
    return table;
  }
  simdjson::ondemand::parser parser;
  size_t line_number = 0;
  size_t start = 0;
  while (start < data.size()) {
    size_t end = data.find('\n', start);
    if (end == std::string::npos) return corrupt("last line is not terminated (truncated?)");
    ++line_number;
    simdjson::padded_string line(std::string_view(data).substr(start, end - start));
    start = end + 1;
    DuplicateEntry e;
    auto doc = parser.iterate(line);
    std::string_view id;
    bool survivor = false;
    if (doc["doc_key"].get_uint64().get(e.doc) || doc["id"].get_string().get(id) ||
        doc["component"].get_uint64().get(e.component) ||
        doc["survivor"].get_bool().get(survivor)) {
      return corrupt(fmt::format("line {} is not a duplicates entry", line_number));
    }
    e.id = std::string(id);
    e.survivor = survivor;
    table.entries.push_back(std::move(e));
  }
  return table;
}

}  // namespace winnow
