#include "models/length_batcher.h"

#include <algorithm>
#include <numeric>

namespace winnow {

std::vector<std::vector<size_t>> plan_batches(std::span<const size_t> lengths,
                                              const BatchPlanOptions& options) {
  const size_t rows = std::max<size_t>(1, options.max_batch_size);
  std::vector<std::vector<size_t>> batches;
  if (!options.by_length) {
    for (size_t start = 0; start < lengths.size(); start += rows) {
      auto& batch = batches.emplace_back(std::min(rows, lengths.size() - start));
      std::iota(batch.begin(), batch.end(), start);
    }
    return batches;
  }
  const size_t window = options.window == 0 ? lengths.size() : options.window;
  std::vector<size_t> order;
  for (size_t start = 0; start < lengths.size(); start += window) {
    order.resize(std::min(window, lengths.size() - start));
    std::iota(order.begin(), order.end(), start);
    // Longest first: the costliest batch runs first, so a budget too large shows at once. Ties
    // keep input order, so the plan is deterministic.
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return lengths[a] > lengths[b]; });
    std::vector<size_t> batch;
    size_t longest = 0, cap = rows;
    for (size_t index : order) {
      size_t widest = std::max(longest, lengths[index]);
      if (!batch.empty() &&
          (batch.size() >= cap || (batch.size() + 1) * widest > options.max_batch_tokens)) {
        batches.push_back(std::move(batch));
        batch.clear();
        widest = lengths[index];
      }
      if (batch.empty()) {
        // Rows sorted longest first: the row that opens a batch is its longest, so the memory
        // limit for the whole batch is known from it.
        cap = rows;
        if (options.row_limit) cap = std::clamp<size_t>(options.row_limit(widest), 1, rows);
      }
      batch.push_back(index);
      longest = widest;
    }
    if (!batch.empty()) batches.push_back(std::move(batch));
  }
  return batches;
}

size_t padded_tokens(std::span<const size_t> lengths,
                     const std::vector<std::vector<size_t>>& batches) {
  size_t total = 0;
  for (const auto& batch : batches) {
    size_t longest = 0;
    for (size_t i : batch) longest = std::max(longest, lengths[i]);
    total += longest * batch.size();
  }
  return total;
}

}  // namespace winnow
