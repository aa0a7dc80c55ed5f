#include "dedup/pair_chooser.h"

#include <algorithm>
#include <tuple>

#include "core/hash.h"
#include "dedup/byte_codec.h"

namespace winnow {

namespace {

bool before(const ChosenPair& a, const ChosenPair& b) {
  return std::tie(a.rank, a.removed) < std::tie(b.rank, b.removed);
}

}  // namespace

void PairChooser::insert(const ChosenPair& pair) {
  if (count_ == 0) return;
  if (chosen_.size() >= count_ && !before(pair, chosen_.back())) return;
  auto at = std::lower_bound(chosen_.begin(), chosen_.end(), pair, before);
  if (at != chosen_.end() && at->removed == pair.removed) return;  // offered twice
  chosen_.insert(at, pair);
  if (chosen_.size() > count_) chosen_.pop_back();
}

void PairChooser::offer(uint64_t removed, uint64_t survivor, float value) {
  insert({hash_u64(removed, seed_), removed, survivor, value});
}

std::string PairChooser::serialize() const {
  std::string out;
  for (const ChosenPair& p : chosen_) {
    BytePacker(out).put(p.rank).put(p.removed).put(p.survivor).put(p.value);
  }
  return out;
}

void PairChooser::merge(std::string_view serialized) {
  ByteUnpacker in(serialized);
  while (!in.done()) {
    ChosenPair p;
    p.rank = in.get<uint64_t>();
    p.removed = in.get<uint64_t>();
    p.survivor = in.get<uint64_t>();
    p.value = in.get<float>();
    if (in.failed()) return;
    insert(p);
  }
}

}  // namespace winnow
