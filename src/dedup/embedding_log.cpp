#include "dedup/embedding_log.h"

#include "dedup/byte_codec.h"

namespace winnow {

EmbeddingLog::EmbeddingLog(std::string path, size_t memory_bytes)
    : log_(std::move(path), memory_bytes) {}

void EmbeddingLog::serialize(std::string& out, const LoggedItem& item) {
  BytePacker(out)
      .put(item.key)
      .put(item.shard)
      .put(item.line)
      .put(item.rank_value)
      .put_bytes(item.id)
      .put_bytes(item.excerpt)
      .put_bytes(item.problem)
      .put_bytes(item.floats);
}

Status EmbeddingLog::add(std::string_view serialized) { return log_.add(serialized); }

Status EmbeddingLog::visit_block(std::string_view block,
                                 const std::function<Status(const LoggedItem&)>& visit) const {
  ByteUnpacker in(block);
  while (!in.done()) {
    LoggedItem item;
    item.key = in.get<uint64_t>();
    item.shard = in.get<uint32_t>();
    item.line = in.get<uint64_t>();
    item.rank_value = in.get<double>();
    item.id = in.get_bytes();
    item.excerpt = in.get_bytes();
    item.problem = in.get_bytes();
    item.floats = in.get_bytes();
    if (in.failed()) return Status::errorf("spill file {} is corrupt (a cut record)", log_.path());
    WINNOW_RETURN_IF_ERROR(visit(item));
  }
  return Status::ok();
}

Status EmbeddingLog::for_each(const std::function<Status(const LoggedItem&)>& visit) {
  return log_.for_each_block([&](std::string_view block) { return visit_block(block, visit); });
}

}  // namespace winnow
