// report.html renders: a real run's report is opened in headless Chromium and the screenshot's
// coloured pixels (chart lines, bars, legend swatches; text and grid are grey) are counted.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <stdexcept>

#include "pipeline/pipeline_fixture.h"
#include "pipeline/report_html.h"

namespace winnow::testing {
namespace {

namespace fs = std::filesystem;
const char* kChromium = "/usr/bin/chromium";

struct Image {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgb;  // 3 bytes per pixel
};

uint32_t be32(const std::string& s, size_t at) {
  return (uint32_t(uint8_t(s[at])) << 24) | (uint32_t(uint8_t(s[at + 1])) << 16) |
         (uint32_t(uint8_t(s[at + 2])) << 8) | uint32_t(uint8_t(s[at + 3]));
}

// Decodes the PNGs Chromium writes: 8-bit RGB or RGBA, not interlaced.
Image decode_png(const std::string& png) {
  if (png.size() < 8 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0)
    throw std::runtime_error("not a PNG");
  Image img;
  int channels = 0;
  std::string idat;
  for (size_t at = 8; at + 8 <= png.size();) {
    uint32_t length = be32(png, at);
    std::string type = png.substr(at + 4, 4);
    if (type == "IHDR") {
      img.width = be32(png, at + 8);
      img.height = be32(png, at + 12);
      int depth = uint8_t(png[at + 16]), colour = uint8_t(png[at + 17]),
          interlace = uint8_t(png[at + 20]);
      if (depth != 8 || interlace != 0 || (colour != 2 && colour != 6))
        throw std::runtime_error("unsupported PNG");
      channels = colour == 2 ? 3 : 4;
    } else if (type == "IDAT") {
      idat += png.substr(at + 8, length);
    }
    at += 12 + length;
  }
  size_t stride = size_t(img.width) * channels;
  std::vector<uint8_t> raw((stride + 1) * img.height);
  z_stream z{};
  inflateInit(&z);
  z.next_in = reinterpret_cast<Bytef*>(idat.data());
  z.avail_in = static_cast<uInt>(idat.size());
  z.next_out = raw.data();
  z.avail_out = static_cast<uInt>(raw.size());
  int rc = inflate(&z, Z_FINISH);
  inflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("bad PNG data");
  std::vector<uint8_t> pixels(stride * img.height);
  for (uint32_t y = 0; y < img.height; ++y) {
    uint8_t filter = raw[y * (stride + 1)];
    const uint8_t* in = &raw[y * (stride + 1) + 1];
    uint8_t* out = &pixels[y * stride];
    const uint8_t* up = y ? &pixels[(y - 1) * stride] : nullptr;
    for (size_t x = 0; x < stride; ++x) {
      int a = x >= size_t(channels) ? out[x - channels] : 0;
      int b = up ? up[x] : 0;
      int c = (up && x >= size_t(channels)) ? up[x - channels] : 0;
      int pred = 0;
      switch (filter) {
        case 0:
          pred = 0;
          break;
        case 1:
          pred = a;
          break;
        case 2:
          pred = b;
          break;
        case 3:
          pred = (a + b) / 2;
          break;
        case 4: {
          int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          pred = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
          break;
        }
        default:
          throw std::runtime_error("bad PNG filter");
      }
      out[x] = static_cast<uint8_t>(in[x] + pred);
    }
  }
  img.rgb.reserve(size_t(img.width) * img.height * 3);
  for (size_t p = 0; p < size_t(img.width) * img.height; ++p) {
    for (int k = 0; k < 3; ++k) img.rgb.push_back(pixels[p * channels + k]);
  }
  return img;
}

// Pixels of a clear colour: chart strokes and bars, never the white page, grey grid or text.
size_t coloured_pixels(const Image& img) {
  size_t n = 0;
  for (size_t p = 0; p + 2 < img.rgb.size(); p += 3) {
    int r = img.rgb[p], g = img.rgb[p + 1], b = img.rgb[p + 2];
    if (std::max({r, g, b}) - std::min({r, g, b}) > 60) ++n;
  }
  return n;
}

Image screenshot(const std::string& html_path, const std::string& png_path) {
  std::string command = std::string("timeout 60 ") + kChromium +
                        " --headless --no-sandbox --disable-gpu --hide-scrollbars "
                        "--window-size=1000,2600 --screenshot=" +
                        png_path + " file://" + html_path + " >/dev/null 2>&1";
  int rc = std::system(command.c_str());
  if (rc != 0 || !fs::exists(png_path)) throw std::runtime_error("chromium failed: " + command);
  return decode_png(read_file(png_path));
}

TEST(ReportHtml, RendersChartsInHeadlessChromium) {
  if (!fs::exists(kChromium)) GTEST_SKIP() << "no " << kChromium;
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 4, 2500);
  auto config = load_config(R"(
output: {format: jsonl}
autoscale: {interval_ms: 10}
fuse: false
stages:
  - {stage: text_length, name: length, min_chars: 60}
  - {stage: sample, fraction: 0.7}
)");
  // Unfused, so that each chart draws a line per step (read, parse, length, sample, encode,
  // write) and the queues between them fill: fused, the one step's lines lie near the axes
  // and how many pixels they colour depends on how long the run took.
  RunOptions options;
  options.inputs = inputs;
  options.output = dir.file("out");
  options.threads = 2;
  options.batch_size = 16;
  RunReport report = run_pipeline(config, options);
  ASSERT_TRUE(report.status.is_ok()) << report.status.message();
  ASSERT_GE(report.samples.size(), 3u);
  std::string html = read_file(dir.file("out/report.html"));
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // nothing fetched
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);

