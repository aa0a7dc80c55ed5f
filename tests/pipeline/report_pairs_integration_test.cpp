// report.html's near-duplicate pairs from real runs: fuzzy_dedup over documents with planted
// near-copies (a few words changed) and image_dedup over pictures with planted copies (a little
// brighter). The page names each kept item with the copy it removed, marks the changed words,
// is the same for the same run whatever the threads and batches, stays under report.max_bytes,
// and renders in headless Chromium with the marks and thumbnails drawn.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <regex>
#include <set>

#include "pipeline/pipeline_fixture.h"
#include "pipeline/report_html.h"

namespace winnow::testing {
namespace {

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// 40 documents of 250 random words d0..d39, then near-copies of d0..d14 (words 40 and 200
// replaced by CHANGEDna and CHANGEDnb), ids dN-copy: each copy's Jaccard to its original is
// about 0.9 in 24-character shingles, and smallest_key keeps the original.
std::string planted_documents(const std::string& dir) {
  std::mt19937 rng(38);
  std::vector<std::vector<std::string>> docs(40);
  std::string body;
  for (size_t d = 0; d < docs.size(); ++d) {
    for (int w = 0; w < 250; ++w) docs[d].push_back("w" + std::to_string(rng() % 5000));
    std::string text;
    for (const std::string& w : docs[d]) text += w + " ";
    body += "{\"id\":\"d" + std::to_string(d) + "\",\"text\":\"" + text + "\"}\n";
  }
  for (size_t d = 0; d < 15; ++d) {
    docs[d][40] = "CHANGED" + std::to_string(d) + "a";
    docs[d][200] = "CHANGED" + std::to_string(d) + "b";
    std::string text;
    for (const std::string& w : docs[d]) text += w + " ";
    body += "{\"id\":\"d" + std::to_string(d) + "-copy\",\"text\":\"" + text + "\"}\n";
  }
  write_file(dir + "/docs.jsonl", body);
  return dir + "/docs.jsonl";
}

RunReport run_text(const TempDir& dir, const std::string& input, const std::string& out,
                   int threads, size_t batch_size) {
  auto config = load_config(R"(
report: {pictures_per_reason: 5}
stages:
  - {stage: fuzzy_dedup}
)");
  RunOptions options;
  options.inputs = {input};
  options.output = dir.file(out);
  options.threads = threads;
  options.batch_size = batch_size;
  return run_pipeline(config, options);
}

std::string pairs_part(const std::string& html) {
  size_t begin = html.find("<h2>Near-duplicate pairs");
  return begin == std::string::npos ? std::string()
                                    : html.substr(begin, html.find("</body>") - begin);
}

TEST(ReportPairsIntegration, FuzzyDedupPairsNameTheOriginalAndItsCopyWithTheChangesMarked) {
  TempDir dir;
  const std::string input = planted_documents(dir.path());
  RunReport report = run_text(dir, input, "out", 2, 8);
  ASSERT_TRUE(report.status.is_ok()) << report.status.message();
  ASSERT_EQ(report.pairs.size(), 5u);
  const std::string html = read_file(dir.file("out/report.html"));
  std::regex pair_re(
      "data-step=\"fuzzy_dedup\" data-survivor=\"(d\\d+)\" data-removed=\"(d\\d+)-copy\"");
  std::set<std::string> seen;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), pair_re);
       it != std::sregex_iterator(); ++it) {
    const std::string original = (*it)[1].str();
    EXPECT_EQ(original, (*it)[2].str());
    seen.insert(original);
    const std::string n = original.substr(1);
    EXPECT_EQ(count_of(html, "<mark class=\"b\">CHANGED" + n + "a</mark>"), 1u) << original;
    EXPECT_EQ(count_of(html, "<mark class=\"b\">CHANGED" + n + "b</mark>"), 1u) << original;
  }
  EXPECT_EQ(seen.size(), 5u);
  for (const ReportPair& pair : report.pairs) {
    EXPECT_EQ(pair.measure, "Jaccard");
    EXPECT_GT(pair.value, 0.8);
    EXPECT_LT(pair.value, 1.0);
  }
  // Only the changed words are marked: two on each side of each pair.
  EXPECT_EQ(count_of(html, "<mark class=\"a\">"), 10u);
  EXPECT_EQ(count_of(html, "<mark class=\"b\">"), 10u);

  // The same run on one thread with other batches: the same pairs, byte for byte.
  RunReport again = run_text(dir, input, "again", 1, 3);
  ASSERT_TRUE(again.status.is_ok());
  EXPECT_EQ(pairs_part(read_file(dir.file("again/report.html"))), pairs_part(html));

  // Under a tighter report.max_bytes the page still fits, with fewer pairs and a note.
  const size_t bare = render_report_html([&] {
                        RunReport r = report;
                        r.pairs.clear();
                        return r;
                      }())
                          .size();
  report.report_max_bytes = bare + 2 * 3000;
  const std::string tight = render_report_html(report);
  EXPECT_LE(tight.size(), report.report_max_bytes);
  EXPECT_LT(count_of(tight, "<div class=\"pair\""), 5u);
  EXPECT_NE(tight.find("pair(s) left out"), std::string::npos);

  // In a browser: the pairs are in the DOM, and the marks are drawn (pink and green pixels).
  if (std::system("command -v chromium >/dev/null 2>&1") != 0) GTEST_SKIP() << "no chromium";
  RunReport only;
  only.pairs = again.pairs;
  ASSERT_TRUE(write_report_html(only, dir.file("pairs.html")).is_ok());
  const std::string chromium =
      "chromium --headless --no-sandbox --disable-gpu --no-first-run "
      "--user-data-dir=" +
      dir.file("profile") + " ";
  std::string dom;
  ASSERT_EQ(
      run_command(chromium + "--dump-dom file://" + dir.file("pairs.html") + " 2>/dev/null", &dom),
      0);
  EXPECT_EQ(count_of(dom, "<div class=\"pair\""), 5u);
  EXPECT_EQ(count_of(dom, "<mark class=\"b\">CHANGED"), 10u);
  ASSERT_EQ(run_command(chromium + "--window-size=1000,6000 --screenshot=" + dir.file("shot.png") +
                        " file://" + dir.file("pairs.html") + " >/dev/null 2>&1"),
            0);
  ASSERT_EQ(run_command("ffmpeg -v error -i " + dir.file("shot.png") +
                        " -f rawvideo -pix_fmt rgb24 -y " + dir.file("shot.rgb")),
            0);
  const std::string rgb = read_file(dir.file("shot.rgb"));
  size_t pink = 0, green = 0;
  for (size_t i = 0; i + 2 < rgb.size(); i += 3) {
    const int r = static_cast<uint8_t>(rgb[i]), g = static_cast<uint8_t>(rgb[i + 1]),
              b = static_cast<uint8_t>(rgb[i + 2]);
    pink += r > 240 && g > 170 && g < 205 && b > 170 && b < 205;
    green += g > 240 && r > 170 && r < 205 && b > 170 && b < 205;
  }
  EXPECT_GT(pink, 500u);   // the kept side's marks (#fbb)
  EXPECT_GT(green, 500u);  // the removed side's (#bfb)
}

