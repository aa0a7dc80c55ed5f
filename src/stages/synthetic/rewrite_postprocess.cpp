#include "stages/synthetic/rewrite_postprocess.h"

#include <algorithm>

#include "core/hash.h"
#include "stages/modify/text_modifier.h"
#include "text/python_text.h"

namespace winnow {

namespace {

// text.split("\n"): every piece, empty ones included.
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t begin = 0;
  while (true) {
    const size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) {
      lines.push_back(text.substr(begin));
      return lines;
    }
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// A uniform integer in [0, n) from one seeded draw.
uint64_t draw_below(uint64_t n, uint64_t draw_seed, uint64_t step) {
  return std::min<uint64_t>(n - 1, uint64_t(unit_interval(hash_u64(step, draw_seed)) * double(n)));
}

}  // namespace

std::vector<std::string> diverse_qa_pairs(std::string_view reply, std::string_view heading) {
  std::vector<std::string_view> lines;
  for (std::string_view line : split_lines(reply)) {
    line = python_strip(line);
    if (line.empty()) continue;
    if (starts_with(line, "- ")) line = python_strip(line.substr(2));
    lines.push_back(line);
  }
  std::vector<std::string> pairs;
  if (lines.empty()) return pairs;
  size_t first = lines.front() == heading ? 1 : 0;
  for (size_t i = first; i < lines.size(); ++i) {
    if (starts_with(lines[i], "Question:")) {
      pairs.emplace_back(lines[i]);
    } else if (!pairs.empty()) {
      pairs.back() += '\n';
      pairs.back() += lines[i];
    } else {
      return {};
    }
  }
  return pairs;
}

std::vector<std::string> sample_qa_pairs(std::vector<std::string> pairs, int max_num_pairs,
                                         uint64_t draw_seed) {
  for (size_t i = pairs.size(); i > 1; --i) {
    std::swap(pairs[i - 1], pairs[draw_below(i, draw_seed, i)]);
  }
  const size_t keep = 1 + draw_below(uint64_t(std::max(1, max_num_pairs)), draw_seed, 0);
  if (pairs.size() > keep) pairs.resize(keep);
  return pairs;
}

std::string knowledge_list_text(std::string_view reply) {
  std::string out;
  bool first_kept = true;
  const std::vector<std::string_view> lines = split_lines(reply);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    if (i == 0 && !starts_with(line, "-")) continue;
    if (starts_with(line, "  ") || starts_with(line, "- ")) line = python_strip(line.substr(2));
    if (!first_kept) out += '\n';
    first_kept = false;
    out += line;
  }
  return out;
}

RewriteResult postprocess_reply(const RewritePreset& preset, std::string_view document,
                                std::string_view reply, int max_num_pairs, uint64_t draw_seed) {
  RewriteResult result;
  // MarkdownRemover first, on every reply, as NeMo's pipelines run it.
  std::string plain;
  if (!remove_markdown(reply, plain)) plain.assign(reply);
  switch (preset.post) {
    case RewritePost::kNone:
      result.text = std::move(plain);
      break;
    case RewritePost::kPrefix: {
      // SubstringFilter(position="prefix"), then Slicer(left=prefix, include_left=False,
      // strip=True): the first occurrence is the opening itself.
      if (!starts_with(plain, preset.prefix)) {
        result.outcome = RewriteOutcome::kMissingPrefix;
        result.text = std::move(plain);
        return result;
      }
      std::string_view rest = python_strip(std::string_view(plain).substr(preset.prefix.size()));
      if (!remove_quotation(rest, result.text)) result.text.assign(rest);
      break;
    }
    case RewritePost::kRemoveLines: {
      bool first = true;
      for (std::string_view line : split_lines(plain)) {
        if (std::find(preset.remove_lines.begin(), preset.remove_lines.end(), line) !=
            preset.remove_lines.end()) {
          continue;
        }
        if (!first) result.text += '\n';
        first = false;
        result.text += line;
      }
      break;
    }
    case RewritePost::kDiverseQa: {
      std::vector<std::string> pairs = diverse_qa_pairs(plain, preset.prefix);
      if (pairs.empty()) {
        result.outcome = RewriteOutcome::kNoQaPairs;
        result.text = std::move(plain);
        return result;
      }
      pairs = sample_qa_pairs(std::move(pairs), max_num_pairs, draw_seed);
      result.text.assign(document);
      for (size_t i = 0; i < pairs.size(); ++i) {
        result.text += "\n\n";
        result.text += pairs[i];
      }
      break;
    }
    case RewritePost::kKnowledgeList:
      result.text = knowledge_list_text(plain);
      break;
  }
  if (python_strip(result.text).empty()) result.outcome = RewriteOutcome::kEmpty;
  return result;
}

}  // namespace winnow
