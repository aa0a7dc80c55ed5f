#pragma once
// Typed all-to-all exchanges on a Comm (dist/comm.h): fixed-size records sent to the ranks that
// own them, and variable-size byte messages. What arrives is in rank order, each rank's records
// in the order it sent them; callers that need an order independent of the rank count sort.
// Collective: every rank calls, in the same order.
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "dist/comm.h"

namespace winnow::dist {

// by_rank[d]: the records for rank d (by_rank.size() == comm.size(); emptied). Returns every
// record sent to this rank, in rank order; false in `whole` when a message arrived cut short.
template <typename Record>
std::vector<Record> exchange_records(Comm& comm, std::vector<std::vector<Record>>& by_rank,
                                     bool* whole = nullptr) {
  // Plain bytes (std::pair of integers included, whose assignment alone is not trivial).
  static_assert(std::is_trivially_copy_constructible_v<Record> &&
                std::is_trivially_destructible_v<Record>);
  std::vector<std::string> outgoing(by_rank.size());
  for (size_t d = 0; d < by_rank.size(); ++d) {
    outgoing[d].assign(reinterpret_cast<const char*>(by_rank[d].data()),
                       by_rank[d].size() * sizeof(Record));
    std::vector<Record>().swap(by_rank[d]);
  }
  std::vector<std::string> incoming = comm.all_to_all(std::move(outgoing));
  size_t total = 0;
  for (const std::string& message : incoming) total += message.size() / sizeof(Record);
  std::vector<Record> records(total);
  size_t at = 0;
  for (std::string& message : incoming) {
    if (message.size() % sizeof(Record) != 0 && whole) *whole = false;
    const size_t n = message.size() / sizeof(Record);
    if (n > 0) std::memcpy(static_cast<void*>(records.data() + at), message.data(), n * sizeof(Record));
    at += n;
    std::string().swap(message);
  }
  return records;
}

}  // namespace winnow::dist
