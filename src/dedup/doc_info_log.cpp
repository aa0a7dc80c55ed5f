#include "dedup/doc_info_log.h"

#include <cstring>

namespace winnow {

DocInfoLog::DocInfoLog(std::string path, size_t memory_bytes)
    : log_(std::move(path), memory_bytes) {}

void DocInfoLog::serialize(std::string& out, uint64_t doc, double metric, std::string_view id) {
  const uint32_t id_bytes = static_cast<uint32_t>(id.size());
  char head[20];
  std::memcpy(head, &doc, 8);
  std::memcpy(head + 8, &metric, 8);
  std::memcpy(head + 16, &id_bytes, 4);
  out.append(head, sizeof head);
  out.append(id);
}

Status DocInfoLog::add(std::string_view serialized) { return log_.add(serialized); }

bool DocInfoLog::visit_serialized(std::string_view block, const Visit& visit) {
  size_t at = 0;
  while (at < block.size()) {
    if (block.size() - at < 20) return false;
    uint64_t doc;
    double metric;
    uint32_t id_bytes;
    std::memcpy(&doc, block.data() + at, 8);
    std::memcpy(&metric, block.data() + at + 8, 8);
    std::memcpy(&id_bytes, block.data() + at + 16, 4);
    at += 20;
    if (block.size() - at < id_bytes) return false;
    visit(doc, metric, block.substr(at, id_bytes));
    at += id_bytes;
  }
  return true;
}

Status DocInfoLog::for_each(const Visit& visit) {
  return log_.for_each_block([&](std::string_view block) {
    return visit_serialized(block, visit) ? Status::ok()
                                          : Status::errorf("spill file {} is corrupt", log_.path());
  });
}

}  // namespace winnow
