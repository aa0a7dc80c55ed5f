#include "text/ner_spans.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace winnow {

namespace {

bool is_ascii_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool is_ascii_punct(unsigned char c) { return c < 0x80 && std::ispunct(c); }

std::optional<PiiEntity> entity_of(std::string_view name) {
  std::string upper(name);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "PER" || upper == "PERSON") return PiiEntity::kPerson;
  if (upper == "LOC" || upper == "LOCATION" || upper == "GPE") return PiiEntity::kLocation;
  if (upper == "ORG" || upper == "ORGANIZATION" || upper == "ORGANISATION") {
    return PiiEntity::kOrganization;
  }
  return std::nullopt;
}

}  // namespace

void split_ner_words(std::string_view text, std::vector<WordRange>& out) {
  out.clear();
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (is_ascii_space(c)) {
      ++i;
    } else if (is_ascii_punct(c)) {
      out.push_back({i, i + 1});
      ++i;
    } else {
      size_t end = i + 1;
      while (end < n && !is_ascii_space(static_cast<unsigned char>(text[end])) &&
             !is_ascii_punct(static_cast<unsigned char>(text[end]))) {
        ++end;
      }
      out.push_back({i, end});
      i = end;
    }
  }
}

BioTag parse_bio_label(std::string_view label) {
  BioTag tag;
  BioTag::Kind kind = BioTag::kInside;  // no prefix: the IO scheme
  if (label.size() > 2 && (label[1] == '-' || label[1] == '_')) {
    const char prefix = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
    if (prefix == 'B' || prefix == 'S') {
      kind = BioTag::kBegin;
    } else if (prefix == 'I' || prefix == 'E') {
      kind = BioTag::kInside;
    } else {
      return tag;
    }
    label.remove_prefix(2);
  }
  if (auto entity = entity_of(label)) {
    tag.kind = kind;
    tag.entity = *entity;
  }
  return tag;
}

void merge_bio_tags(std::span<const WordRange> words, std::span<const BioTag> tags,
                    std::vector<PiiSpan>& out) {
  out.clear();
  bool open = false;  // the last span of `out` may grow
  for (size_t i = 0; i < words.size() && i < tags.size(); ++i) {
    const BioTag& tag = tags[i];
    if (tag.kind == BioTag::kOutside) {
      open = false;
      continue;
    }
    if (tag.kind == BioTag::kInside && open && out.back().entity == tag.entity) {
      out.back().end = words[i].end;
      continue;
    }
    out.push_back({words[i].begin, words[i].end, tag.entity});
    open = true;
  }
}

void add_ner_spans(std::span<const PiiSpan> model_spans, std::vector<PiiSpan>& spans) {
  if (model_spans.empty()) return;
  std::vector<PiiSpan> merged;
  merged.reserve(spans.size() + model_spans.size());
  size_t r = 0;
  for (const PiiSpan& m : model_spans) {
    // Rule spans ending at or before this one's start come first.
    while (r < spans.size() && spans[r].end <= m.begin) merged.push_back(spans[r++]);
    if (r < spans.size() && spans[r].begin < m.end) continue;  // overlaps a rule span
    merged.push_back(m);
  }
  merged.insert(merged.end(), spans.begin() + static_cast<std::ptrdiff_t>(r), spans.end());
  spans = std::move(merged);
}

}  // namespace winnow