// `winnow dedup identify` then `dedup remove`: the remove run loads the table and chooses from
// it the same pairs as a run that identified them itself.
TEST(ReportPairsIntegration, ARemoveRunChoosesTheSamePairsFromTheLoadedTable) {
  TempDir dir;
  const std::string input = planted_documents(dir.path());
  RunReport whole = run_text(dir, input, "whole", 2, 8);
  ASSERT_TRUE(whole.status.is_ok()) << whole.status.message();
  auto config = load_config(R"(
report: {pictures_per_reason: 5}
stages:
  - {stage: fuzzy_dedup}
)");
  RunOptions options;
  options.inputs = {input};
  options.output = dir.file("split");
  options.threads = 2;
  options.passes = PassMode::kIdentifyOnly;
  ASSERT_TRUE(run_pipeline(config, options).status.is_ok());
  options.passes = PassMode::kRemoveOnly;
  RunReport removed = run_pipeline(config, options);
  ASSERT_TRUE(removed.status.is_ok()) << removed.status.message();
  ASSERT_EQ(removed.pairs.size(), whole.pairs.size());
  for (size_t i = 0; i < whole.pairs.size(); ++i) {
    EXPECT_EQ(removed.pairs[i].survivor.id, whole.pairs[i].survivor.id);
    EXPECT_EQ(removed.pairs[i].removed.id, whole.pairs[i].removed.id);
    EXPECT_EQ(removed.pairs[i].value, whole.pairs[i].value);
  }
}

