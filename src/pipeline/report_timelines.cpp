#include "pipeline/report_timelines.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/html_escape.h"

namespace winnow {

namespace {

constexpr double kWidth = 900, kLeft = 4, kBar = 22;

std::string strip(const SourceTimeline& source) {
  double end = 0;
  size_t kept = 0;
  for (const TimelineClip& c : source.clips) {
    end = std::max({end, c.end_s, c.begin_s});
    kept += c.state == "kept";
  }
  const double scale = end > 0 ? (kWidth - 2 * kLeft) / end : 0;
  std::string svg = fmt::format(
      "<p><b>{}</b>: {} clip(s), {} kept, {} dropped, over {:.2f} s</p>"
      "<svg class=\"timeline\" data-source=\"{}\" data-clips=\"{}\" "
      "xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\">"
      "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#eee\"/>",
      escape_html(std::filesystem::path(source.source).filename().string()), source.clips.size(),
      kept, source.clips.size() - kept, end, escape_html(source.source), source.clips.size(),
      kWidth, kBar + 14, kWidth, kBar);
  for (const TimelineClip& c : source.clips) {
    const bool is_kept = c.state == "kept";
    svg += fmt::format(
        "<rect class=\"{}\" x=\"{:.1f}\" y=\"1\" width=\"{:.1f}\" height=\"{}\" fill=\"{}\" "
        "stroke=\"#fff\"><title>{} {:.2f}–{:.2f} s {}</title></rect>",
        is_kept ? "kept" : "dropped", kLeft + c.begin_s * scale,
        std::max(1.0, (c.end_s - c.begin_s) * scale), kBar - 2, is_kept ? "#2ca02c" : "#d62728",
        escape_html(c.id), c.begin_s, c.end_s, escape_html(c.state));
  }
  svg += fmt::format(
      "<text x=\"{}\" y=\"{}\" class=\"ax\">0 s</text><text x=\"{}\" y=\"{}\" "
      "class=\"ax\" text-anchor=\"end\">{:.1f} s</text></svg>\n",
      kLeft, kBar + 12, kWidth - kLeft, kBar + 12, end);
  return svg;
}

}  // namespace

std::string timeline_section(const std::vector<SourceTimeline>& timelines) {
  if (timelines.empty()) return {};
  std::string html =
      "<h2>Where the shots were cut (per source video, a seeded sample)</h2>\n"
      "<p>Each box is a clip: green kept, red dropped (hover for its span, stage "
      "and reason).</p>\n";
  for (const SourceTimeline& source : timelines) html += strip(source);
  return html;
}

}  // namespace winnow