  Image full = screenshot(dir.file("out/report.html"), dir.file("full.png"));
  EXPECT_EQ(full.width, 1000u);
  // The same report without samples: funnel and legends only, the time charts empty.
  RunReport bare = report;
  bare.samples.clear();
  write_file(dir.file("bare.html"), render_report_html(bare));
  Image empty = screenshot(dir.file("bare.html"), dir.file("bare.png"));

  size_t drawn = coloured_pixels(full);
  size_t baseline = coloured_pixels(empty);
  EXPECT_GT(baseline, 1000u);  // the funnel's bars and the legends
  // Four time charts, a polyline per step in each: thousands more coloured pixels.
  EXPECT_GT(drawn, baseline + 4000) << drawn << " vs " << baseline;
}

// What a user needs to see why items went: a few examples per drop reason and error kind with a
// link to the file that holds them, each dedup step's groups and S-curve, every pass, names
// never cut, and time ticks that make sense for a run under a second.
TEST(ReportHtml, ShowsExamplesDedupPassesAndWholeNames) {
  TempDir dir;
  auto inputs = write_corpus(dir.path(), 2, 300);
  write_file(dir.file("bad.jsonl"), "{\"text\": \"fine\"}\nnot json\n");
  inputs.push_back(dir.file("bad.jsonl"));
  auto config = load_config(R"(
on_error: skip
stages:
  - {stage: text_length, name: a_stage_with_a_really_long_name_indeed, min_chars: 60}
  - {stage: exact_dedup}
  - {stage: fuzzy_dedup}
)");
  RunOptions options;
  options.inputs = inputs;
  options.output = dir.file("out");
  options.threads = 2;
  RunReport report = run_pipeline(config, options);
  ASSERT_TRUE(report.status.is_ok()) << report.status.message();
  std::string html = read_file(dir.file("out/report.html"));
  // Examples per reason, linked to rejected/ and errors/ files that exist.
  EXPECT_THAT(html, ::testing::HasSubstr("<h3>a_stage_with_a_really_long_name_indeed/too_short ("));
  EXPECT_THAT(html, ::testing::HasSubstr("<h3>malformed_json (1)</h3>"));
  std::regex link("<a href=\"([^\"]+)\">");
  size_t links = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), link); it != std::sregex_iterator();
       ++it) {
    ++links;
    EXPECT_TRUE(fs::exists(dir.file("out/" + (*it)[1].str()))) << (*it)[1].str();
  }
  EXPECT_GT(links, 2u);
  // The dedup steps' results, with the S-curve.
  EXPECT_THAT(html, ::testing::HasSubstr("<h2>Deduplication</h2>"));
  EXPECT_THAT(html, ::testing::HasSubstr("P(caught) by Jaccard"));
  // Every pass, on a time line.
  EXPECT_THAT(html, ::testing::HasSubstr("Passes over the data"));
  EXPECT_THAT(html, ::testing::HasSubstr("identify fuzzy_dedup"));
  // A long name is written whole (never cut with an ellipsis).
  EXPECT_EQ(html.find("\u2026</text>"), std::string::npos);
  // Time ticks: no two alike on one axis, whatever the run's length (this one is short).
  std::regex chart("<svg class=\"chart\"[^]*?</svg>");
  std::regex tick(">([0-9.]+)s</text>");
  for (auto c = std::sregex_iterator(html.begin(), html.end(), chart); c != std::sregex_iterator();
       ++c) {
    std::string svg = c->str();
    std::set<std::string> seen;
    for (auto t = std::sregex_iterator(svg.begin(), svg.end(), tick); t != std::sregex_iterator();
         ++t) {
      if (svg.find("Passes over the data") != std::string::npos) break;
      EXPECT_TRUE(seen.insert((*t)[1].str()).second) << "tick " << (*t)[1].str() << " twice";
    }
  }
}

}  // namespace
}  // namespace winnow::testing
