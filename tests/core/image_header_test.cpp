// ImageHeader against file(1) (libmagic) as the independent reader of image headers: every
// real image below must give the type and the width x height file(1) prints; cut or damaged
// headers give nothing.
#include "core/image_header.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "test_support.h"

namespace winnow::testing {
namespace {

// The dimensions file(1) reports ("451 x 300", "1920x1080").
std::pair<uint32_t, uint32_t> file_dimensions(const std::string& path) {
  std::string out;
  EXPECT_EQ(run_command("file -b '" + path + "'", &out), 0);
  std::smatch m;
  std::regex dims(R"((?:^|[ ,])(\d+) ?x ?(\d+)(?:,|$|\n| ))");
  std::string::const_iterator from = out.begin();
  std::pair<uint32_t, uint32_t> last{0, 0};
  // The last "W x H" in the line: JPEG's Exif fields ("density 37x37") come before it.
  while (std::regex_search(from, out.cend(), m, dims)) {
    last = {static_cast<uint32_t>(std::stoul(m[1])), static_cast<uint32_t>(std::stoul(m[2]))};
    from = m[0].second;
  }
  return last;
}

TEST(ImageHeader, DimensionsMatchFileCommand) {
  const std::vector<std::pair<std::string, std::string>> images = {
      {"/usr/lib/python3/dist-packages/imageio/resources/images/chelsea.png", "image/png"},
      {"/usr/lib/python3/dist-packages/imageio/resources/images/newtonscradle.gif", "image/gif"},
      {"/usr/share/plasma/look-and-feel/org.debian.desktop/contents/previews/"
       "fullscreenpreview.jpg",
       "image/jpeg"},
      {"/usr/share/desktop-base/emerald-theme/grub/grub-16x9.png", "image/png"},
      {"/usr/share/doc/fp-compiler/3.2.2/palmos/pilrc.bmp", "image/bmp"},
  };
  int checked = 0;
  for (const auto& [path, type] : images) {
    if (!std::filesystem::exists(path)) continue;
    auto header = ImageHeader::parse(read_file(path));
    ASSERT_TRUE(header) << path;
    EXPECT_EQ(header->media_type, type) << path;
    auto [w, h] = file_dimensions(path);
    EXPECT_EQ(header->width, w) << path;
    EXPECT_EQ(header->height, h) << path;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "none of the sample images is installed";
}

TEST(ImageHeader, HandMadeHeaders) {
  using namespace std::string_literals;
  // WebP lossless (VP8L): 14-bit width - 1 and height - 1 after the 0x2f signature.
  uint32_t bits = (640 - 1) | ((480 - 1) << 14);
  std::string vp8l = "RIFF\x20\0\0\0WEBPVP8L\x10\0\0\0\x2f"s;
  for (int i = 0; i < 4; ++i) vp8l.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
  vp8l.resize(40, '\0');
  auto webp = ImageHeader::parse(vp8l);
  ASSERT_TRUE(webp);
  EXPECT_EQ(webp->width, 640u);
  EXPECT_EQ(webp->height, 480u);
  // A PNG claiming 100000 x 100000 (a decompression bomb's header) parses: refusing it is the
  // reader's job, from pixels().
  std::string png = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\x01\x86\xa0\0\x01\x86\xa0\x08\x02\0\0\0"s;
  auto bomb = ImageHeader::parse(png);
  ASSERT_TRUE(bomb);
  EXPECT_EQ(bomb->pixels(), 10000000000u);
}

TEST(ImageHeader, DamagedHeadersGiveNothing) {
  using namespace std::string_literals;
  EXPECT_FALSE(ImageHeader::parse("this is text"));
  EXPECT_FALSE(ImageHeader::parse("\x89PNG\r\n\x1a\n\0\0"s));               // cut short
  EXPECT_FALSE(ImageHeader::parse("\xff\xd8\xff\xe0\0\x10JFIF\0"s));        // no frame
  EXPECT_FALSE(ImageHeader::parse("\xff\xd8\xff\xda\0\x08\0\0\0\0\0\0"s));  // scan first
  std::string zero = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\0\0\0\0\x10\x08\x02\0\0\0"s;
  EXPECT_FALSE(ImageHeader::parse(zero));  // zero width
  std::string chelsea = "/usr/lib/python3/dist-packages/imageio/resources/images/chelsea.png";
  if (std::filesystem::exists(chelsea)) {
    EXPECT_FALSE(ImageHeader::parse(read_file(chelsea).substr(0, 20)));
  }
}

}  // namespace
}  // namespace winnow::testing
