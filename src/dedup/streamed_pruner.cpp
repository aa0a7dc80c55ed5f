#include "dedup/streamed_pruner.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>

#include "dedup/prune_tile.h"

namespace winnow {

size_t streamed_group_blocks(size_t block, size_t d, int threads, size_t memory_bytes) {
  const size_t tile_bytes = block * d * sizeof(float);
  // One streamed row block and each thread's block x block products beside the group.
  const size_t fixed =
      tile_bytes + static_cast<size_t>(std::max(1, threads)) * block * block * sizeof(float);
  if (tile_bytes == 0 || memory_bytes <= fixed + tile_bytes) return 1;
  return (memory_bytes - fixed) / tile_bytes;
}

Result<PruneResult> prune_streamed(const TileFile& file, const PruneOptions& options,
                                   size_t memory_bytes) {
  const size_t n = file.rows, d = file.dims, block = file.tile_rows;
  if (block != std::max<size_t>(options.block, 1)) {
    return Status::errorf("tile file {}: tiles of {} rows, the pruner's blocks are {}", file.path,
                          block, options.block);
  }
  PruneResult out;
  out.max_similarity.assign(n, 0.0f);
  out.matched.resize(n);
  out.removed.assign(n, 0);
  const size_t blocks = file.tiles();
  // keep_one_per_group decides in order: one thread (as prune_cluster).
  const int threads = options.keep_one_per_group ? 1 : std::max(1, options.threads);
  const size_t group = streamed_group_blocks(block, d, threads, memory_bytes);
  TileReader reader;
  WINNOW_RETURN_IF_ERROR(reader.open(file));
  std::vector<std::vector<float>> products(static_cast<size_t>(threads));
  std::vector<float> streamed;
  for (size_t g0 = 0; g0 < blocks; g0 += group) {
    const size_t g1 = std::min(blocks, g0 + group);
    std::vector<std::vector<float>> held(g1 - g0);
    std::vector<std::unique_ptr<PruneTile>> tiles;
    for (size_t c = g0; c < g1; ++c) {
      WINNOW_RETURN_IF_ERROR(reader.read(c, held[c - g0]));
      tiles.push_back(std::make_unique<PruneTile>(c * block, c * block + file.rows_of(c),
                                                  held[c - g0].data(), d, options, out));
    }
    // Row block r against every held column block c >= r, in ascending r: each column block
    // sees its earlier row blocks in order and its own diagonal last, as in prune_cluster.
    // Column blocks are independent under NeMo's rule, so threads share them out.
    auto pass = [&](const float* rows, size_t r) {
      const size_t first = std::max(r, g0);
      const size_t r0 = r * block, r1 = r0 + file.rows_of(r);
      const size_t count = g1 - first;
      const int workers = std::min<int>(threads, static_cast<int>(count));
      if (workers <= 1) {
        for (size_t c = first; c < g1; ++c) tiles[c - g0]->absorb(rows, r0, r1, products[0]);
        return;
      }
      std::atomic<size_t> taken{0};
      auto work = [&](int w) {
        for (size_t t = taken++; t < count; t = taken++) {
          tiles[first + t - g0]->absorb(rows, r0, r1, products[static_cast<size_t>(w)]);
        }
      };
      std::vector<std::thread> pool;
      for (int w = 1; w < workers; ++w) pool.emplace_back(work, w);
      work(0);
      for (std::thread& t : pool) t.join();
    };
    for (size_t r = 0; r < g0; ++r) {
      WINNOW_RETURN_IF_ERROR(reader.read(r, streamed));
      pass(streamed.data(), r);
    }
    for (size_t r = g0; r < g1; ++r) pass(held[r - g0].data(), r);
  }
  return out;
}

}  // namespace winnow
