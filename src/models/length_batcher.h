#pragma once
// Batching for transformer inference. A batch costs about rows × its longest sequence (every
// row is padded to it), so documents of similar length belong together: `by_length` orders the
// documents of each window (a bounded run of input documents) by token count, longest first,
// and cuts batches under a token budget counted with the padding. Fixed batching (`by_length`
// false) cuts the input in order into batches of max_batch_size, as a baseline. Either way the
// plan lists input indices; the caller writes results back at those indices, which restores
// input order.
#include <cstddef>
#include <span>
#include <vector>

namespace winnow {

struct BatchPlanOptions {
  bool by_length = true;
  size_t max_batch_size = 64;      // rows per batch
  size_t max_batch_tokens = 8192;  // rows × longest row, by_length only (one row always fits)
  size_t window = 4096;            // documents sorted together (0: all)
};

// Batches of indices into `lengths` (token counts), covering each index once.
std::vector<std::vector<size_t>> plan_batches(std::span<const size_t> lengths,
                                              const BatchPlanOptions& options);

// Padded tokens (rows × longest, summed over batches) of a plan.
size_t padded_tokens(std::span<const size_t> lengths,
                     const std::vector<std::vector<size_t>>& batches);

}  // namespace winnow
