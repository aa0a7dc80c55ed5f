#pragma once
// PairChooser: which (removed, survivor) pairs of a dedup result the run report shows. Each
// removed item is ranked by a seeded hash of its key and the `count` smallest ranks are kept (a
// bottom-k), so the choice depends only on the result and the seed: the same run gives the same
// pairs for any thread or rank count (each rank offers its own removals, then the ranks' choices
// are merged). One pass over what a step already walks; k small, so it costs a hash a removal.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace winnow {

struct ChosenPair {
  uint64_t rank = 0;  // seeded hash of `removed`
  uint64_t removed = 0;
  uint64_t survivor = 0;
  float value = 0;  // a similarity the step knows already (semantic: cosine); NaN when none
};

class PairChooser {
 public:
  PairChooser(size_t count, uint64_t seed) : count_(count), seed_(seed) {}

  void offer(uint64_t removed, uint64_t survivor, float value = 0);
  // The choice as bytes, and another chooser's (another rank's) merged in.
  std::string serialize() const;
  void merge(std::string_view serialized);
  // Smallest rank first.
  const std::vector<ChosenPair>& chosen() const { return chosen_; }

 private:
  void insert(const ChosenPair& pair);
  size_t count_;
  uint64_t seed_;
  std::vector<ChosenPair> chosen_;  // sorted by (rank, removed)
};

}  // namespace winnow
