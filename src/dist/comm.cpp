#include "dist/comm.h"

#include <algorithm>
#include <cstring>

namespace winnow::dist {

Comm& local_comm() {
  static LocalComm comm;
  return comm;
}

Status agree(Comm& comm, const Status& mine) {
  if (comm.size() == 1) return mine;
  // One byte of verdict, then the message.
  std::string own(1, mine.is_ok() ? '\0' : '\1');
  if (!mine.is_ok()) own += mine.message();
  std::vector<std::string> all = comm.all_gather(own);
  // Every rank failing with the same message: a failure agreed on before, passed on as it is.
  if (std::all_of(all.begin(), all.end(), [&](const std::string& s) { return s == all[0]; }) &&
      all[0][0] == '\1') {
    return mine;
  }
  for (size_t r = 0; r < all.size(); ++r) {
    if (!all[r].empty() && all[r][0] == '\1') {
      return Status::errorf("rank {}: {}", r, std::string_view(all[r]).substr(1));
    }
  }
  return Status::ok();
}

std::vector<uint64_t> sum_over_ranks(Comm& comm, const std::vector<uint64_t>& values) {
  if (comm.size() == 1) return values;
  std::string own(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(uint64_t));
  std::vector<uint64_t> sums(values.size(), 0);
  for (const std::string& part : comm.all_gather(own)) {
    for (size_t i = 0; i < sums.size() && (i + 1) * sizeof(uint64_t) <= part.size(); ++i) {
      uint64_t value;
      std::memcpy(&value, part.data() + i * sizeof(uint64_t), sizeof(value));
      sums[i] += value;
    }
  }
  return sums;
}

std::string from_rank0(Comm& comm, std::string_view value) {
  if (comm.size() == 1) return std::string(value);
  // Only rank 0's bytes travel; the others send nothing.
  std::vector<std::string> all = comm.all_gather(comm.rank() == 0 ? value : std::string_view());
  return std::move(all.at(0));
}

}  // namespace winnow::dist
