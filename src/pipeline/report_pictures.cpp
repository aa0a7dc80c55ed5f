#include "pipeline/report_pictures.h"

#include <fmt/format.h>

#include <cmath>

#include "core/html_escape.h"
#include "io/chat_messages.h"

namespace winnow {

namespace {

// Room kept for the note that says how many thumbnails went.
constexpr size_t kNoteBytes = 200;

std::string figure(const SampledItem& item) {
  std::string img;
  if (item.thumbnail_jpeg.empty()) {
    img = "<div class=\"nothumb\">no picture</div>";
  } else {
    img = std::string("<img class=\"") + (item.sheet ? "thumb sheet" : "thumb") + "\" alt=\"" +
          escape_html(item.id) + "\" src=\"data:image/jpeg;base64,";
    append_base64(img, item.thumbnail_jpeg);
    img += "\">";
  }
  std::string score = std::isnan(item.score) ? std::string() : fmt::format(" {:.4g}", item.score);
  return fmt::format("<figure{}>{}<figcaption><b>{}</b>{}{}</figcaption></figure>",
                     item.sheet ? " class=\"wide\"" : "", img, escape_html(item.id), score,
                     item.detail.empty() ? "" : "<br>" + escape_html(item.detail));
}

// The parameters of the stage that dropped `category`'s items ("stage/reason"), as a line.
std::string settings_line(const std::string& category,
                          const std::map<std::string, std::string>& settings) {
  auto it = settings.find(category.substr(0, category.find('/')));
  if (category == "kept" || it == settings.end() || it->second.empty()) return {};
  return "<p class=\"settings\">" + escape_html(it->first) + ": " + escape_html(it->second) +
         "</p>";
}

std::string render(const std::map<std::string, std::vector<SampledItem>>& pictures,
                   size_t dropped, const std::map<std::string, std::string>& settings) {
  std::string html = "<h2>What was kept and dropped, as pictures (a seeded sample)</h2>\n";
  if (dropped > 0) {
    html += fmt::format(
        "<p class=\"note\">{} thumbnail(s) left out, the largest first, to keep "
        "this page under report.max_bytes.</p>\n",
        dropped);
  }
  for (const auto& [category, items] : pictures) {
    html += fmt::format("<h3>{}</h3>{}<div class=\"pictures\">", escape_html(category),
                        settings_line(category, settings));
    for (const SampledItem& item : items) html += figure(item);
    html += "</div>\n";
  }
  return html;
}

}  // namespace

std::string picture_section(std::map<std::string, std::vector<SampledItem>> pictures,
                            size_t budget_bytes,
                            const std::map<std::string, std::string>& settings) {
  if (pictures.empty()) return {};
  // The text alone (every thumbnail out) is what the pictures must leave room for; the tags
  // around each picture are not counted by fit_thumbnails, so a last round drops more when the
  // page still comes out over.
  auto bare = pictures;
  fit_thumbnails(bare, 0);
  size_t text = render(bare, 0, settings).size() + kNoteBytes;
  size_t room = budget_bytes > text ? budget_bytes - text : 0;
  size_t dropped = fit_thumbnails(pictures, room);
  std::string html = render(pictures, dropped, settings);
  while (html.size() > budget_bytes && room > 0) {
    room = html.size() - budget_bytes < room ? room - (html.size() - budget_bytes) : 0;
    dropped += fit_thumbnails(pictures, room);
    html = render(pictures, dropped, settings);
  }
  return html;
}

}  // namespace winnow
