#include "models/transnet_v2.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace winnow {

namespace {

constexpr size_t kFrameBytes = size_t{TransNetV2::kWidth} * TransNetV2::kHeight * 3;

}  // namespace

int64_t TransNetPlan::frame_at(int64_t p) const {
  return std::clamp<int64_t>(p - kPadFront, 0, frames - 1);
}

TransNetPlan transnet_plan(int64_t frames) {
  TransNetPlan plan;
  plan.frames = frames;
  if (frames <= 0) return plan;
  // predict_frames' padding: 25 in front; behind, enough to end on a whole step, plus 25.
  const int64_t rest = frames % TransNetPlan::kStep;
  const int64_t pad_back =
      TransNetPlan::kPadFront + TransNetPlan::kStep - (rest != 0 ? rest : TransNetPlan::kStep);
  plan.padded = TransNetPlan::kPadFront + frames + pad_back;
  plan.windows = (plan.padded - TransNetPlan::kWindow) / TransNetPlan::kStep + 1;
  return plan;
}

Result<std::unique_ptr<TransNetV2>> TransNetV2::load(const std::string& path,
                                                     const TransNetOptions& options) {
  auto session = OnnxSession::load(path, options.session);
  if (!session.is_ok()) return session.status();
  std::unique_ptr<TransNetV2> model(new TransNetV2());
  model->session_ = std::move(session).value();
  model->options_ = options;
  const OnnxSession& s = *model->session_;
  auto fail = [&](const std::string& why) {
    return Status::errorf("TransNetV2 model '{}': {}", path, why);
  };
  if (s.inputs().size() != 1) {
    return fail(fmt::format("has {} inputs; TransNetV2 takes one, [batch, 100, 27, 48, 3]",
                            s.inputs().size()));
  }
  const OnnxTensorInfo& input = s.inputs().front();
  const std::vector<int64_t> want = {TransNetPlan::kWindow, kHeight, kWidth, 3};
  bool fits = input.shape.size() == 5;
  for (size_t d = 0; fits && d < want.size(); ++d) {
    fits = input.shape[d + 1] < 0 || input.shape[d + 1] == want[d];
  }
  if (!fits) {
    return fail(fmt::format("input '{}' has shape {}; TransNetV2 takes [batch, 100, 27, 48, 3]",
                            input.name, shape_text(input.shape)));
  }
  if (input.element_type != "float" && input.element_type != "uint8") {
    return fail(fmt::format("input '{}' is {}; TransNetV2 takes float or uint8 pixels", input.name,
                            input.element_type));
  }
  if (input.shape[0] > 0) model->options_.batch_size = static_cast<size_t>(input.shape[0]);
  model->options_.batch_size = std::max<size_t>(1, model->options_.batch_size);
  // The first output is the single-frame head (the second, when exported, the many-hot one).
  const OnnxTensorInfo& output = s.outputs().front();
  const bool rank2 = output.shape.size() == 2;
  const bool rank3 = output.shape.size() == 3 && (output.shape[2] < 0 || output.shape[2] == 1);
  if (output.element_type != "float" || !(rank2 || rank3) ||
      (output.shape[1] >= 0 && output.shape[1] != TransNetPlan::kWindow)) {
    return fail(
        fmt::format("output '{}' is {} {}; TransNetV2's single-frame head is float "
                    "[batch, 100, 1] or [batch, 100]",
                    output.name, output.element_type, shape_text(output.shape)));
  }
  model->input_ = input.name;
  model->output_ = output.name;
  return model;
}

Status TransNetV2::predict(std::span<const uint8_t> rgb, int64_t frames,
                           std::vector<float>& probabilities) const {
  probabilities.clear();
  if (frames <= 0) return Status::ok();
  if (rgb.size() != static_cast<size_t>(frames) * kFrameBytes) {
    return Status::errorf("TransNetV2: {} bytes for {} frames of 48 x 27 RGB", rgb.size(), frames);
  }
  TransNetStream stream(*this);
  for (int64_t f = 0; f < frames; ++f) {
    WINNOW_RETURN_IF_ERROR(
        stream.add(rgb.subspan(static_cast<size_t>(f) * kFrameBytes, kFrameBytes)));
  }
  return stream.finish(probabilities);
}

