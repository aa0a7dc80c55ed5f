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
// reused between repeats). The last rows make a model's input (full decode + CLIP's
// preprocessing to 224, as image_embed does), beside the peer's own code on the same bytes:
// Pillow + transformers' steps in Python, timed by the script's own CPU clock.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
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
#include "media/image_signature.h"
#include "media/vision_preprocessor.h"
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

  // A model's input: the full-size decode, then CLIP's preprocessing (shortest edge 224,
  // Pillow's bicubic resize, centre crop, normalise) as image_embed does it; and the peer's
  // own code on the same bytes: Pillow's decode and resize with transformers' steps in numpy
  // (the CPU time of the Python loop alone, measured by the script itself).
  VisionPreprocessing clip;
  clip.shortest_edge = 224;
  clip.center_crop = true;
  clip.crop_width = clip.crop_height = 224;
  const float mean[3] = {0.48145466f, 0.4578275f, 0.40821073f};
  const float std[3] = {0.26862954f, 0.26130258f, 0.27577711f};
  std::copy(mean, mean + 3, clip.mean);
  std::copy(std, std + 3, clip.std);
  VisionPreprocessor preprocessor(clip);
  std::vector<float> tensor(3 * 224 * 224);
  row("full decode + CLIP preprocessing to 224 (image_embed)",
      measure(images, repeats, [&](auto& batches) {
        ImagePixels full;
        for (auto& batch : batches) {
          for (size_t i = 0; i < batch->size(); ++i) {
            if (decode_full_image(batch->payload(i)->bytes(), full, nullptr)) {
              preprocessor.to_tensor(full, tensor.data());
              sink += static_cast<uint64_t>(tensor[0] > 0);
            }
          }
        }
      }));
  const std::string work = std::filesystem::temp_directory_path().string() + "/winnow_image_bench";
  std::filesystem::create_directories(work);
  std::string list;
  for (size_t i = 0; i < images.size(); ++i) {
    const std::string path = fmt::format("{}/{}", work, i);
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(images[i].bytes().data(), 1, images[i].size, f);
    std::fclose(f);
    list += path + "\n";
  }
  const std::string script = R"(
import sys, time
import numpy as np
from PIL import Image
paths = open(sys.argv[1]).read().split()
mean = np.array([0.48145466, 0.4578275, 0.40821073], dtype=np.float32)
std = np.array([0.26862954, 0.26130258, 0.27577711], dtype=np.float32)
best = 1e30
for _ in range(int(sys.argv[2])):
    start = time.process_time()
    for p in paths:
        im = Image.open(p).convert("RGB")
        w, h = im.size
        s, l = (w, h) if w <= h else (h, w)
        nl = int(224 * l / s)
        im = im.resize((224, nl) if w <= h else (nl, 224), resample=Image.BICUBIC)
        a = np.array(im)
        t, le = (a.shape[0] - 224) // 2, (a.shape[1] - 224) // 2
        a = a[t:t + 224, le:le + 224]
        a = (a.astype(np.float64) * (1 / 255)).astype(np.float32)
        a = ((a - mean) / std).transpose(2, 0, 1)
    best = min(best, time.process_time() - start)
print(len(paths) / best)
)";
  {
    std::FILE* f = std::fopen((work + "/list.txt").c_str(), "w");
    std::fputs(list.c_str(), f);
    std::fclose(f);
    f = std::fopen((work + "/pil.py").c_str(), "w");
    std::fputs(script.c_str(), f);
    std::fclose(f);
  }
  const std::string command =
      fmt::format("/usr/bin/python3 {}/pil.py {}/list.txt {}", work, work, repeats);
  if (std::FILE* pipe = popen(command.c_str(), "r")) {
    double rate = 0;
    if (std::fscanf(pipe, "%lf", &rate) == 1) {
      row("peer: Pillow decode + transformers' CLIP steps (Python)", rate);
    }
    pclose(pipe);
  }
  std::filesystem::remove_all(work);
  if (sink == 42) fmt::print(" ");
  return 0;
}

}  // namespace
}  // namespace winnow

int main(int argc, char** argv) { return winnow::run(argc, argv); }
