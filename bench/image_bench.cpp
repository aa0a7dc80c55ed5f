// Image throughput on one core, in images per CPU second: decode to the working size, the
// header filter (size, aspect ratio, bytes), the blur filter and pHash (own and mirrored; then
// the 10 hashes image_dedup indexes an image by: own and 4 corner crops, each mirrored too),
// against a baseline measured in the same run on the same bytes:
// OpenCV's cv::imdecode of each image at full size (IMREAD_COLOR), the least any pipeline that
// looks at pixels pays.
//
//   build/bench/image_bench [SHARDS=build/image_corpus/shards] [REPEATS=3]
//
// The corpus is scripts/make_image_corpus's (real pictures from this machine: desktop-base
// backgrounds up to 1920 x 1080, imageio's samples, icons of 64-512 px, with planted copies).
// Times are the thread's CPU time, best of REPEATS, fresh batches each repeat (no decode is
// reused between repeats).
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <vector>

#include "bench_support.h"
#include "io/webdataset_reader.h"
#include "media/decoded_images.h"
#include "media/image_measures.h"
#include "stages/builtin_stages.h"

namespace winnow {
namespace {

std::vector<std::unique_ptr<DocBatch>> make_batches(const std::vector<Payload>& images) {
  std::vector<std::unique_ptr<DocBatch>> batches;
  for (size_t i = 0; i < images.size(); ++i) {
    if (i % 256 == 0) batches.push_back(std::make_unique<DocBatch>());
    batches.back()->add_item(DocKey::make(0, i), ItemKind::kImage, "img", images[i], 0);
  }
  return batches;
}

double measure(const std::vector<Payload>& images, int repeats,
               const std::function<void(std::vector<std::unique_ptr<DocBatch>>&)>& pass) {
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    auto batches = make_batches(images);
    double start = bench::thread_cpu_seconds();
    pass(batches);
    best = std::min(best, bench::thread_cpu_seconds() - start);
  }
  return static_cast<double>(images.size()) / best;
}

int run(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "build/image_corpus/shards";
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  cv::setNumThreads(0);
  std::vector<std::string> shards;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".tar") shards.push_back(e.path().string());
  }
  std::sort(shards.begin(), shards.end());
  if (shards.empty()) {
    fmt::print(stderr, "no .tar shards in {} (scripts/make_image_corpus {})\n", dir,
               std::filesystem::path(dir).parent_path().string());
    return 1;
  }
  std::vector<Payload> images;
  uint64_t bytes = 0, pixels = 0;
  for (size_t s = 0; s < shards.size(); ++s) {
    WebDatasetReader reader(shards[s], static_cast<uint32_t>(s), {});
    while (auto batch = reader.next()) {
      for (size_t i = 0; i < batch->size(); ++i) {
        images.push_back(*batch->payload(i));
        bytes += images.back().size;
      }
    }
  }
  for (const Payload& p : images) {
    cv::Mat m = cv::imdecode(
        cv::Mat(1, static_cast<int>(p.size), CV_8U, const_cast<char*>(p.bytes().data())),
        cv::IMREAD_COLOR);
    pixels += static_cast<uint64_t>(m.cols) * m.rows;
  }
  fmt::print(
      "{} images from {} shards, mean {:.0f} KB, mean {:.2f} megapixels; 1 thread, CPU "
      "time, best of {}\n",
      images.size(), shards.size(), double(bytes) / images.size() / 1e3,
      double(pixels) / images.size() / 1e6, repeats);
  fmt::print("  {:<52} {:>10} {:>9}\n", "case", "images/s", "vs decode");
  uint64_t sink = 0;
  double base = measure(images, repeats, [&](auto& batches) {
    for (auto& batch : batches) {
      for (size_t i = 0; i < batch->size(); ++i) {
        std::string_view b = batch->payload(i)->bytes();
        cv::Mat m =
            cv::imdecode(cv::Mat(1, static_cast<int>(b.size()), CV_8U, const_cast<char*>(b.data())),
                         cv::IMREAD_COLOR);
        sink += static_cast<uint64_t>(m.cols);
      }
    }
  });
  auto row = [&](const std::string& name, double rate) {
    fmt::print("  {:<52} {:>10.1f} {:>8.3f}x\n", name, rate, rate / base);
  };
  row("baseline: cv::imdecode, full size", base);
  row("decode to working size (media/decoded_images.h)",
      measure(images, repeats, [&](auto& batches) {
        for (auto& batch : batches) {
          for (size_t i = 0; i < batch->size(); ++i) {
            if (const ImagePixels* p = decoded_image(*batch, i)) sink += p->width;
          }
        }
      }));
  ReasonTable reasons;
  auto size = bench::build_stage(image_size_filter_spec(),
                                 {{"min_width", int64_t{32}}, {"max_aspect_ratio", 4.0}}, reasons);
  auto blur = bench::build_stage(image_blur_filter_spec(), {{"min_variance", 0.0}}, reasons);
  row("decode + size + blur filters + pHash (own, mirrored)",
      measure(images, repeats, [&](auto& batches) {
        for (auto& batch : batches) {
          if (!size->process(*batch).is_ok() || !blur->process(*batch).is_ok()) std::abort();
          for (size_t i = 0; i < batch->size(); ++i) {
            if (const ImagePixels* p = decoded_image(*batch, i)) {
              sink += perceptual_hash(*p) ^ perceptual_hash(*p, true);
            }
          }
        }
      }));
  row("decode + filters + image_dedup's 10 pHashes", measure(images, repeats, [&](auto& batches) {
        for (auto& batch : batches) {
          if (!size->process(*batch).is_ok() || !blur->process(*batch).is_ok()) std::abort();
          for (size_t i = 0; i < batch->size(); ++i) {
            if (const ImagePixels* p = decoded_image(*batch, i)) {
              for (uint64_t h : perceptual_hashes(*p, true, 0.03)) sink += h;
            }
          }
        }
      }));
  if (sink == 42) fmt::print(" ");
  return 0;
}

}  // namespace
}  // namespace winnow

int main(int argc, char** argv) { return winnow::run(argc, argv); }
