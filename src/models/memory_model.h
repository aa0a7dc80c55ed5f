#pragma once
// How much memory a transformer's run needs, as a function of the batch's shape, fitted once per
// model and device from a few measured runs; and from it, how many rows of a given padded length
// fit in a memory budget (the length-aware batcher's row limit, models/length_batcher.h).
//
// The model: bytes ≈ a + b·rows·columns + c·rows·columns². `a` is what does not grow with the
// batch (the weights, ORT's fixed buffers); b·rows·columns the activations that grow with the
// tokens (hidden states, the feed-forward layer); c·rows·columns² the attention scores, one
// columns × columns matrix per row and head. Measured, not derived from the architecture, so it
// holds for whatever the graph materialises (fused attention or not) and whatever the provider
// allocates.
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "models/onnx_session.h"

namespace winnow {

// One measured run: a batch of `rows` rows padded to `columns` tokens needed `bytes`.
struct MemorySample {
  size_t rows = 0;
  size_t columns = 0;
  double bytes = 0;
};

struct MemoryModel {
  double a = 0, b = 0, c = 0;

  // Predicted bytes of a run of rows × columns.
  double predict(size_t rows, size_t columns) const;
  // Rows of `columns` tokens that fit in `budget` bytes: floor((budget − a) / (b·columns +
  // c·columns²)); 0 when not even the fixed part fits, SIZE_MAX when a row costs nothing by the
  // fit (no limit from memory).
  size_t max_rows(size_t columns, double budget) const;
};

// Least squares over the samples (at least three, not all of one rows·columns² / rows·columns
// ratio, or b and c cannot be told apart). Exact on exact data; adding a constant to every
// sample changes `a` alone.
Result<MemoryModel> fit_memory_model(std::span<const MemorySample> samples);

// The shapes measured to fit a text model whose rows hold up to `max_columns` tokens: a chain
// in which each shape has at least the rows and the columns of the one before, so each run needs
// at least what the runs before it needed and the allocator's high-water mark after it is its
// own peak (OnnxSession::peak_memory cannot be reset): 1 x L/4, 2 x L/4, 2 x L/2, 4 x L/2,
// 4 x L, L = max_columns up to 512. The lengths reach the longest the model will see because
// the attention term only shows at length: fitted on MiniLM's shape up to 128 tokens the model
// predicted 16 x 512 45% low, up to 512 within 1% (bench/README.md). Four rows at most keep the
// setup to about 1.5 s for a MiniLM-sized model on one core; longer contexts are extrapolated
// from 512 through the c term.
std::vector<std::pair<size_t, size_t>> memory_probe_shapes(size_t max_columns);

// Runs the text model at `path` (integer [batch, sequence] inputs: attention_mask all ones,
// every other input zeros) at each shape, in order, on a private session with `options` (its
// memory limit dropped), reading `output`; returns the peak bytes of each run.
Result<std::vector<MemorySample>> measure_text_model_memory(
    const std::string& path, const OnnxSessionOptions& options, const std::string& output,
    std::span<const std::pair<size_t, size_t>> shapes);

// measure_text_model_memory on memory_probe_shapes(max_columns), fitted: once per model file,
// device and output per process (later calls get the first fit).
Result<MemoryModel> text_model_memory(const std::string& path, const OnnxSessionOptions& options,
                                      const std::string& output, size_t max_columns);

}  // namespace winnow
