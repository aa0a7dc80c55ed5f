#include "media/shot_detector.h"

#include <algorithm>
#include <cstdlib>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace winnow {

void ShotDetector::add(const uint8_t* bgr, int width, int height) {
  cv::Mat source(height, width, CV_8UC3, const_cast<uint8_t*>(bgr));
  cv::Mat hsv;
  cv::cvtColor(source, hsv, cv::COLOR_BGR2HSV);
  const size_t n = size_t(width) * height * 3;
  if (previous_hsv_.size() != n) {
    changes_.push_back(0);
  } else {
    // Sums per channel; the content change is their mean (weights 1, 1, 1).
    uint64_t sum[3] = {0, 0, 0};
    const uint8_t* now = hsv.ptr<uint8_t>(0);
    for (size_t i = 0; i < n; i += 3) {
      // Hue is an angle (OpenCV's 0-179 for 0-358 degrees): red at 2 and red at 178 differ by 4.
      const int hue = std::abs(int(now[i]) - int(previous_hsv_[i]));
      sum[0] += static_cast<uint64_t>(std::min(hue, 180 - hue));
      for (int c = 1; c < 3; ++c) sum[c] += std::abs(int(now[i + c]) - int(previous_hsv_[i + c]));
    }
    const double pixels = double(width) * height;
    changes_.push_back((sum[0] / pixels + sum[1] / pixels + sum[2] / pixels) / 3);
  }
  previous_hsv_.assign(hsv.ptr<uint8_t>(0), hsv.ptr<uint8_t>(0) + n);
}

std::vector<int64_t> ShotDetector::cuts() const {
  std::vector<int64_t> cuts;
  const auto count = static_cast<int64_t>(changes_.size());
  int64_t last = 0;  // the current shot's first frame
  for (int64_t i = 1; i < count; ++i) {
    const double change = changes_[size_t(i)];
    if (change < options_.min_content || i - last < options_.min_scene_frames) continue;
    double sum = 0;
    int neighbours = 0;
    for (int64_t j = std::max<int64_t>(1, i - options_.window);
         j <= std::min(count - 1, i + options_.window); ++j) {
      if (j == i) continue;
      sum += changes_[size_t(j)];
      ++neighbours;
    }
    // With no neighbour, or neighbours that do not change at all, any change over min_content
    // is a cut (PySceneDetect caps the ratio at 255 the same way).
    const double mean = neighbours > 0 ? sum / neighbours : 0;
    const double ratio = mean > 1e-5 ? change / mean : 255.0;
    if (ratio >= options_.adaptive_threshold) {
      cuts.push_back(i);
      last = i;
    }
  }
  return cuts;
}

}  // namespace winnow
