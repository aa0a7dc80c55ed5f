#include "media/image_measures.h"

#include <fstream>
#include <memory>
#include <opencv2/core.hpp>
#include <opencv2/img_hash.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/quality.hpp>

namespace winnow {

namespace {

cv::Mat view(const ImagePixels& image) {
  return cv::Mat(image.height, image.width, CV_8UC3, const_cast<uint8_t*>(image.bgr.data()));
}

// OpenCV's PHash shrinks its input to 32 x 32 bilinearly, which samples a few pixels of each
// block: thin lines (diagrams, text) then come and go with a one-pixel shift or a rescale, and
// the hash with them. Averaging each block first (INTER_AREA) gives PHash the picture's real
// low frequencies; its own resize of a 32 x 32 image changes nothing.
uint64_t phash_of(const cv::Mat& pixels) {
  thread_local cv::Ptr<cv::img_hash::PHash> hasher = cv::img_hash::PHash::create();
  cv::Mat small, hash;
  cv::resize(pixels, small, cv::Size(32, 32), 0, 0, cv::INTER_AREA);
  hasher->compute(small, hash);
  uint64_t bits = 0;
  for (int i = 0; i < 8 && i < hash.cols; ++i) bits |= uint64_t{hash.at<uint8_t>(0, i)} << (8 * i);
  return bits;
}

}  // namespace

double laplacian_variance(const ImagePixels& image) {
  if (image.bgr.empty()) return 0;
  cv::Mat grey, laplacian;
  cv::cvtColor(view(image), grey, cv::COLOR_BGR2GRAY);
  cv::Laplacian(grey, laplacian, CV_64F, 3);
  cv::Scalar mean, stddev;
  cv::meanStdDev(laplacian, mean, stddev);
  return stddev[0] * stddev[0];
}

uint64_t perceptual_hash(const ImagePixels& image, bool mirrored) {
  if (image.bgr.empty()) return 0;
  cv::Mat source = view(image);
  if (!mirrored) return phash_of(source);
  cv::Mat flipped;
  cv::flip(source, flipped, 1);
  return phash_of(flipped);
}

std::vector<uint64_t> perceptual_hashes(const ImagePixels& image, bool mirror, double crop) {
  std::vector<uint64_t> hashes;
  if (image.bgr.empty()) return hashes;
  auto hash_of = [&](const cv::Mat& pixels) { hashes.push_back(phash_of(pixels)); };
  cv::Mat source = view(image);
  cv::Mat flipped;
  if (mirror) cv::flip(source, flipped, 1);
  for (const cv::Mat* pixels : {&source, &flipped}) {
    if (pixels->empty()) continue;
    hash_of(*pixels);
    const int dx = static_cast<int>(pixels->cols * crop),
              dy = static_cast<int>(pixels->rows * crop);
    if (crop <= 0 || dx < 1 || dy < 1) continue;
    for (int corner = 0; corner < 4; ++corner) {
      // Leaves out a strip of dx on the left or right and dy at the top or bottom.
      cv::Rect keep(corner % 2 ? 0 : dx, corner / 2 ? 0 : dy, pixels->cols - dx, pixels->rows - dy);
      hash_of((*pixels)(keep));
    }
  }
  return hashes;
}

Result<BrisqueScorer> BrisqueScorer::create(std::string model_file, std::string range_file) {
  for (const std::string& file : {model_file, range_file}) {
    if (!std::ifstream(file)) {
      return Status::errorf("cannot read BRISQUE model file {} (Debian: apt install opencv-data)",
                            file);
    }
  }
  try {
    cv::quality::QualityBRISQUE::create(model_file, range_file);
  } catch (const cv::Exception& e) {
    return Status::errorf("cannot load BRISQUE model {}: {}", model_file, e.what());
  }
  return BrisqueScorer(std::move(model_file), std::move(range_file));
}

double BrisqueScorer::score(const ImagePixels& image) const {
  // One model per thread and per scorer files (a pipeline may hold two BRISQUE stages).
  thread_local std::string loaded;
  thread_local cv::Ptr<cv::quality::QualityBRISQUE> model;
  if (!model || loaded != model_ + "|" + range_) {
    model = cv::quality::QualityBRISQUE::create(model_, range_);
    loaded = model_ + "|" + range_;
  }
  return model->compute(view(image))[0];
}

}  // namespace winnow
