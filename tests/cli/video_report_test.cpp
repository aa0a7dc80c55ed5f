// report.html of a video run (issue 38): examples/video.yaml's stages on the synthetic video
// corpus (tools/make_video_corpus). The page shows kept and dropped clips as contact sheets (the
// preview transcode_clips wrote for kept clips, frames sampled from the source for clips a
// filter dropped) with their span, and per sampled source video a timeline strip whose boxes are
// exactly that video's clips, kept green and dropped red, as the output and rejected/ files say.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>

#include "test_support.h"

namespace winnow::testing {
namespace {

namespace fs = std::filesystem;

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Clip id -> (source file name, kept), from the output and rejected/ rows.
std::map<std::string, std::pair<std::string, bool>> clips_of(const TempDir& dir) {
  std::map<std::string, std::pair<std::string, bool>> clips;
  simdjson::dom::parser parser;
  for (const char* folder : {"out", "out/rejected"}) {
    if (!fs::exists(dir.file(folder))) continue;
    for (const auto& e : fs::directory_iterator(dir.file(folder))) {
      if (!e.path().filename().string().ends_with(".jsonl.zst")) continue;
      for (const std::string& line : split_lines(read_decompressed(e.path().string()))) {
        simdjson::dom::element row = parser.parse(line);
        std::string_view source;
        double start = 0;
        if (row["source_video"].get(source) || row["span_start_s"].get(start)) {
          continue;  // a video dropped whole, not a clip
        }
        clips[std::string(row["id"].get_string().value())] = {
            fs::path(std::string(source)).filename().string(), std::string_view(folder) == "out"};
      }
    }
  }
  return clips;
}

TEST(VideoReport, ContactSheetsAndTimelinesNameTheRunsClips) {
  TempDir dir;
  std::string log;
  const std::string build = fs::path(kWinnow).parent_path().string();
  ASSERT_EQ(run_command(build + "/make_video_corpus " + dir.file("corpus"), &log), 0) << log;
  std::string yaml = read_file(kSource + "/examples/video.yaml");
  yaml += "report: {pictures_per_reason: 3}\n";
  ASSERT_EQ(winnow("run " + pipeline_file(dir, yaml) + " -i " + dir.file("corpus") + " -o " +
                       dir.file("out") + " --no-progress --threads 2",
                   &log),
            0)
      << log;
  const std::string html = read_file(dir.file("out/report.html"));
  const auto clips = clips_of(dir);
  ASSERT_GT(clips.size(), 4u);

  // Timelines: each strip's boxes are its source's clips, coloured by their fate.
  std::regex strip_re(
      "<svg class=\"timeline\" data-source=\"([^\"]+)\" data-clips=\"(\\d+)\"[^]*?</svg>");
  std::regex box_re("<rect class=\"(kept|dropped)\"[^>]*><title>(\\S+) ");
  size_t strips = 0;
  for (auto s = std::sregex_iterator(html.begin(), html.end(), strip_re);
       s != std::sregex_iterator(); ++s) {
    ++strips;
    const std::string source = fs::path((*s)[1].str()).filename().string();
    size_t expected = 0;
    for (const auto& [id, clip] : clips) expected += clip.first == source;
    EXPECT_EQ(std::stoul((*s)[2].str()), expected) << source;
    const std::string svg = s->str();
    size_t boxes = 0;
    for (auto b = std::sregex_iterator(svg.begin(), svg.end(), box_re); b != std::sregex_iterator();
         ++b) {
      ++boxes;
      auto clip = clips.find((*b)[2].str());
      ASSERT_NE(clip, clips.end()) << (*b)[2].str();
      EXPECT_EQ(clip->second.first, source);
      EXPECT_EQ(clip->second.second, (*b)[1].str() == "kept") << (*b)[2].str();
    }
    EXPECT_EQ(boxes, expected) << source;
  }
  EXPECT_EQ(strips, 3u);

  // Contact sheets, kept and dropped, each with its span.
  std::regex sheet_re(
      "<figure class=\"wide\"><img class=\"thumb sheet\" alt=\"([^\"]+)\"[^>]*>"
      "<figcaption><b>[^<]+</b>[^<]*<br>([0-9.]+)–([0-9.]+) s of ([^<]+)</figcaption>");
  size_t sheets = 0;
  for (auto f = std::sregex_iterator(html.begin(), html.end(), sheet_re);
       f != std::sregex_iterator(); ++f) {
    ++sheets;
    auto clip = clips.find((*f)[1].str());
    ASSERT_NE(clip, clips.end()) << (*f)[1].str();
    EXPECT_EQ(clip->second.first, (*f)[4].str());
    EXPECT_LT(std::stod((*f)[2].str()), std::stod((*f)[3].str()));
  }
  EXPECT_GE(sheets, 4u);
  EXPECT_NE(html.find("<h3>kept</h3>"), std::string::npos);
  EXPECT_NE(html.find("<h3>motion_filter/"), std::string::npos);
  // A dropped clip's score beside the threshold it missed: frame_quality's min_blur as given.
  EXPECT_NE(html.find("<h3>frame_quality/blurry</h3><p class=\"settings\">frame_quality: "
                      "min_blur: 100</p>"),
            std::string::npos);
  EXPECT_LE(html.size(), size_t{4} << 20);

  if (std::system("command -v chromium >/dev/null 2>&1") != 0) GTEST_SKIP() << "no chromium";
  std::string dom;
  ASSERT_EQ(run_command("chromium --headless --no-sandbox --disable-gpu --no-first-run "
                        "--user-data-dir=" +
                            dir.file("profile") + " --dump-dom file://" +
                            dir.file("out/report.html") + " 2>/dev/null",
                        &dom),
            0);
  EXPECT_EQ(count_of(dom, "<svg class=\"timeline\""), strips);
  EXPECT_EQ(count_of(dom, "<img class=\"thumb sheet\""),
            count_of(html, "<img class=\"thumb sheet\""));
}

}  // namespace
}  // namespace winnow::testing
