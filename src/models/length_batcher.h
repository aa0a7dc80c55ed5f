#pragma once
// Batching for transformer inference. A batch costs about rows × its longest sequence (every
// row is padded to it), so documents of similar length belong together: `by_length` orders the
// documents of each window (a bounded run of input documents) by token count, longest first,
// and cuts batches under a token budget counted with the padding. Fixed batching (`by_length`
// false) cuts the input in order into batches of max_batch_size, as a baseline. Either way the
// plan lists input indices; the caller writes results back at those indices, which restores
// input order.
//
// A memory budget adds a third limit (`row_limit`, from models/memory_model.h): the rows a batch
// may hold given its longest row, which is its first, since each window runs longest first.
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

namespace winnow {

struct BatchPlanOptions {
  bool by_length = true;
  size_t max_batch_size = 64;      // rows per batch
  size_t max_batch_tokens = 8192;  // rows × longest row, by_length only (one row always fits)
  size_t window = 4096;            // documents sorted together (0: all)
  // by_length only: rows a batch whose longest row has this many tokens may hold (a memory
  // budget; one row always fits). Empty: no limit beyond the two above.
  std::function<size_t(size_t longest)> row_limit;
};

// Batches of indices into `lengths` (token counts), covering each index once.
std::vector<std::vector<size_t>> plan_batches(std::span<const size_t> lengths,
                                              const BatchPlanOptions& options);

// Padded tokens (rows × longest, summed over batches) of a plan.
size_t padded_tokens(std::span<const size_t> lengths,
                     const std::vector<std::vector<size_t>>& batches);

}  // namespace winnow
