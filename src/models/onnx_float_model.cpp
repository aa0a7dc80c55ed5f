#include "models/onnx_float_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "models/split_on_oom.h"

namespace winnow {

Result<std::unique_ptr<OnnxFloatModel>> OnnxFloatModel::load(
    const std::string& path, std::vector<int64_t> item_shape,
    const OnnxFloatModelOptions& options) {
  auto session = OnnxSession::load(path, options.session);
  if (!session.is_ok()) return session.status();
  std::unique_ptr<OnnxFloatModel> model(new OnnxFloatModel());
  model->session_ = std::move(session).value();
  const OnnxSession& s = *model->session_;
  auto fail = [&](const std::string& why) {
    return Status::errorf("ONNX model '{}': {}", path, why);
  };
  if (s.inputs().size() != 1) {
    std::string names;
    for (const auto& in : s.inputs()) names += (names.empty() ? "" : ", ") + in.name;
    return fail(fmt::format("has {} inputs ({}); this stage feeds one float input (export "
                            "the image tower alone, or the head alone)",
                            s.inputs().size(), names));
  }
  const OnnxTensorInfo& input = s.inputs().front();
  if (input.element_type != "float") {
    return fail(fmt::format("input '{}' is {}, not float", input.name, input.element_type));
  }
  bool fits = input.shape.size() == item_shape.size() + 1;
  for (size_t d = 0; fits && d < item_shape.size(); ++d) {
    fits = input.shape[d + 1] < 0 || input.shape[d + 1] == item_shape[d];
  }
  if (!fits) {
    std::vector<int64_t> given = {-1};
    given.insert(given.end(), item_shape.begin(), item_shape.end());
    return fail(fmt::format("input '{}' has shape {}; this stage gives it {}", input.name,
                            shape_text(input.shape), shape_text(given)));
  }
  model->input_ = input.name;
  std::string output = options.output;
  if (output.empty()) {
    for (const std::string& name : options.preferred_outputs) {
      if (s.find_output(name)) {
        output = name;
        break;
      }
    }
  }
  if (output.empty()) {
    std::vector<std::string> candidates;
    for (const auto& out : s.outputs()) {
      if (out.element_type == "float" && (out.shape.size() == 1 || out.shape.size() == 2)) {
        candidates.push_back(out.name);
      }
    }
    if (candidates.size() != 1) {
      std::string names;
      for (const auto& out : s.outputs()) {
        names += (names.empty() ? "" : ", ") + out.name + " " + shape_text(out.shape);
      }
      return fail(fmt::format("cannot tell which output to read ({}); name it with `output`",
                              names));
    }
    output = candidates.front();
  }
  const OnnxTensorInfo* chosen = s.find_output(output);
  if (chosen == nullptr) return fail(fmt::format("has no output '{}'", output));
  if (chosen->element_type != "float" || chosen->shape.empty() || chosen->shape.size() > 2) {
    return fail(fmt::format("output '{}' is {} {}; it must be float [batch] or [batch, columns]",
                            output, chosen->element_type, shape_text(chosen->shape)));
  }
  model->output_ = output;
  model->item_size_ = 1;
  for (int64_t d : item_shape) model->item_size_ *= static_cast<size_t>(d);
  model->item_shape_ = std::move(item_shape);
  model->batch_size_ = std::max<size_t>(1, options.batch_size);
  return model;
}

Status OnnxFloatModel::run(std::span<const float> items, size_t n, std::vector<float>& out,
                           size_t& columns) const {
  out.clear();
  columns = 0;
  std::vector<size_t> indices(n);
  std::iota(indices.begin(), indices.end(), size_t{0});
  auto run_rows = [&](std::span<const size_t> rows) {
    return run_batch(items, rows.front(), rows.size(), out, columns);
  };
  auto single_failure = [&](size_t, const Status& status) {
    std::vector<int64_t> shape = {1};
    shape.insert(shape.end(), item_shape_.begin(), item_shape_.end());
    return Status::errorf(
        "ONNX model '{}': one item of shape {} alone does not fit in memory on "
        "the {}: {}",
        session_->path(), shape_text(shape), session_->provider(), status.message());
  };
  for (size_t first = 0; first < n; first += batch_size_) {
    const size_t rows = std::min(batch_size_, n - first);
    // Halves of a run of consecutive items are consecutive, and run in order: appending keeps
    // the items' order.
    WINNOW_RETURN_IF_ERROR(run_split_on_oom(std::span<const size_t>(indices).subspan(first, rows),
                                            run_rows, single_failure));
  }
  return Status::ok();
}

Status OnnxFloatModel::run_batch(std::span<const float> items, size_t first, size_t rows,
                                 std::vector<float>& out, size_t& columns) const {
  std::vector<OnnxFloatTensor> outputs;
  const std::string names[] = {output_};
  OnnxFloatInput input{input_, items.subspan(first * item_size_, rows * item_size_), {}};
  input.shape.push_back(static_cast<int64_t>(rows));
  input.shape.insert(input.shape.end(), item_shape_.begin(), item_shape_.end());
  WINNOW_RETURN_IF_ERROR(session_->run(std::span<const OnnxFloatInput>(&input, 1), names, outputs));
  const OnnxFloatTensor& result = outputs.front();
  if (result.shape.empty() || result.shape[0] != static_cast<int64_t>(rows)) {
    return Status::errorf("ONNX model '{}': output '{}' has {} rows for {} items", session_->path(),
                          output_, result.shape.empty() ? 0 : result.shape[0], rows);
  }
  const size_t width = result.values.size() / rows;
  if (columns != 0 && width != columns) {
    return Status::errorf("ONNX model '{}': output '{}' changed width from {} to {}",
                          session_->path(), output_, columns, width);
  }
  columns = width;
  out.insert(out.end(), result.values.begin(), result.values.end());
  return Status::ok();
}

}  // namespace winnow
