// make_image_corpus: the image half of scripts/make_image_corpus. Reads candidate image paths
// (one a line, on stdin), keeps up to MAX of them that are distinct pictures, and writes them
// with planted near-duplicates to OUT/images/, listed in OUT/truth.tsv:
//   <id> TAB <family> TAB <variant> TAB <source path>
// A family is one original and its variants: resized (to 60 %), re-encoded as JPEG at quality
// 35, cropped by 3 % (of width and height, from the top left corner) and mirrored left to
// right, planted for every third original. Originals are written byte for byte as they are on
// this machine; large pictures (both sides 512 px or more: wallpapers, photographs) also give
// their four quarters as pictures of their own (PNG).
//
// "Distinct" must be a fact about the corpus: icon themes ship one picture in several sizes
// and colours, so a candidate is left out when its pHash (or its mirrored pHash) lies within
// MARGIN bits (18) of one already kept; the margin is well above image_dedup's threshold (10),
// so a merge of two families in the test is the dedup's error, not the corpus's. (Icons are
// where pHash is weakest: shapes centred on a flat background. Of ~1,400 icons of 64 px or more
// only a few dozen are that far apart.)
#include <algorithm>
#include <bit>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <opencv2/core.hpp>
#include <opencv2/img_hash.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

uint64_t phash(const cv::Mat& image) {
  static cv::Ptr<cv::img_hash::PHash> hasher = cv::img_hash::PHash::create();
  cv::Mat hash;
  hasher->compute(image, hash);
  uint64_t bits = 0;
  for (int i = 0; i < 8; ++i) bits |= uint64_t{hash.at<uint8_t>(0, i)} << (8 * i);
  return bits;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: make_image_corpus OUT [MAX=300] [MARGIN=18] < paths\n";
    return 2;
  }
  cv::setNumThreads(0);
  const fs::path out = argv[1];
  const size_t max_images = argc > 2 ? std::stoul(argv[2]) : 300;
  const int margin = argc > 3 ? std::stoi(argv[3]) : 18;
  fs::create_directories(out / "images");
  std::vector<std::string> paths;
  for (std::string line; std::getline(std::cin, line);) {
    if (!line.empty()) paths.push_back(line);
  }
  std::sort(paths.begin(), paths.end());
  std::vector<uint64_t> kept_hashes;
  std::ofstream truth(out / "truth.tsv");
  size_t kept = 0;
  std::vector<int> jpeg_quality = {cv::IMWRITE_JPEG_QUALITY, 35};
  // Candidates: each image as it is, then, for large ones (both sides 512 px or more), the
  // four quarters, each a picture of its own written as PNG.
  struct Candidate {
    std::string path;
    std::string bytes;  // the file's bytes (empty for a quarter: encoded below)
    cv::Mat image;
  };
  std::vector<Candidate> candidates;
  for (const std::string& path : paths) {
    std::string bytes = read_bytes(path);
    cv::Mat image = cv::imdecode(cv::Mat(1, static_cast<int>(bytes.size()), CV_8U, bytes.data()),
                                 cv::IMREAD_COLOR);
    if (image.empty() || std::min(image.cols, image.rows) < 64) continue;
    candidates.push_back({path, bytes, image});
  }
  const size_t whole = candidates.size();
  for (size_t c = 0; c < whole; ++c) {
    cv::Mat image = candidates[c].image;
    if (std::min(image.cols, image.rows) < 512) continue;
    for (int q = 0; q < 4; ++q) {
      cv::Rect r((q % 2) * image.cols / 2, (q / 2) * image.rows / 2, image.cols / 2,
                 image.rows / 2);
      candidates.push_back({candidates[c].path + "#q" + std::to_string(q), "", image(r).clone()});
    }
  }
  for (Candidate& candidate : candidates) {
    if (kept >= max_images) break;
    const std::string& path = candidate.path;
    cv::Mat image = candidate.image;
    std::string bytes = candidate.bytes;
    if (bytes.empty()) {
      std::vector<uchar> encoded;
      cv::imencode(".png", image, encoded);
      bytes.assign(encoded.begin(), encoded.end());
    }
    cv::Mat mirrored;
    cv::flip(image, mirrored, 1);
    uint64_t own = phash(image), flipped = phash(mirrored);
    bool near = false;
    for (uint64_t h : kept_hashes) {
      if (std::popcount(h ^ own) <= margin || std::popcount(h ^ flipped) <= margin) near = true;
    }
    if (near) continue;
    kept_hashes.push_back(own);
    const std::string family = std::to_string(kept);
    char id[32];
    std::snprintf(id, sizeof id, "f%04zu", kept);
    std::string ext = candidate.bytes.empty() ? ".png" : fs::path(path).extension().string();
    if (ext == ".jpeg") ext = ".jpg";
    std::ofstream(out / "images" / (std::string(id) + ext), std::ios::binary) << bytes;
    truth << id << '\t' << family << "\toriginal\t" << path << '\n';
    if (kept % 3 == 0) {
      cv::Mat resized, cropped;
      cv::resize(image, resized,
                 cv::Size(std::max(1, image.cols * 6 / 10), std::max(1, image.rows * 6 / 10)), 0, 0,
                 cv::INTER_AREA);
      int dx = std::max(1, image.cols * 3 / 100), dy = std::max(1, image.rows * 3 / 100);
      cropped = image(cv::Rect(dx, dy, image.cols - dx, image.rows - dy)).clone();
      struct Variant {
        const char* name;
        const cv::Mat* pixels;
        const char* ext;
      };
      for (const Variant& v :
           {Variant{"resized", &resized, ".png"}, Variant{"reencoded", &image, ".jpg"},
            Variant{"cropped", &cropped, ".png"}, Variant{"mirrored", &mirrored, ".png"}}) {
        std::vector<uchar> encoded;
        cv::imencode(v.ext, *v.pixels, encoded,
                     std::string(v.ext) == ".jpg" ? jpeg_quality : std::vector<int>());
        std::string vid = std::string(id) + "_" + v.name;
        std::ofstream(out / "images" / (vid + v.ext), std::ios::binary)
            .write(reinterpret_cast<const char*>(encoded.data()),
                   static_cast<std::streamsize>(encoded.size()));
        truth << vid << '\t' << family << '\t' << v.name << '\t' << path << '\n';
      }
    }
    ++kept;
  }
  std::cerr << "make_image_corpus: " << kept << " originals from " << paths.size()
            << " candidates\n";
  return kept > 0 ? 0 : 1;
}
