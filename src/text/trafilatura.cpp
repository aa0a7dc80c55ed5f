#include "text/trafilatura.h"

#include <unordered_map>

#include "text/unicode_space.h"

namespace winnow {

namespace {

using Kind = TrafilaturaBlockKind;

// trafilatura's link density test. `short_limit`: the length under which a block counts as
// short, and is then boilerplate when most of its text, or most of its links, are short links;
// a longer one only when it is a link farm (many links, nearly all of the text, not one long
// link per item). A single link filling the block is boilerplate at any length.
bool link_dense(const TrafilaturaTextTotals& t, size_t short_limit) {
  if (t.links == 0) return false;
  if (t.links == 1 && t.link_chars > 100 && t.link_chars * 10 > t.chars * 9) return true;
  if (t.chars < short_limit) {
    return t.link_chars * 5 > t.chars * 4 || (t.links > 1 && t.short_links * 5 > t.links * 4);
  }
  return t.links > 4 && t.link_chars * 10 > t.chars * 9 && t.link_chars < 100 * size_t{t.links};
}

bool container_link_dense(const TrafilaturaElement& e) {
  const TrafilaturaTextTotals& t = e.totals;
  switch (e.container) {
    case TrafilaturaContainer::kDiv:
      // Also a small block of several elements holding any link ("Share: A B C").
      return link_dense(t, 100) || (t.links > 0 && t.chars > 0 && t.chars < 100 && e.children >= 3);
    case TrafilaturaContainer::kList:
      return link_dense(t, 100);
    case TrafilaturaContainer::kTable:
      if (t.links == 0 || t.chars < 200) return false;
      return t.chars < 1000 ? t.link_chars * 5 > t.chars * 4 : t.link_chars * 2 > t.chars;
    case TrafilaturaContainer::kNone:
      return false;
  }
  return false;
}

bool block_link_dense(const TrafilaturaBlock& b) {
  if (b.kind == Kind::kParagraph) return link_dense(b.totals, 30);
  if (b.kind == Kind::kText) return link_dense(b.totals, 100);
  return false;  // items, cells and the rest are judged with their list or table
}

bool in_subtree(const TrafilaturaPage& page, uint32_t root, uint32_t element) {
  return element >= root && element < page.elements[root].end;
}

size_t total_chars(const TrafilaturaPage& page, const std::vector<uint32_t>& blocks) {
  size_t n = 0;
  for (uint32_t b : blocks) n += page.blocks[b].totals.chars;
  return n;
}

// The blocks of `root`'s subtree that survive pruning, in document order.
std::vector<uint32_t> select_blocks(const TrafilaturaPage& page, uint32_t root,
                                    const TrafilaturaOptions& options) {
  // Flags inherited from the ancestors inside the subtree: bit 0 furniture, bit 1 link-dense.
  uint32_t end = page.elements[root].end;
  std::vector<uint8_t> flags(end - root);
  for (uint32_t e = root; e < end; ++e) {
    const TrafilaturaElement& el = page.elements[e];
    uint8_t own = static_cast<uint8_t>((e != root && el.boilerplate ? 1 : 0) |
                                       (container_link_dense(el) ? 2 : 0));
    flags[e - root] = e == root ? own : static_cast<uint8_t>(own | flags[el.parent - root]);
  }
  size_t all = 0, unpatterned = 0;
  for (const auto& b : page.blocks) {
    if (!in_subtree(page, root, b.element)) continue;
    all += b.totals.chars;
    if (!(flags[b.element - root] & 1)) unpatterned += b.totals.chars;
  }
  // The over-pruning guard: names that would remove six sevenths of the text are not trusted.
  uint8_t drop = unpatterned * 7 > all ? 3 : 2;
  std::vector<uint32_t> kept;
  size_t paragraph_chars = 0;
  for (uint32_t i = 0; i < page.blocks.size(); ++i) {
    const TrafilaturaBlock& b = page.blocks[i];
    if (!in_subtree(page, root, b.element) || (flags[b.element - root] & drop) ||
        block_link_dense(b)) {
      continue;
    }
    kept.push_back(i);
    if (b.kind == Kind::kParagraph) paragraph_chars += b.totals.chars;
  }
  // Loose <div> text counts only where paragraphs are too few to carry the content.
  if (paragraph_chars >= 3 * options.min_extracted_size) {
    std::erase_if(kept, [&](uint32_t i) { return page.blocks[i].kind == Kind::kText; });
  }
  return kept;
}

// The baseline: every paragraph, quote and code block of the page not made of links.
std::vector<uint32_t> baseline_blocks(const TrafilaturaPage& page) {
  std::vector<uint32_t> kept;
  for (uint32_t i = 0; i < page.blocks.size(); ++i) {
    const TrafilaturaBlock& b = page.blocks[i];
    bool prose = b.kind == Kind::kParagraph || b.kind == Kind::kQuote || b.kind == Kind::kCode;
    if (prose && !link_dense(b.totals, 30)) kept.push_back(i);
  }
  return kept;
}

// Candidates from the surest rank to the vaguest; the first with more than one block wins.
TrafilaturaResult choose_blocks(const TrafilaturaPage& page, const TrafilaturaOptions& options,
                                std::vector<uint32_t>& kept) {
  TrafilaturaResult result;
  for (uint8_t rank = 1; rank <= 5 && result.source == TrafilaturaSource::kNone; ++rank) {
    for (uint32_t e = 1; e < page.elements.size(); ++e) {
      const TrafilaturaElement& el = page.elements[e];
      if (el.candidate != rank || el.boilerplate) continue;
      kept = select_blocks(page, e, options);
      if (kept.size() > 1) {
        result.source = TrafilaturaSource::kCandidate;
        result.container = e;
      }
      break;  // only the first element of a rank is tried, as trafilatura does
    }
  }
  if (result.source == TrafilaturaSource::kNone) kept.clear();
  // Too short: the whole page, then the baseline, whichever holds more.
  size_t chars = total_chars(page, kept);
  if (chars < options.min_extracted_size) {
    std::vector<uint32_t> whole = select_blocks(page, 0, options);
    if (size_t n = total_chars(page, whole); n > chars) {
      kept = std::move(whole);
      chars = n;
      result.source = TrafilaturaSource::kWholePage;
      result.container = 0;
    }
  }
  if (chars < options.min_extracted_size) {
    std::vector<uint32_t> base = baseline_blocks(page);
    if (total_chars(page, base) > chars) {
      kept = std::move(base);
      result.source = TrafilaturaSource::kBaseline;
      result.container = 0;
    }
  }
  return result;
}

}  // namespace

TrafilaturaResult trafilatura_extract(const TrafilaturaPage& page,
                                      const TrafilaturaOptions& options) {
  std::vector<uint32_t> kept;
  TrafilaturaResult result = choose_blocks(page, options, kept);
  // A heading closes nothing: trailing ones are what follows the content (a "Related" title).
  while (!kept.empty() && page.blocks[kept.back()].kind == Kind::kHeading) kept.pop_back();
  if (options.max_tree_size > 0 && kept.size() > options.max_tree_size) kept.clear();
  std::unordered_map<std::string_view, size_t> seen;
  size_t chars = 0;
  for (uint32_t i : kept) {
    const TrafilaturaBlock& b = page.blocks[i];
    if (b.totals.chars > options.min_duplcheck_size && seen[b.text]++ > options.max_repetitions) {
      continue;
    }
    result.paragraphs.push_back(b.text);
    chars += b.totals.chars;
  }
  if (chars < options.min_output_size) result.paragraphs.clear();
  if (result.paragraphs.empty()) result.source = TrafilaturaSource::kNone;
  return result;
}

void keep_stopword_dense(std::vector<std::string>& paragraphs, const StopWords* stop_words,
                         std::string_view language, double required_density) {
  if (!stop_words || required_density <= 0) return;
  for (std::string_view unspaced : {"th", "zh", "zh-Hant", "ja", "ko"}) {
    if (language == unspaced) return;
  }
  std::erase_if(paragraphs, [&](const std::string& text) {
    size_t words = 0, stops = 0;
    for_each_unicode_word(text, [&](std::string_view word) {
      ++words;
      stops += stop_words->contains(word);
    });
    // As NeMo computes it: the share, then the comparison.
    return words == 0 ||
           static_cast<double>(stops) / static_cast<double>(words) < required_density;
  });
}

}  // namespace winnow
