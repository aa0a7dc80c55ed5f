#pragma once
// OnnxFloatModel: an ONNX model with one float input whose first dimension is the batch, and a
// float output of one row per item — an image encoder ([batch, 3, H, W] pixel planes → an
// embedding) or a head on embeddings ([batch, D] → a score, such as LAION's aesthetic
// predictor). Items are run in batches of at most `batch_size` through the process's shared
// OnnxSession (models/onnx_session.h: threads, provider).
//
// Checked at load, so a model that does not fit fails before any item is read: one input,
// float, of rank 1 + the item's rank, each fixed dimension equal to the item's; the output, by
// name or chosen (the first of `preferred_outputs` the model has, else its only float output
// of rank 1 or 2), of rank 1 ([batch]: one value per item) or 2 ([batch, columns]).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "models/onnx_session.h"

namespace winnow {

struct OnnxFloatModelOptions {
  std::string output;  // empty: chosen as above
  std::vector<std::string> preferred_outputs;
  size_t batch_size = 32;
  OnnxSessionOptions session;
};

class OnnxFloatModel {
 public:
  // `item_shape`: one item's dimensions as the caller gives them (e.g. {3, 224, 224}).
  static Result<std::unique_ptr<OnnxFloatModel>> load(const std::string& path,
                                                      std::vector<int64_t> item_shape,
                                                      const OnnxFloatModelOptions& options);

  // `items`: n items of item_size() floats each. `out` gets n rows of `columns` floats. A batch
  // that fails for lack of memory is split in half and retried (models/split_on_oom.h).
  Status run(std::span<const float> items, size_t n, std::vector<float>& out,
             size_t& columns) const;

  size_t item_size() const { return item_size_; }
  const std::string& input_name() const { return input_; }
  const std::string& output_name() const { return output_; }
  const OnnxSession& session() const { return *session_; }

 private:
  // One run of items [first, first + rows), appended to `out`.
  Status run_batch(std::span<const float> items, size_t first, size_t rows, std::vector<float>& out,
                   size_t& columns) const;
  std::shared_ptr<const OnnxSession> session_;
  std::vector<int64_t> item_shape_;
  size_t item_size_ = 0;
  size_t batch_size_ = 32;
  std::string input_, output_;
};

}  // namespace winnow
