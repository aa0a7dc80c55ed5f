#include "media/image_measures.h"

#include <fstream>
#include <memory>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/quality.hpp>

namespace winnow {

namespace {

cv::Mat view(const ImagePixels& image) {
  return cv::Mat(image.height, image.width, CV_8UC3, const_cast<uint8_t*>(image.bgr.data()));
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