// 30 documents with random 16-d embeddings, and near-copies of d0..d4 (one word changed, the
// embedding moved by under 0.1%): semantic_dedup removes one of each pair (which one depends on
// the ranking), and the report shows it beside the item it matched, with their cosine.
TEST(ReportPairsIntegration, SemanticDedupPairsShowTheMatchedItemAndTheCosine) {
  TempDir dir;
  std::mt19937 rng(5);
  std::normal_distribution<double> normal;
  std::string body;
  auto line = [](const std::string& id, const std::string& text, const std::vector<double>& e) {
    std::string json = "{\"id\":\"" + id + "\",\"text\":\"" + text + "\",\"embedding\":[";
    for (size_t k = 0; k < e.size(); ++k) json += (k ? "," : "") + std::to_string(e[k]);
    return json + "]}\n";
  };
  std::vector<std::vector<double>> embeddings;
  for (int d = 0; d < 30; ++d) {
    std::vector<double> e(16);
    for (double& x : e) x = normal(rng);
    embeddings.push_back(e);
    body += line("d" + std::to_string(d), "alpha beta gamma delta " + std::to_string(d), e);
  }
  for (int d = 0; d < 5; ++d) {
    std::vector<double> e = embeddings[d];
    for (double& x : e) x += 0.001 * normal(rng);
    body +=
        line("d" + std::to_string(d) + "-copy", "alpha beta CHANGED delta " + std::to_string(d), e);
  }
  write_file(dir.file("docs.jsonl"), body);
  auto config = load_config(R"(
report: {pictures_per_reason: 5}
stages:
  - {stage: semantic_dedup, n_clusters: 2, eps: 0.01}
)");
  RunOptions options;
  options.inputs = {dir.file("docs.jsonl")};
  options.output = dir.file("out");
  options.threads = 2;
  RunReport report = run_pipeline(config, options);
  ASSERT_TRUE(report.status.is_ok()) << report.status.message();
  ASSERT_EQ(report.pairs.size(), 5u);
  std::set<std::string> originals;
  for (const ReportPair& pair : report.pairs) {
    EXPECT_EQ(pair.step, "semantic_dedup");
    EXPECT_EQ(pair.measure, "cosine");
    EXPECT_GT(pair.value, 0.99);
    std::string a = pair.survivor.id, b = pair.removed.id;
    if (a.size() > b.size()) std::swap(a, b);
    EXPECT_EQ(b, a + "-copy");
    originals.insert(a);
  }
  EXPECT_EQ(originals.size(), 5u);
  const std::string html = read_file(dir.file("out/report.html"));
  EXPECT_EQ(count_of(html, "<div class=\"pair\" data-step=\"semantic_dedup\""), 5u);
  EXPECT_EQ(count_of(html, "CHANGED</mark>"), 5u);
  EXPECT_EQ(count_of(html, "gamma</mark>"), 5u);
}

// A 24-bit BMP of `w` x `h` from a colour function.
template <typename Colour>
void write_bmp(const std::string& path, int w, int h, Colour colour) {
  const int stride = (3 * w + 3) / 4 * 4;
  std::string bmp(54 + static_cast<size_t>(stride) * h, '\0');
  auto put32 = [&](size_t at, uint32_t v) {
    for (int b = 0; b < 4; ++b) bmp[at + b] = static_cast<char>(v >> (8 * b));
  };
  bmp[0] = 'B', bmp[1] = 'M';
  put32(2, static_cast<uint32_t>(bmp.size()));
  put32(10, 54);
  put32(14, 40);
  put32(18, static_cast<uint32_t>(w));
  put32(22, static_cast<uint32_t>(h));
  bmp[26] = 1, bmp[28] = 24;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      auto [r, g, b] = colour(x, h - 1 - y);  // rows bottom-up
      size_t at = 54 + static_cast<size_t>(y) * stride + 3 * static_cast<size_t>(x);
      bmp[at] = static_cast<char>(b), bmp[at + 1] = static_cast<char>(g),
      bmp[at + 2] = static_cast<char>(r);
    }
  }
  write_file(path, bmp);
}

