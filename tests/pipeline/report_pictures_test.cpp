#include "pipeline/report_pictures.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "media/image_thumbnail.h"
#include "pipeline/report_html.h"
#include "test_support.h"

namespace winnow {
namespace {

using testing::TempDir;

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

SampledItem item(uint64_t key, size_t bytes, const std::string& id) {
  SampledItem s;
  s.key = key;
  s.id = id;
  s.score = 0.25;
  s.thumbnail_jpeg.assign(bytes, static_cast<char>('a' + key % 26));
  return s;
}

RunReport report_with_pictures(size_t max_bytes) {
  RunReport report;
  report.report_max_bytes = max_bytes;
  for (uint64_t k = 0; k < 6; ++k) {
    report.pictures["kept"].push_back(item(k, 10000 * (k + 1), "kept-" + std::to_string(k)));
    report.pictures["image_filter/low_aesthetic"].push_back(
        item(100 + k, 5000, "low-" + std::to_string(k)));
  }
  return report;
}

TEST(ReportPictures, EveryThumbnailWhenThePageHasRoom) {
  std::string html = render_report_html(report_with_pictures(4u << 20));
  EXPECT_EQ(count_of(html, "<img class=\"thumb\""), 12u);
  EXPECT_EQ(count_of(html, "left out, the largest first"), 0u);
  EXPECT_NE(html.find("<h3>image_filter/low_aesthetic</h3>"), std::string::npos);
  EXPECT_NE(html.find("<b>low-3</b> 0.25"), std::string::npos);
}

TEST(ReportPictures, ThePageStaysUnderMaxBytesDroppingTheLargestThumbnails) {
  size_t text_only = render_report_html(report_with_pictures(0)).size();
  // Room for about 100 kB of thumbnails: the 5 kB ones (6.7 kB in base64) and the smaller kept
  // ones fit, the largest kept ones go.
  size_t max_bytes = text_only + 100000;
  std::string html = render_report_html(report_with_pictures(max_bytes));
  EXPECT_LE(html.size(), max_bytes);
  size_t shown = count_of(html, "<img class=\"thumb\"");
  EXPECT_GT(shown, 6u);
  EXPECT_LT(shown, 12u);
  EXPECT_NE(html.find(std::to_string(12 - shown) + " thumbnail(s) left out"), std::string::npos);
  EXPECT_EQ(count_of(html, "alt=\"kept-5\""), 0u);  // the largest went first
  EXPECT_EQ(count_of(html, "alt=\"low-0\""), 1u);
  EXPECT_EQ(count_of(render_report_html(report_with_pictures(0)), "<img class=\"thumb\""), 0u);
}

ImagePixels solid(int w, int h, uint8_t r, uint8_t g, uint8_t b) {
  ImagePixels p;
  p.width = w;
  p.height = h;
  for (int i = 0; i < w * h; ++i) p.bgr.insert(p.bgr.end(), {b, g, r});
  return p;
}

// The page as a browser shows it: headless Chromium loads it (no network: it is
// self-contained), its DOM has every thumbnail, and its screenshot is not blank.
TEST(ReportPictures, RendersInHeadlessChromium) {
  if (std::system("command -v chromium >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "chromium not installed";
  }
  RunReport report;
  report.pictures["kept"] = {item(1, 0, "red"), item(2, 0, "green")};
  report.pictures["kept"][0].thumbnail_jpeg = thumbnail_jpeg(solid(200, 100, 220, 20, 20));
  report.pictures["kept"][1].thumbnail_jpeg = thumbnail_jpeg(solid(100, 200, 20, 200, 20));
  ASSERT_FALSE(report.pictures["kept"][1].thumbnail_jpeg.empty());
  TempDir dir;
  ASSERT_TRUE(write_report_html(report, dir.file("report.html")).is_ok());
  const std::string chromium = "chromium --headless --no-sandbox --disable-gpu --no-first-run "
                               "--user-data-dir=" + dir.file("profile") + " ";
  std::string dom;
  ASSERT_EQ(testing::run_command(chromium + "--dump-dom file://" + dir.file("report.html") +
                                 " 2>/dev/null", &dom), 0);
  EXPECT_EQ(count_of(dom, "<img class=\"thumb\""), 2u);
  ASSERT_EQ(testing::run_command(chromium + "--window-size=800,2000 --screenshot=" +
                                 dir.file("shot.png") + " file://" + dir.file("report.html") +
                                 " >/dev/null 2>&1"), 0);
  // The screenshot decoded by FFmpeg: some pixels are the thumbnails' red (not blank white).
  ASSERT_EQ(testing::run_command("ffmpeg -v error -i " + dir.file("shot.png") +
                                 " -f rawvideo -pix_fmt rgb24 -y " + dir.file("shot.rgb")), 0);
  std::string rgb = testing::read_file(dir.file("shot.rgb"));
  size_t red = 0, green = 0;
  for (size_t i = 0; i + 2 < rgb.size(); i += 3) {
    auto r = static_cast<uint8_t>(rgb[i]), g = static_cast<uint8_t>(rgb[i + 1]),
         b = static_cast<uint8_t>(rgb[i + 2]);
    red += r > 180 && g < 60 && b < 60;
    green += g > 160 && r < 60 && b < 60;
  }
  EXPECT_GT(red, 1000u);   // the red thumbnail is 128x64 at scale 1
  EXPECT_GT(green, 1000u);
}

}  // namespace
}  // namespace winnow
