#pragma once
// The reader threads of a pass: a quarter of the thread budget, at least one and at most one per
// shard (reading is cheap next to parsing and the stages). Each runs `read_shards`, which takes
// shards from a shared counter until none is left; an exception fails the run through `fail`.
#include <algorithm>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

#include "core/status.h"

namespace winnow {

inline void run_reader_threads(int threads, size_t shards, const std::function<void()>& read_shards,
                               const std::function<void(const Status&)>& fail) {
  const int readers =
      std::clamp<int>(threads / 4, 1, static_cast<int>(std::max<size_t>(1, shards)));
  std::vector<std::thread> reader_threads;
  for (int i = 0; i < readers; ++i) {
    reader_threads.emplace_back([&] {
      try {
        read_shards();
      } catch (const std::exception& e) {
        fail(Status::errorf("reading input failed: {}", e.what()));
      }
    });
  }
  for (auto& t : reader_threads) t.join();
}

}  // namespace winnow