Status TransNetV2::run_windows(const TransNetPlan& plan, int64_t first, int64_t count,
                               const std::function<const uint8_t*(int64_t frame)>& frame_of,
                               std::vector<float>& probabilities) const {
  const size_t window_values = static_cast<size_t>(TransNetPlan::kWindow) * kFrameBytes;
  std::vector<float> values(static_cast<size_t>(count) * window_values);
  float* out = values.data();
  for (int64_t w = first; w < first + count; ++w) {
    for (int64_t p = w * TransNetPlan::kStep; p < w * TransNetPlan::kStep + TransNetPlan::kWindow;
         ++p) {
      const uint8_t* frame = frame_of(plan.frame_at(p));
      for (size_t b = 0; b < kFrameBytes; ++b) *out++ = frame[b];
    }
  }
  std::vector<OnnxFloatTensor> outputs;
  const std::string names[] = {output_};
  OnnxFloatInput input{input_, values, {count, TransNetPlan::kWindow, kHeight, kWidth, 3}};
  WINNOW_RETURN_IF_ERROR(session_->run(std::span<const OnnxFloatInput>(&input, 1), names, outputs));
  const OnnxFloatTensor& result = outputs.front();
  if (result.values.size() != static_cast<size_t>(count * TransNetPlan::kWindow)) {
    return Status::errorf("TransNetV2 model '{}': output '{}' has {} values for {} windows",
                          session_->path(), output_, result.values.size(), count);
  }
  // Each window's central 50 predictions belong to frames [50 w, 50 w + 50).
  for (int64_t w = 0; w < count; ++w) {
    const float* window = result.values.data() + w * TransNetPlan::kWindow;
    for (int64_t k = 0; k < TransNetPlan::kStep; ++k) {
      const int64_t frame = (first + w) * TransNetPlan::kStep + k;
      if (frame >= plan.frames) break;
      float v = window[TransNetPlan::kPadFront + k];
      if (options_.logits) v = static_cast<float>(1.0 / (1.0 + std::exp(-double(v))));
      if (probabilities.size() <= static_cast<size_t>(frame)) {
        probabilities.resize(static_cast<size_t>(frame) + 1, 0.0f);
      }
      probabilities[static_cast<size_t>(frame)] = v;
    }
  }
  return Status::ok();
}

Status TransNetStream::add(std::span<const uint8_t> rgb) {
  if (rgb.size() != kFrameBytes) {
    return Status::errorf("TransNetV2: a frame of {} bytes, not 48 x 27 RGB", rgb.size());
  }
  held_.insert(held_.end(), rgb.begin(), rgb.end());
  ++added_;
  return run_ready(false);
}

Status TransNetStream::finish(std::vector<float>& probabilities) {
  WINNOW_RETURN_IF_ERROR(run_ready(true));
  probabilities = std::move(probabilities_);
  probabilities.resize(static_cast<size_t>(added_), 0.0f);
  probabilities_.clear();
  return Status::ok();
}

size_t TransNetStream::held_frames() const { return held_.size() / kFrameBytes; }

Status TransNetStream::run_ready(bool at_end) {
  const int64_t batch = static_cast<int64_t>(model_.batch_size());
  while (true) {
    // The plan of the frames so far: while frames still come, a ready window never reaches
    // past the last frame in, so the end padding (which needs the count) is only read at_end.
    const TransNetPlan plan = transnet_plan(added_);
    int64_t count = batch;
    if (at_end) {
      count = std::min(batch, plan.windows - next_window_);
      if (count <= 0) return Status::ok();
    } else {
      // The batch's last window needs frames up to 50 (w + 1) + 24.
      const int64_t last = next_window_ + batch - 1;
      if (last * TransNetPlan::kStep + TransNetPlan::kWindow - TransNetPlan::kPadFront > added_) {
        return Status::ok();
      }
    }
    WINNOW_RETURN_IF_ERROR(model_.run_windows(
        plan, next_window_, count,
        [&](int64_t frame) {
          return held_.data() + static_cast<size_t>(frame - base_) * kFrameBytes;
        },
        probabilities_));
    next_window_ += count;
    // The next batch's first window starts at padded position 50 w, frame 50 w - 25.
    const int64_t keep_from = std::clamp<int64_t>(
        next_window_ * TransNetPlan::kStep - TransNetPlan::kPadFront, base_, added_ - 1);
    held_.erase(held_.begin(), held_.begin() + static_cast<ptrdiff_t>(keep_from - base_) *
                                                   static_cast<ptrdiff_t>(kFrameBytes));
    base_ = keep_from;
  }
}

std::vector<int64_t> transnet_shot_starts(std::span<const float> probabilities, double threshold) {
  std::vector<int64_t> starts;
  bool in_run = false;
  for (size_t i = 0; i < probabilities.size(); ++i) {
    const bool above = probabilities[i] > threshold;
    if (!above && in_run) starts.push_back(static_cast<int64_t>(i));
    in_run = above;
  }
  return starts;
}

}  // namespace winnow
