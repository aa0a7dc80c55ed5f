#include "pipeline/report_pairs.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "core/html_escape.h"
#include "io/chat_messages.h"
#include "pipeline/report_diff_html.h"

namespace winnow {

namespace {

constexpr size_t kNoteBytes = 200;  // room kept for the note on pairs left out

// A block of the section: one text pair, or one picture group, and the pairs it shows.
struct Block {
  std::string step;
  std::string html;
  size_t pairs = 0;
};

std::string measure_text(const ReportPair& pair) {
  if (pair.measure.empty() || std::isnan(pair.value)) return {};
  return fmt::format("{} {:.4g}", escape_html(pair.measure), pair.value);
}

bool is_picture(const ReportPair& pair) {
  return !pair.survivor.thumbnail_jpeg.empty() || !pair.removed.thumbnail_jpeg.empty() ||
         (pair.survivor.text.empty() && pair.removed.text.empty());
}

std::string thumbnail(const ReportPairItem& item) {
  if (item.thumbnail_jpeg.empty()) return "<div class=\"nothumb\">no picture</div>";
  std::string img =
      "<img class=\"thumb\" alt=\"" + escape_html(item.id) + "\" src=\"data:image/jpeg;base64,";
  append_base64(img, item.thumbnail_jpeg);
  return img + "\">";
}

std::string text_pair(const ReportPair& pair) {
  const std::string measure = measure_text(pair);
  return fmt::format(
      "<div class=\"pair\" data-step=\"{}\" data-survivor=\"{}\" data-removed=\"{}\">"
      "<p>kept <b>{}</b> · removed <b>{}</b>{}</p>{}</div>\n",
      escape_html(pair.step), escape_html(pair.survivor.id), escape_html(pair.removed.id),
      escape_html(pair.survivor.id), escape_html(pair.removed.id),
      measure.empty() ? "" : " · " + measure,
      diff_columns_html(pair.survivor.text, pair.removed.text));
}

// One survivor and the items it removed, as figures in a row, survivor first.
std::string picture_group(const std::vector<const ReportPair*>& group) {
  const ReportPair& first = *group.front();
  std::string html = fmt::format(
      "<div class=\"dupgroup\" data-step=\"{}\" data-survivor=\"{}\"><figure class=\"survivor\">"
      "{}<figcaption>kept <b>{}</b></figcaption></figure>",
      escape_html(first.step), escape_html(first.survivor.id), thumbnail(first.survivor),
      escape_html(first.survivor.id));
  for (const ReportPair* pair : group) {
    const std::string measure = measure_text(*pair);
    html += fmt::format(
        "<figure class=\"removed\" data-removed=\"{}\">{}<figcaption>removed <b>{}</b>{}"
        "</figcaption></figure>",
        escape_html(pair->removed.id), thumbnail(pair->removed), escape_html(pair->removed.id),
        measure.empty() ? "" : "<br>" + measure);
  }
  return html + "</div>\n";
}

// Each step's pairs as blocks, in order: text pairs one by one, picture pairs grouped by their
// survivor (the group where its first pair was).
std::vector<Block> blocks_of(const std::vector<ReportPair>& pairs) {
  std::vector<Block> blocks;
  std::vector<std::vector<const ReportPair*>> groups;
  std::map<std::pair<std::string, std::string>, size_t> group_of;  // (step, survivor) -> index
  std::vector<std::pair<bool, size_t>> order;                      // (is a group, index)
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (!is_picture(pairs[i])) {
      order.emplace_back(false, i);
      continue;
    }
    auto [at, added] = group_of.try_emplace({pairs[i].step, pairs[i].survivor.id}, groups.size());
    if (added) {
      groups.emplace_back();
      order.emplace_back(true, at->second);
    }
    groups[at->second].push_back(&pairs[i]);
  }
  for (const auto& [group, index] : order) {
    if (group) {
      blocks.push_back(
          {groups[index].front()->step, picture_group(groups[index]), groups[index].size()});
    } else {
      blocks.push_back({pairs[index].step, text_pair(pairs[index]), 1});
    }
  }
  return blocks;
}

}  // namespace

std::string pair_section(const std::vector<ReportPair>& pairs, size_t budget_bytes) {
  if (pairs.empty()) return {};
  std::string html =
      "<h2>Near-duplicate pairs (a seeded sample): what each dedup step kept and "
      "what it removed as its duplicate</h2>\n";
  std::string step;
  size_t left_out = 0;
  for (const Block& block : blocks_of(pairs)) {
    std::string heading =
        block.step == step ? std::string() : "<h3>" + escape_html(block.step) + "</h3>\n";
    if (html.size() + heading.size() + block.html.size() + kNoteBytes > budget_bytes) {
      left_out += block.pairs;
      continue;
    }
    html += heading + block.html;
    step = block.step;
  }
  if (left_out > 0) {
    html += fmt::format(
        "<p class=\"note\">{} pair(s) left out to keep this page under "
        "report.max_bytes.</p>\n",
        left_out);
  }
  return html;
}

}  // namespace winnow
