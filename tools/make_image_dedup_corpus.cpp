// make_image_dedup_corpus: the image half of scripts/make_image_dedup_corpus, the corpus that
// measures image_dedup's precision and recall (issue 30). Reads "<kind> TAB <path>" lines on
// stdin (kind: wallpaper, photograph or texture), writes OUT/images/ and OUT/truth.tsv:
//   <id> TAB <family> TAB <variant> TAB <kind> TAB <mirror distance> TAB <source>
// Every family is one distinct picture; its planted copies share its family number. The mirror
// distance is the Hamming distance between the pHashes (OpenCV's, of the picture shrunk to
// 32x32 by area averaging) of the picture and of its mirror image: a picture whose low
// frequencies are nearly symmetric (vertical stripes) is its own mirrored copy for pHash,
// whether image_dedup looks for mirrored copies or not.
//
// Distinct pictures, chosen to defeat a perceptual hash alone:
//   - each wallpaper, photograph and figure as it is (its longer side brought to 512 px at most, the working size image_dedup decodes to);
//   - each texture as its four quarters, four pictures of one material whose low frequencies
//     (all that pHash sees) are weak and alike;
//   - flat pictures of five colours (white, black, grey, red, blue): every pHash of a flat
//     picture is the same, whatever its colour;
//   - the light and dark versions of each GNOME wallpaper: one drawing, two palettes.
// A picture's kind says what it is, except that one whose grey levels vary by less than 1 (a
// standard deviation, over the whole picture) is "flat" and one under 8 is "faint" (small
// icons on a flat colour): image_dedup refuses to match either (their pHash is noise), so the
// tests and bench/README.md count a faint picture's planted copies apart.
// Planted copies of every picture that is not flat: resized to 60 %, re-encoded as JPEG at
// quality 55, cropped by 3 % of width and height (from the top-left corner, the bottom-right
// corner or evenly round the centre, in turn), and mirrored left to right.
#include <algorithm>
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

constexpr int kLongestSide = 512;

struct Picture {
  std::string kind;
  std::string source;
  cv::Mat pixels;  // 8-bit BGR
};

cv::Mat fit(const cv::Mat& image) {
  const int longest = std::max(image.cols, image.rows);
  if (longest <= kLongestSide) return image;
  cv::Mat small;
  const double scale = static_cast<double>(kLongestSide) / longest;
  cv::resize(image, small,
             cv::Size(std::max(1, static_cast<int>(image.cols * scale + 0.5)),
                      std::max(1, static_cast<int>(image.rows * scale + 0.5))),
             0, 0, cv::INTER_AREA);
  return small;
}

// Transparent pixels (logos) over white, as a viewer shows them.
cv::Mat to_bgr(const cv::Mat& decoded) {
  if (decoded.channels() == 3) return decoded;
  cv::Mat bgr;
  bgr.create(decoded.rows, decoded.cols, CV_8UC3);
  for (int y = 0; y < decoded.rows; ++y) {
    for (int x = 0; x < decoded.cols; ++x) {
      const cv::Vec4b p = decoded.at<cv::Vec4b>(y, x);
      cv::Vec3b& q = bgr.at<cv::Vec3b>(y, x);
      for (int c = 0; c < 3; ++c) q[c] = static_cast<uchar>((p[c] * p[3] + 255 * (255 - p[3])) / 255);
    }
  }
  return bgr;
}

int mirror_distance(const cv::Mat& image) {
  static cv::Ptr<cv::img_hash::PHash> hasher = cv::img_hash::PHash::create();
  cv::Mat small, mirrored, own_hash, mirrored_hash;
  cv::resize(image, small, cv::Size(32, 32), 0, 0, cv::INTER_AREA);
  cv::flip(small, mirrored, 1);
  hasher->compute(small, own_hash);
  hasher->compute(mirrored, mirrored_hash);
  return static_cast<int>(cv::norm(own_hash, mirrored_hash, cv::NORM_HAMMING));
}