// img00..img11: smooth random pictures (an 8x8 grid of random levels, bilinear); img00..img03
// have copies imgNN_copy.bmp, 6 levels brighter (pHash unchanged).
std::vector<std::string> planted_images(const std::string& dir) {
  std::mt19937 rng(7);
  std::vector<std::string> paths;
  for (int p = 0; p < 12; ++p) {
    std::array<std::array<int, 9>, 9> grid;
    for (auto& row : grid)
      for (int& v : row) v = 30 + static_cast<int>(rng() % 190);
    auto colour = [&grid](int x, int y, int lift) {
      double gx = x / 12.0, gy = y / 12.0;
      int x0 = static_cast<int>(gx), y0 = static_cast<int>(gy);
      double fx = gx - x0, fy = gy - y0;
      double v = grid[y0][x0] * (1 - fx) * (1 - fy) + grid[y0][x0 + 1] * fx * (1 - fy) +
                 grid[y0 + 1][x0] * (1 - fx) * fy + grid[y0 + 1][x0 + 1] * fx * fy + lift;
      int c = std::clamp(static_cast<int>(v), 0, 255);
      return std::array<int, 3>{c, std::clamp(c + 20, 0, 255), std::max(c - 30, 0)};
    };
    char name[32];
    std::snprintf(name, sizeof name, "img%02d", p);
    paths.push_back(dir + "/" + name + ".bmp");
    write_bmp(paths.back(), 96, 96, [&](int x, int y) { return colour(x, y, 0); });
    if (p < 4) {
      paths.push_back(dir + "/" + name + "_copy.bmp");
      write_bmp(paths.back(), 96, 96, [&](int x, int y) { return colour(x, y, 6); });
    }
  }
  return paths;
}

TEST(ReportPairsIntegration, ImageDedupGroupsShowTheSurvivorThenItsCopiesInChromium) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("images"));
  auto config = load_config(R"(
input: {format: images}
report: {pictures_per_reason: 6}
stages:
  - {stage: image_dedup}
)");
  RunOptions options;
  options.inputs = planted_images(dir.file("images"));
  options.output = dir.file("out");
  options.threads = 2;
  RunReport report = run_pipeline(config, options);
  ASSERT_TRUE(report.status.is_ok()) << report.status.message();
  ASSERT_EQ(report.pairs.size(), 4u);
  const std::string html = read_file(dir.file("out/report.html"));
  std::regex group_re(
      "<div class=\"dupgroup\" data-step=\"image_dedup\" data-survivor=\"([^\"]*img\\d\\d)\\.bmp\">"
      "<figure class=\"survivor\"><img class=\"thumb\"[^>]*><figcaption>[^<]*<b>[^<]*</b>"
      "</figcaption></figure><figure class=\"removed\" data-removed=\"([^\"]*)_copy\\.bmp\">"
      "<img class=\"thumb\"[^>]*><figcaption>removed <b>[^<]*</b><br>Hamming distance (\\d+)<");
  size_t groups = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), group_re);
       it != std::sregex_iterator(); ++it) {
    ++groups;
    EXPECT_EQ((*it)[1].str(), (*it)[2].str());
    EXPECT_LE(std::stoi((*it)[3].str()), 6);
  }
  EXPECT_EQ(groups, 4u);
  EXPECT_LE(html.size(), report.report_max_bytes);

  if (std::system("command -v chromium >/dev/null 2>&1") != 0) GTEST_SKIP() << "no chromium";
  const std::string chromium =
      "chromium --headless --no-sandbox --disable-gpu --no-first-run "
      "--user-data-dir=" +
      dir.file("profile") + " ";
  std::string dom;
  ASSERT_EQ(
      run_command(chromium + "--dump-dom file://" + dir.file("out/report.html") + " 2>/dev/null",
                  &dom),
      0);
  EXPECT_EQ(count_of(dom, "<div class=\"dupgroup\""), 4u);
  EXPECT_EQ(count_of(dom, "<figure class=\"removed\""), 4u);
}

}  // namespace
}  // namespace winnow::testing
