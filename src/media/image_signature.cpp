#include "media/image_signature.h"

#include <algorithm>
#include <cmath>
#include <opencv2/core.hpp>
#include <opencv2/img_hash.hpp>
#include <opencv2/imgproc.hpp>

namespace winnow {

namespace {

cv::Mat view(const ImagePixels& image) {
  return cv::Mat(image.height, image.width, CV_8UC3, const_cast<uint8_t*>(image.bgr.data()));
}

// OpenCV's PHash shrinks its input to 32 x 32 bilinearly, which samples a few pixels of each
// block: thin lines (diagrams, text) then come and go with a one-pixel shift or a rescale, and
// the hash with them. Averaging each block first (INTER_AREA) gives PHash the picture's real
// low frequencies; its own resize of a 32 x 32 image changes nothing.
cv::Mat shrink(const cv::Mat& pixels) {
  cv::Mat small;
  cv::resize(pixels, small, cv::Size(32, 32), 0, 0, cv::INTER_AREA);
  return small;
}

uint64_t phash_of_small(const cv::Mat& small) {
  thread_local cv::Ptr<cv::img_hash::PHash> hasher = cv::img_hash::PHash::create();
  cv::Mat hash;
  hasher->compute(small, hash);
  uint64_t bits = 0;
  for (int i = 0; i < 8 && i < hash.cols; ++i) bits |= uint64_t{hash.at<uint8_t>(0, i)} << (8 * i);
  return bits;
}

// PHash's own steps (grey, DCT, the 8x8 corner with its DC set to 0, the mean) up to its
// comparison, counting the coefficients clear of the mean.
int informative_bits(const cv::Mat& small) {
  cv::Mat grey, grey_float, dct;
  cv::cvtColor(small, grey, cv::COLOR_BGR2GRAY);
  grey.convertTo(grey_float, CV_32F);
  cv::dct(grey_float, dct);
  cv::Mat corner = dct(cv::Rect(0, 0, 8, 8)).clone();
  corner.at<float>(0, 0) = 0;
  const float mean = static_cast<float>(cv::mean(corner)[0]);
  int clear = 0;
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) clear += std::fabs(corner.at<float>(y, x) - mean) > kBitMargin;
  }
  return clear;
}

std::array<float, 6> colour_moments(const cv::Mat& small) {
  cv::Mat lab;
  cv::cvtColor(small, lab, cv::COLOR_BGR2Lab);
  cv::Scalar mean, deviation;
  cv::meanStdDev(lab, mean, deviation);
  std::array<float, 6> moments{};
  for (int c = 0; c < 3; ++c) {
    moments[c] = static_cast<float>(mean[c]);
    moments[3 + c] = static_cast<float>(deviation[c]);
  }
  return moments;
}

void add_hashes(const cv::Mat& pixels, double crop, std::vector<uint64_t>& hashes) {
  hashes.push_back(phash_of_small(shrink(pixels)));
  const int dx = static_cast<int>(pixels.cols * crop), dy = static_cast<int>(pixels.rows * crop);
  if (crop <= 0 || dx < 1 || dy < 1) return;
  for (int corner = 0; corner < 4; ++corner) {
    // Leaves out a strip of dx on the left or right and dy at the top or bottom.
    cv::Rect keep(corner % 2 ? 0 : dx, corner / 2 ? 0 : dy, pixels.cols - dx, pixels.rows - dy);
    hashes.push_back(phash_of_small(shrink(pixels(keep))));
  }
  cv::Rect centre(dx / 2, dy / 2, pixels.cols - dx, pixels.rows - dy);
  hashes.push_back(phash_of_small(shrink(pixels(centre))));
}

}  // namespace

uint64_t perceptual_hash(const ImagePixels& image, bool mirrored) {
  if (image.bgr.empty()) return 0;
  cv::Mat source = view(image);
  if (!mirrored) return phash_of_small(shrink(source));
  cv::Mat flipped;
  cv::flip(source, flipped, 1);
  return phash_of_small(shrink(flipped));
}

std::vector<uint64_t> perceptual_hashes(const ImagePixels& image, bool mirror, double crop) {
  std::vector<uint64_t> hashes;
  if (image.bgr.empty()) return hashes;
  cv::Mat source = view(image);
  add_hashes(source, crop, hashes);
  if (mirror) {
    cv::Mat flipped;
    cv::flip(source, flipped, 1);
    add_hashes(flipped, crop, hashes);
  }
  return hashes;
}

ImageSignature image_signature(const ImagePixels& image, bool mirror, double crop) {
  ImageSignature signature;
  if (image.bgr.empty()) return signature;
  signature.hashes = perceptual_hashes(image, mirror, crop);
  const cv::Mat small = shrink(view(image));
  signature.informative_bits = informative_bits(small);
  signature.colour = colour_moments(small);
  return signature;
}

float colour_distance(const std::array<float, 6>& a, const std::array<float, 6>& b) {
  float most = 0;
  for (size_t i = 0; i < a.size(); ++i) most = std::max(most, std::fabs(a[i] - b[i]));
  return most;
}

}  // namespace winnow
