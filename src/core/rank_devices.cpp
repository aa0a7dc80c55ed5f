#include "core/rank_devices.h"

#include <algorithm>
#include <charconv>

namespace winnow {

namespace {

std::optional<int> to_int(const char* text) {
  if (!text || !*text) return std::nullopt;
  int value = 0;
  const char* end = text + std::char_traits<char>::length(text);
  auto [ptr, ec] = std::from_chars(text, end, value);
  if (ec != std::errc() || ptr != end || value < 0) return std::nullopt;
  return value;
}

std::optional<LocalRank> pair(const char* rank, const char* size) {
  auto r = to_int(rank);
  auto s = to_int(size);
  if (!r || !s || *s < 1 || *r >= *s) return std::nullopt;
  return LocalRank{*r, *s};
}

}  // namespace

std::vector<int> slurm_tasks_per_node(const std::string& value) {
  std::vector<int> out;
  size_t at = 0;
  while (at < value.size()) {
    size_t comma = value.find(',', at);
    std::string entry = value.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    at = comma == std::string::npos ? value.size() : comma + 1;
    int repeat = 1;
    if (size_t paren = entry.find("(x"); paren != std::string::npos) {
      if (entry.back() != ')') return {};
      auto r = to_int(entry.substr(paren + 2, entry.size() - paren - 3).c_str());
      if (!r || *r < 1) return {};
      repeat = *r;
      entry.resize(paren);
    }
    auto tasks = to_int(entry.c_str());
    if (!tasks || *tasks < 1) return {};
    out.insert(out.end(), static_cast<size_t>(repeat), *tasks);
  }
  return out;
}

std::optional<LocalRank> local_rank_from(const std::function<const char*(const char*)>& env) {
  if (auto r = pair(env("OMPI_COMM_WORLD_LOCAL_RANK"), env("OMPI_COMM_WORLD_LOCAL_SIZE"))) {
    return r;
  }
  if (auto local = to_int(env("SLURM_LOCALID"))) {
    std::vector<int> per_node = slurm_tasks_per_node(env("SLURM_TASKS_PER_NODE")
                                                         ? env("SLURM_TASKS_PER_NODE")
                                                         : "");
    auto node = to_int(env("SLURM_NODEID"));
    if (node && *node < static_cast<int>(per_node.size()) && *local < per_node[*node]) {
      return LocalRank{*local, per_node[*node]};
    }
  }
  if (auto r = pair(env("MPI_LOCALRANKID"), env("MPI_LOCALNRANKS"))) return r;
  if (auto r = pair(env("PMIX_LOCAL_RANK"), env("PMIX_LOCAL_SIZE"))) return r;
  return std::nullopt;
}

std::vector<std::string> devices_of_rank(const std::vector<std::string>& visible,
                                         LocalRank rank) {
  const int devices = static_cast<int>(visible.size());
  if (devices == 0 || rank.size < 1 || rank.rank < 0 || rank.rank >= rank.size) return {};
  if (devices < rank.size) return {visible[rank.rank % devices]};
  // Contiguous shares: the first `extra` ranks get one device more.
  const int share = devices / rank.size;
  const int extra = devices % rank.size;
  const int begin = rank.rank * share + std::min(rank.rank, extra);
  const int count = share + (rank.rank < extra ? 1 : 0);
  return {visible.begin() + begin, visible.begin() + begin + count};
}

}  // namespace winnow
