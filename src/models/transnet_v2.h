#pragma once
// TransNetV2: a shot-boundary model (Souček & Lokoč) exported to ONNX, run the way its own
// `predict_frames` runs it and the anchor's splitter uses it: frames at 48 x 27 RGB, windows of
// 100 frames stepped by 50, each window's central 50 predictions kept, the video padded with
// 25 copies of its first frame in front and copies of its last behind so that every frame
// falls in some window's centre. The model's first output is the single-frame head: per frame,
// the probability (or, with `logits`, the logit) that it is the last frame of a shot.
//
// Checked at load, so a model that does not fit fails before any video is read: one input of
// shape [batch, 100, 27, 48, 3] (float or uint8, 0-255 either way: TransNetV2 scales inside),
// a first output of [batch, 100, 1] or [batch, 100].
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "models/onnx_session.h"

namespace winnow {

struct TransNetWindow {
  int64_t first = 0;  // the window's first position in the padded sequence
};

// TransNetV2's windows over `frames` frames: the padded sequence is 25 copies of frame 0, the
// frames, then copies of the last frame up to a whole number of 50-frame steps plus 25; window
// k covers padded positions [50k, 50k + 100) and gives frames [50k, 50k + 50) from its centre.
struct TransNetPlan {
  static constexpr int64_t kWindow = 100;
  static constexpr int64_t kStep = 50;
  static constexpr int64_t kPadFront = 25;
  int64_t frames = 0;
  int64_t padded = 0;   // length of the padded sequence
  int64_t windows = 0;  // windows that run
  // The frame shown at padded position `p` (the padding repeats the first and last frame).
  int64_t frame_at(int64_t p) const;
};
TransNetPlan transnet_plan(int64_t frames);

struct TransNetOptions {
  bool logits = false;    // the output is logits (a sigmoid turns them into probabilities)
  size_t batch_size = 4;  // windows per run (1 when the model fixes its batch at 1)
  OnnxSessionOptions session;
};

class TransNetV2 {
 public:
  static constexpr int kWidth = 48;
  static constexpr int kHeight = 27;

  static Result<std::unique_ptr<TransNetV2>> load(const std::string& path,
                                                  const TransNetOptions& options);

  // `rgb`: `frames` frames of kWidth x kHeight x 3 bytes (RGB, rows packed). Gives each frame's
  // probability of ending a shot (through a TransNetStream).
  Status predict(std::span<const uint8_t> rgb, int64_t frames,
                 std::vector<float>& probabilities) const;

  const std::string& input_name() const { return input_; }
  const std::string& output_name() const { return output_; }
  size_t batch_size() const { return options_.batch_size; }

 private:
  friend class TransNetStream;
  // Runs windows [first, first + count) of `plan` (frames read through `frame_of`: a padded
  // position's frame) and writes their central predictions into `probabilities`.
  Status run_windows(const TransNetPlan& plan, int64_t first, int64_t count,
                     const std::function<const uint8_t*(int64_t frame)>& frame_of,
                     std::vector<float>& probabilities) const;

  std::shared_ptr<const OnnxSession> session_;
  std::string input_, output_;
  TransNetOptions options_;
};

// A video's frames given to TransNetV2 one at a time as they are decoded. A batch of windows
// runs as soon as its last window's frames are all in, and frames no later window needs are let
// go, so at most (batch_size + 1) x 50 frames are held whatever the video's length (a two-hour
// film at 48 x 27 would be about 800 MB whole). The windows, their batches and so every
// probability are those of predict() on the whole video.
class TransNetStream {
 public:
  explicit TransNetStream(const TransNetV2& model) : model_(model) {}
  // One frame of kWidth x kHeight x 3 bytes, RGB.
  Status add(std::span<const uint8_t> rgb);
  // Runs the windows left (the end padded with the last frame) and gives every frame's
  // probability of ending a shot.
  Status finish(std::vector<float>& probabilities);
  // Frames held now.
  size_t held_frames() const;

 private:
  // Runs the next batch of windows when its last window is whole (or, `at_end`, when any is
  // left), then lets go of the frames before the next batch's first.
  Status run_ready(bool at_end);

  const TransNetV2& model_;
  std::vector<uint8_t> held_;  // frames [base_, added_)
  int64_t base_ = 0;
  int64_t added_ = 0;
  int64_t next_window_ = 0;
  std::vector<float> probabilities_;
};

// Shot starts from per-frame probabilities, as TransNetV2's predictions_to_scenes reads them: a
// run of frames above `threshold` ends a shot, and the next shot starts after the run (a hard
// cut marks one frame, the last of the old shot). A run from frame 0 leaves its frames as a
// shot of their own, which the clip rules' minimum length then refuses, as TransNetV2 drops it.
std::vector<int64_t> transnet_shot_starts(std::span<const float> probabilities, double threshold);

}  // namespace winnow
