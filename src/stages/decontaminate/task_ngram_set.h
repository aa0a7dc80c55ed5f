#pragma once
// TaskNgramSet: the n-grams of the evaluation tasks a corpus must not contain, as 64-bit
// fingerprints in one flat open-addressing table, built once and then only read (shared by
// every worker of the stage, no lock). A fingerprint is a hash of the n-gram's words
// (text/normalized_words.h) and its length, so n-grams of every length live in one table; a
// probe costs one cache line in the common case (8 fingerprints per 64-byte bucket, load at
// most 0.8). Alongside each slot, the index of the first task that has the n-gram.
//
// Fingerprints, not the words, are kept: two different n-grams collide with probability about
// (n-grams in the table) / 2^64 per probe, e.g. 5e-12 with 100 million task n-grams.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "text/normalized_words.h"

namespace winnow {

// The polynomial hash of a run of word hashes, computed from prefix sums so an n-gram of any
// length at any place costs O(1): hash(words[i, i + L)) = P[i + L] - P[i] * B^L (mod 2^64).
class NgramHasher {
 public:
  static constexpr uint64_t kBase = 0x100000001b3ULL * 2 + 1;  // odd

  // The prefix sums of `words` (P[0] = 0).
  void reset(const std::vector<NormalizedWord>& words);
  uint64_t hash(size_t start, size_t length) const {
    return prefix_[start + length] - prefix_[start] * power(length);
  }
  // The hash of a run whose first word hash is `first` and whose other length - 1 words are
  // words[start, start + length - 1).
  uint64_t hash_with_first(uint64_t first, size_t start, size_t length) const {
    return first * power(length - 1) + hash(start, length - 1);
  }
  static uint64_t power(size_t n);

 private:
  std::vector<uint64_t> prefix_;
};

// The table key of an n-gram of `length` words whose polynomial hash is `hash`: never 0.
inline uint64_t ngram_fingerprint(uint64_t hash, size_t length) {
  uint64_t x = hash ^ (static_cast<uint64_t>(length) * 0x9E3779B97F4A7C15ULL);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x == 0 ? 1 : x;
}

class TaskNgramSet {
 public:
  static constexpr uint16_t kNoTask = 0xffff;
  static constexpr size_t kMaxTasks = kNoTask;

  // The table of `fingerprints` (never 0), each with its task (same index). A fingerprint given
  // twice keeps its first task.
  TaskNgramSet(const std::vector<uint64_t>& fingerprints, const std::vector<uint16_t>& tasks);
  TaskNgramSet() = default;

  // The task of `fingerprint`, or kNoTask.
  uint16_t find(uint64_t fingerprint) const {
    if (bucket_count_ == 0) return kNoTask;
    size_t b = bucket_of(fingerprint);
    for (;;) {
      const Bucket& bucket = buckets_[b];
      bool full = true;
      for (size_t s = 0; s < kSlots; ++s) {
        if (bucket.slot[s] == fingerprint) return tasks_[b * kSlots + s];
        full &= bucket.slot[s] != 0;
      }
      if (!full) return kNoTask;
      if (++b == bucket_count_) b = 0;
    }
  }
  // Asks the CPU for the bucket of `fingerprint`, to be probed a little later.
  void prefetch(uint64_t fingerprint) const {
    if (bucket_count_ != 0) __builtin_prefetch(&buckets_[bucket_of(fingerprint)]);
  }

  size_t size() const { return size_; }  // distinct fingerprints
  size_t memory_bytes() const {
    return bucket_count_ * (sizeof(Bucket) + kSlots * sizeof(uint16_t));
  }

 private:
  static constexpr size_t kSlots = 8;
  struct alignas(64) Bucket {
    uint64_t slot[kSlots] = {};
  };
  size_t bucket_of(uint64_t fingerprint) const {
    return static_cast<size_t>((static_cast<unsigned __int128>(fingerprint) * bucket_count_) >> 64);
  }
  struct Free {
    void operator()(Bucket* p) const;
  };

  // On huge pages where the system gives them (madvise): a probe is a random access into a
  // table of up to gigabytes, and with 4 KB pages nearly every one also misses the TLB.
  std::unique_ptr<Bucket[], Free> buckets_;
  size_t bucket_count_ = 0;
  std::vector<uint16_t> tasks_;
  size_t size_ = 0;
};

}  // namespace winnow
