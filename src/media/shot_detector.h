#pragma once
// ShotDetector: hard cuts in a sequence of frames, PySceneDetect's approach without a model.
// Each frame's content change is the mean absolute difference of its hue, saturation and value
// from the frame before (0-255 scale; ContentDetector's default weights 1, 1, 1, no edges; hue
// differences taken round the circle, unlike PySceneDetect, so that a dissolve through red
// does not look like a cut); a
// frame starts a new shot when that change is at least `min_content` and at least
// `adaptive_threshold` times the mean change of the `window` frames on each side of it
// (AdaptiveDetector), which a pan or a zoom raises everywhere while a cut raises one frame only.
#include <cstdint>
#include <vector>

namespace winnow {

struct ShotDetectorOptions {
  double adaptive_threshold = 3.0;  // AdaptiveDetector's adaptive_threshold
  double min_content = 15.0;        // AdaptiveDetector's min_content_val
  int window = 2;                   // AdaptiveDetector's window_width
  int min_scene_frames = 15;        // fewest frames between two cuts (min_scene_len)
};

class ShotDetector {
 public:
  explicit ShotDetector(ShotDetectorOptions options) : options_(options) {}

  // The next frame (8-bit BGR, rows packed; every frame the same size).
  void add(const uint8_t* bgr, int width, int height);
  // The frames (0-based positions among those added) that start a new shot, ascending.
  std::vector<int64_t> cuts() const;
  // Each frame's content change from the one before (frame 0: 0).
  const std::vector<double>& changes() const { return changes_; }

 private:
  ShotDetectorOptions options_;
  std::vector<uint8_t> previous_hsv_;
  std::vector<double> changes_;
};

}  // namespace winnow