void write_image(const fs::path& path, const cv::Mat& pixels, int jpeg_quality = 0) {
  std::vector<uchar> bytes;
  if (jpeg_quality > 0) {
    cv::imencode(".jpg", pixels, bytes, {cv::IMWRITE_JPEG_QUALITY, jpeg_quality});
  } else {
    cv::imencode(".png", pixels, bytes);
  }
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: make_image_dedup_corpus OUT < 'kind<TAB>path' lines\n";
    return 2;
  }
  cv::setNumThreads(0);
  const fs::path out = argv[1];
  fs::create_directories(out / "images");
  std::vector<Picture> pictures;
  for (std::string line; std::getline(std::cin, line);) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    Picture picture{line.substr(0, tab), line.substr(tab + 1), {}};
    cv::Mat decoded = cv::imread(picture.source, cv::IMREAD_UNCHANGED);
    // Only an 8-bit picture with alpha needs it; everything else as OpenCV makes it colour.
    if (decoded.empty() || decoded.depth() != CV_8U || decoded.channels() != 4) {
      decoded = cv::imread(picture.source, cv::IMREAD_COLOR);
    }
    if (decoded.empty()) {
      std::cerr << "make_image_dedup_corpus: cannot read " << picture.source << "\n";
      return 1;
    }
    cv::Mat image = fit(to_bgr(decoded));
    if (picture.kind == "texture") {
      for (int q = 0; q < 4; ++q) {
        cv::Rect quarter((q % 2) * image.cols / 2, (q / 2) * image.rows / 2, image.cols / 2,
                         image.rows / 2);
        pictures.push_back({"texture", picture.source + "#q" + std::to_string(q),
                            image(quarter).clone()});
      }
    } else {
      cv::Mat grey;
      cv::Scalar mean, deviation;
      cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
      cv::meanStdDev(grey, mean, deviation);
      if (deviation[0] < 1) {
        picture.kind = "flat";
      } else if (deviation[0] < 8) {
        picture.kind = "faint";
      }
      picture.pixels = image;
      pictures.push_back(std::move(picture));
    }
  }
  const std::pair<const char*, cv::Scalar> flats[] = {
      {"white", {255, 255, 255}}, {"black", {0, 0, 0}},   {"grey", {128, 128, 128}},
      {"red", {40, 40, 220}},     {"blue", {200, 90, 30}},
  };
  for (const auto& [name, colour] : flats) {
    pictures.push_back({"flat", std::string("flat ") + name, cv::Mat(240, 320, CV_8UC3, colour)});
  }

  std::ofstream truth(out / "truth.tsv");
  int planted = 0;
  for (size_t family = 0; family < pictures.size(); ++family) {
    const Picture& picture = pictures[family];
    const cv::Mat& image = picture.pixels;
    char id[16];
    std::snprintf(id, sizeof id, "d%03zu", family);
    const int asymmetry = mirror_distance(image);
    auto note = [&](const std::string& name, const std::string& variant) {
      truth << name << '\t' << family << '\t' << variant << '\t' << picture.kind << '\t'
            << asymmetry << '\t' << picture.source << '\n';
    };
    write_image(out / "images" / (std::string(id) + ".png"), image);
    note(id, "original");
    if (picture.kind == "flat") continue;
    cv::Mat resized, mirrored;
    cv::resize(image, resized,
               cv::Size(std::max(1, image.cols * 6 / 10), std::max(1, image.rows * 6 / 10)), 0, 0,
               cv::INTER_AREA);
    cv::flip(image, mirrored, 1);
    const int dx = std::max(1, image.cols * 3 / 100), dy = std::max(1, image.rows * 3 / 100);
    cv::Rect keep;
    switch (planted++ % 3) {
      case 0:  // the top-left corner goes
        keep = cv::Rect(dx, dy, image.cols - dx, image.rows - dy);
        break;
      case 1:  // the bottom-right corner goes
        keep = cv::Rect(0, 0, image.cols - dx, image.rows - dy);
        break;
      default:  // half of it on each side
        keep = cv::Rect(dx / 2, dy / 2, image.cols - dx, image.rows - dy);
        break;
    }
    const cv::Mat cropped = image(keep).clone();
    const std::string base = id;
    write_image(out / "images" / (base + "_resized.png"), resized);
    note(base + "_resized", "resized");
    write_image(out / "images" / (base + "_reencoded.jpg"), image, 55);
    note(base + "_reencoded", "reencoded");
    write_image(out / "images" / (base + "_cropped.png"), cropped);
    note(base + "_cropped", "cropped");
    write_image(out / "images" / (base + "_mirrored.png"), mirrored);
    note(base + "_mirrored", "mirrored");
  }
  std::cerr << "make_image_dedup_corpus: " << pictures.size() << " distinct pictures, " << planted
            << " with planted copies\n";
  return pictures.empty() ? 1 : 0;
}
