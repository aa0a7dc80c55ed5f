#include "models/ctc_asr_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace winnow {

std::vector<int> greedy_ctc(std::span<const float> scores, int64_t frames, int64_t classes,
                            int blank) {
  std::vector<int> ids;
  int previous = -1;
  for (int64_t t = 0; t < frames; ++t) {
    const float* row = scores.data() + t * classes;
    const int best = int(std::max_element(row, row + classes) - row);
    if (best != previous && best != blank) ids.push_back(best);
    previous = best;
  }
  return ids;
}

int64_t subsampling_of(int64_t frames_in, int64_t frames_out) {
  for (int64_t f = 1; f <= 64; f *= 2) {
    if ((frames_in + f - 1) / f == frames_out) return f;
  }
  return std::max<int64_t>(
      1, std::llround(double(frames_in) / double(std::max<int64_t>(frames_out, 1))));
}

Result<std::shared_ptr<const CtcAsrModel>> CtcAsrModel::load(const std::string& model_path,
                                                             std::vector<std::string> vocabulary,
                                                             int n_mels, int subsampling,
                                                             const OnnxSessionOptions& options) {
  auto session = OnnxSession::load(model_path, options);
  if (!session.is_ok()) return session.status();
  std::shared_ptr<CtcAsrModel> model(
      new CtcAsrModel(std::move(session).value(), std::move(vocabulary), n_mels, subsampling));
  for (const OnnxTensorInfo& input : model->session_->inputs()) {
    if (input.element_type == "float" && input.shape.size() == 3) {
      model->signal_input_ = input.name;
    } else if ((input.element_type == "int64" || input.element_type == "int32") &&
               input.shape.size() == 1) {
      model->length_input_ = input.name;
    }
  }
  if (model->signal_input_.empty() || model->length_input_.empty() ||
      model->session_->inputs().size() != 2) {
    return Status::errorf(
        "CTC model '{}': needs a float input [batch, n_mels, frames] and an "
        "integer input of lengths [batch], as NeMo exports CTC models",
        model_path);
  }
  const OnnxTensorInfo& output = model->session_->outputs().front();
  if (output.element_type != "float" || output.shape.size() != 3) {
    return Status::errorf(
        "CTC model '{}': its first output is {} {}, not float [batch, frames, "
        "vocabulary + 1]",
        model_path, output.element_type, shape_text(output.shape));
  }
  model->outputs_ = {output.name};
  return std::shared_ptr<const CtcAsrModel>(std::move(model));
}

Status CtcAsrModel::decode(std::span<const CtcFeatures> rows,
                           std::vector<std::vector<int>>& out) const {
  const int64_t n_mels = n_mels_, batch = int64_t(rows.size());
  int64_t longest = 1;
  for (const CtcFeatures& f : rows) longest = std::max(longest, f.frames);
  std::vector<float> signal(size_t(batch * n_mels * longest), 0.0f);
  std::vector<int64_t> lengths(rows.size(), 0);
  for (int64_t b = 0; b < batch; ++b) {
    const CtcFeatures& f = rows[b];
    lengths[b] = f.frames;
    for (int64_t m = 0; m < n_mels; ++m) {
      std::copy_n(f.values.begin() + m * f.frames, f.frames,
                  signal.begin() + (b * n_mels + m) * longest);
    }
  }
  const OnnxFloatInput floats[] = {{signal_input_, signal, {batch, n_mels, longest}}};
  const OnnxIntInput ints[] = {{length_input_, lengths, {batch}}};
  std::vector<OnnxFloatTensor> results;
  WINNOW_RETURN_IF_ERROR(session_->run(floats, ints, outputs_, results));
  const OnnxFloatTensor& scores = results[0];
  const int64_t classes = int64_t(vocabulary_.size()) + 1;
  if (scores.shape.size() != 3 || scores.shape[0] != batch || scores.shape[2] != classes) {
    return Status::errorf("CTC model '{}': gave {} for {} rows and a vocabulary of {} + blank",
                          session_->path(), shape_text(scores.shape), batch, classes - 1);
  }
  const int64_t frames = scores.shape[1];
  const int64_t factor = subsampling_ > 0 ? subsampling_ : subsampling_of(longest, frames);
  out.assign(size_t(batch), {});
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t valid = std::min(frames, (lengths[b] + factor - 1) / factor);
    out[b] = greedy_ctc(std::span<const float>(scores.values).subspan(size_t(b * frames * classes)),
                        valid, classes, int(classes - 1));
  }
  return Status::ok();
}

std::string CtcAsrModel::text(const std::vector<int>& ids) const {
  std::string joined;
  for (int id : ids) joined += vocabulary_[size_t(id)];
  std::string out;
  static constexpr std::string_view kWordStart = "\xe2\x96\x81";  // U+2581, SentencePiece's
  for (size_t i = 0; i < joined.size();) {
    if (std::string_view(joined).substr(i, 3) == kWordStart) {
      out += ' ';
      i += 3;
    } else {
      out += joined[i++];
    }
  }
  const size_t first = out.find_first_not_of(' '), last = out.find_last_not_of(' ');
  return first == std::string::npos ? std::string() : out.substr(first, last - first + 1);
}

}  // namespace winnow
