// The one place winnow calls OpenCV's imgcodecs, built as a module of its own
// (libwinnow_image_codecs.so) that media/image_pixels.cpp loads on the first decode.
// libopencv_imgcodecs pulls in GDAL and about 120 more libraries whose start-up costs ~90 ms of
// CPU in every process that links it; linked into the winnow command, every run paid it,
// pipelines without a single image included.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <vector>

// cv::imdecode of `size` bytes with IMREAD_* `flags` into `out`; false when no decoder reads
// them (an empty image), never an exception across the module boundary.
extern "C" __attribute__((visibility("default"))) bool winnow_imdecode(const void* data,
                                                                       size_t size, int flags,
                                                                       cv::Mat* out) {
  try {
    cv::Mat raw(1, static_cast<int>(size), CV_8U, const_cast<void*>(data));  // only read
    *out = cv::imdecode(raw, flags);
    return !out->empty();
  } catch (const cv::Exception&) {
    out->release();
    return false;
  }
}

// cv::imencode of an 8-bit BGR `image` as a baseline JPEG of `quality` (1-100) into `out`
// (its bytes, new[]'d: the caller frees them with winnow_free_encoded); false when it fails.
extern "C" __attribute__((visibility("default"))) bool winnow_imencode_jpeg(const cv::Mat* image,
                                                                            int quality,
                                                                            unsigned char** out,
                                                                            size_t* size) {
  try {
    std::vector<unsigned char> buffer;
    if (!cv::imencode(".jpg", *image, buffer, {cv::IMWRITE_JPEG_QUALITY, quality})) return false;
    *out = new unsigned char[buffer.size()];
    std::copy(buffer.begin(), buffer.end(), *out);
    *size = buffer.size();
    return true;
  } catch (const cv::Exception&) {
    return false;
  }
}

extern "C" __attribute__((visibility("default"))) void winnow_free_encoded(unsigned char* bytes) {
  delete[] bytes;
}
