#include "text/justext.h"

#include <algorithm>
#include <array>

#include "core/utf8.h"
#include "text/tag_set.h"
#include "text/unicode_space.h"

namespace winnow {

namespace {

// jusText's PARAGRAPH_TAGS, plus the HTML5 block elements (see the header).
// "form" is one too, but jusText's Cleaner (forms=True) has removed the <form> tags, keeping
// their content, before paragraphs are made; "textarea", "option" and "optgroup" are killed
// with it (below).
constexpr TagSet kParagraphTags{
    "body", "blockquote", "caption", "center", "col", "colgroup", "dd", "div", "dl", "dt",
    "fieldset", "legend", "optgroup", "option", "p", "pre", "table", "td", "textarea", "tfoot",
    "th", "thead", "tr", "ul", "li", "h1", "h2", "h3", "h4", "h5", "h6",
    // HTML5 and other block elements jusText predates
    "article", "aside", "footer", "header", "main", "nav", "section", "figure", "figcaption", "ol",
    "hr", "address", "details", "summary", "tbody", "dialog", "menu", "hgroup"};

bool is_paragraph_tag(std::string_view tag) { return kParagraphTags.contains(tag); }

// What lxml's Cleaner removes with its content in jusText's preprocessor: kill_tags head;
// scripts; style; forms=True: button, input, select, textarea; embedded=True: applet. Plus
// template contents, which a browser never shows (not in jusText). link and meta hold no
// text.
constexpr TagSet kKilledTags{"head",   "script", "style",  "link",     "meta",  "template",
                             "button", "input",  "select", "textarea", "applet"};

bool is_killed_tag(std::string_view tag) { return kKilledTags.contains(tag); }

bool is_heading_tag(std::string_view tag) {
  return tag.size() == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6';
}

class ParagraphMaker final : public HtmlVisitor {
 public:
  std::vector<JusTextParagraph> paragraphs;
  std::vector<JusTextElement>* elements = nullptr;  // recorded when set

  bool start(const HtmlElement& element) override {
    std::string_view tag = element.tag();
    if (is_killed_tag(tag)) return false;
    if (elements) {
      JusTextElement e;
      e.parent = open_.back();
      e.depth = static_cast<uint32_t>(open_.size());
      e.top = tag == "html" || tag == "body";
      open_.push_back(static_cast<uint32_t>(elements->size()));
      elements->push_back(e);
    }
    bool br = tag == "br";
    if (is_paragraph_tag(tag) || (br && br_)) {
      // Heading and <pre> state describe the path at the paragraph's start, tag included.
      enter(tag);
      start_paragraph();
    } else {
      enter(tag);
      br_ = br;
      if (br) {
        append_text(" ");
      } else if (tag == "a" && !element.self_closing()) {
        // An XHTML "<a id=x/>" anchor is empty for lxml (jusText's parser); gumbo nests the
        // rest of the section in it, which must not count as link text.
        link_ = true;
      }
    }
    return true;
  }

  void end(const HtmlElement& element) override {
    std::string_view tag = element.tag();
    if (elements && open_.size() > 1) open_.pop_back();
    leave(tag);
    if (is_paragraph_tag(tag)) start_paragraph();
    if (tag == "a") link_ = false;
  }

  void text(std::string_view content) override {
    if (is_blank_unicode(content)) {
      // jusText drops whitespace-only text nodes, which glues the words around them when
      // they sit between inline elements ("<b>import</b> <i>json</i>" -> "importjson", all
      // over highlighted code). Keeping them as one separator fixes that and changes nothing
      // else: a blank node neither counts as text nor ends a <br><br> pair.
      if (current_.has_text) append_text(content);
      return;
    }
    size_t before = current_.raw.size();
    append_normalized_whitespace(current_.raw, content);
    if (link_) {
      // The piece's own normalised length, as jusText counts a link's text.
      current_.links += count_code_points(std::string_view(current_.raw).substr(before));
    }
    join_whitespace_at(before);
    current_.has_text = true;
    br_ = false;
  }

  void finish() { start_paragraph(); }

 private:
  struct Pending {
    std::string raw;
    size_t links = 0;
    bool has_text = false;
    bool heading = false;
    bool in_pre = false;
    uint32_t element = 0;
  };

  void enter(std::string_view tag) {
    if (is_heading_tag(tag)) ++headings_open_;
    if (tag == "pre") ++pres_open_;
  }
  void leave(std::string_view tag) {
    if (is_heading_tag(tag) && headings_open_ > 0) --headings_open_;
    if (tag == "pre" && pres_open_ > 0) --pres_open_;
  }

  // current_.raw is kept normalised as it grows (one ' ' or '\n' per whitespace run), so a
  // paragraph needs trimming only, not a second pass over its text.
  void append_text(std::string_view content) {
    size_t before = current_.raw.size();
    append_normalized_whitespace(current_.raw, content);
    join_whitespace_at(before);
  }
  // Two runs meeting at `at` become one, a line break if either was one: what normalising the
  // text in one piece gives.
  void join_whitespace_at(size_t at) {
    std::string& raw = current_.raw;
    if (at == 0 || at >= raw.size()) return;
    char left = raw[at - 1], right = raw[at];
    if ((left != ' ' && left != '\n') || (right != ' ' && right != '\n')) return;
    raw[at - 1] = left == '\n' || right == '\n' ? '\n' : ' ';
    raw.erase(at, 1);
  }

  void start_paragraph() {
    if (current_.has_text) {
      JusTextParagraph p;
      p.text = std::string(trim_unicode_space(current_.raw));
      p.length = count_code_points(p.text);
      p.chars_in_links = current_.links;
      p.heading = current_.heading;
      p.in_pre = current_.in_pre;
      p.copyright =
          p.text.find("\xC2\xA9") != std::string::npos || p.text.find("&copy") != std::string::npos;
      p.element = current_.element;
      paragraphs.push_back(std::move(p));
    }
    current_ = Pending();
    current_.element = open_.back();
    current_.heading = headings_open_ > 0;
    current_.in_pre = pres_open_ > 0;
  }

  Pending current_;
  bool br_ = false;
  bool link_ = false;
  int headings_open_ = 0;
  int pres_open_ = 0;
  std::vector<uint32_t> open_{0};  // indices of the open elements; 0 is the document
};

double stopword_density(const JusTextParagraph& p, const StopWords* stop_words) {
  size_t words = 0;
  size_t stops = 0;
  std::string lower;
  for_each_unicode_word(p.text, [&](std::string_view word) {
    ++words;
    if (stop_words) {
      lower.clear();
      append_lowercase_utf8(lower, word);
      stops += stop_words->contains(lower);
    }
  });
  if (words == 0) return 0.0;
  return static_cast<double>(stops) / static_cast<double>(words);
}

JusTextClass neighbour(const std::vector<JusTextParagraph>& ps, size_t i, bool ignore_neargood,
                       int step) {
  auto k = static_cast<ptrdiff_t>(i);
  auto n = static_cast<ptrdiff_t>(ps.size());
  while (true) {
    k += step;
    if (k < 0 || k >= n) return JusTextClass::kBad;
    JusTextClass c = ps[static_cast<size_t>(k)].final_class;
    if (c == JusTextClass::kGood || c == JusTextClass::kBad) return c;
    if (c == JusTextClass::kNearGood && !ignore_neargood) return c;
  }
}

// A heading followed by good text within max_heading_distance characters becomes `to`.
void promote_headings(std::vector<JusTextParagraph>& ps, size_t max_distance, JusTextClass from,
                      JusTextClass to, bool require_not_cf_bad) {
  for (size_t i = 0; i < ps.size(); ++i) {
    JusTextParagraph& p = ps[i];
    if (!p.heading || p.final_class != from) continue;
    if (require_not_cf_bad && p.context_free == JusTextClass::kBad) continue;
    size_t distance = 0;
    for (size_t j = i + 1; j < ps.size() && distance <= max_distance; ++j) {
      if (ps[j].final_class == JusTextClass::kGood) {
        p.final_class = to;
        break;
      }
      distance += ps[j].length;
    }
  }
}

}  // namespace

std::vector<JusTextParagraph> justext_paragraphs(const HtmlDocument& document, size_t max_depth,
                                                 std::vector<JusTextElement>* elements) {
  ParagraphMaker maker;
  if (elements) {
    elements->assign(1, JusTextElement{0, 0, true});  // the document
    maker.elements = elements;
  }
  document.walk(maker, max_depth);
  maker.finish();
  return std::move(maker.paragraphs);
}

void justext_classify(std::vector<JusTextParagraph>& ps, const StopWords* stop_words,
                      const JusTextOptions& o) {
  double stop_low = stop_words ? o.stopwords_low : 0.0;
  double stop_high = stop_words ? o.stopwords_high : 0.0;
  // Context-free classification.
  for (JusTextParagraph& p : ps) {
    double links = p.length == 0 ? 0.0 : static_cast<double>(p.chars_in_links) / p.length;
    if (o.no_headings) p.heading = false;
    JusTextClass c;
    if (links > o.max_link_density) {
      c = JusTextClass::kBad;
    } else if (p.copyright) {
      c = JusTextClass::kBad;  // a copyright line
    } else if (o.code_in_context && p.in_pre) {
      c = JusTextClass::kNearGood;
    } else if (p.length < o.length_low) {
      c = p.chars_in_links > 0 ? JusTextClass::kBad : JusTextClass::kShort;
    } else {
      // Only paragraphs that got this far need their words looked up (most of a page's
      // paragraphs are short navigation).
      double stops = stopword_density(p, stop_words);
      if (stops >= stop_high) {
        c = p.length > o.length_high ? JusTextClass::kGood : JusTextClass::kNearGood;
      } else if (stops >= stop_low) {
        c = JusTextClass::kNearGood;
      } else {
        c = JusTextClass::kBad;
      }
    }
    p.context_free = c;
    p.final_class = c;
  }

  // Short headings followed closely by good text become near-good.
  if (!o.no_headings) {
    promote_headings(ps, o.max_heading_distance, JusTextClass::kShort, JusTextClass::kNearGood,
                     false);
  }

  // Short paragraphs take their class from their neighbours (decided on the classes before
  // this pass, as jusText does).
  std::vector<std::pair<size_t, JusTextClass>> revised;
  for (size_t i = 0; i < ps.size(); ++i) {
    if (ps[i].final_class != JusTextClass::kShort) continue;
    JusTextClass prev = neighbour(ps, i, true, -1);
    JusTextClass next = neighbour(ps, i, true, +1);
    JusTextClass c;
    if (prev == JusTextClass::kGood && next == JusTextClass::kGood) {
      c = JusTextClass::kGood;
    } else if (prev == JusTextClass::kBad && next == JusTextClass::kBad) {
      c = JusTextClass::kBad;
    } else if ((prev == JusTextClass::kBad &&
                neighbour(ps, i, false, -1) == JusTextClass::kNearGood) ||
               (next == JusTextClass::kBad &&
                neighbour(ps, i, false, +1) == JusTextClass::kNearGood)) {
      c = JusTextClass::kGood;
    } else {
      c = JusTextClass::kBad;
    }
    revised.emplace_back(i, c);
  }
  for (auto [i, c] : revised) ps[i].final_class = c;

  // Near-good paragraphs are good unless both neighbours are bad (in place, as jusText).
  for (size_t i = 0; i < ps.size(); ++i) {
    if (ps[i].final_class != JusTextClass::kNearGood) continue;
    JusTextClass prev = neighbour(ps, i, true, -1);
    JusTextClass next = neighbour(ps, i, true, +1);
    ps[i].final_class = (prev == JusTextClass::kBad && next == JusTextClass::kBad)
                            ? JusTextClass::kBad
                            : JusTextClass::kGood;
  }

  // Headings that were not bad on their own and precede good text are good.
  if (!o.no_headings) {
    promote_headings(ps, o.max_heading_distance, JusTextClass::kBad, JusTextClass::kGood, true);
  }
}

uint32_t justext_keep_container(std::vector<JusTextParagraph>& ps,
                                const std::vector<JusTextElement>& elements,
                                const JusTextOptions& o) {
  if (elements.empty()) return 0;
  // Good characters under each element: own paragraphs first, then children add into their
  // parents (children always come after their parents).
  // Paragraphs too: a container holds several blocks, never just the one long paragraph
  // that has most of the good text.
  std::vector<size_t> good(elements.size(), 0), blocks(elements.size(), 0);
  size_t total = 0;
  for (const JusTextParagraph& p : ps) {
    if (p.element >= elements.size()) continue;
    ++blocks[p.element];
    if (p.final_class != JusTextClass::kGood) continue;
    good[p.element] += p.length;
    total += p.length;
  }
  if (total == 0) return 0;
  for (size_t e = elements.size() - 1; e > 0; --e) {
    good[elements[e].parent] += good[e];
    blocks[elements[e].parent] += blocks[e];
  }
  // With a share above one half, the elements holding enough lie on one path from the root:
  // take the deepest.
  auto needed = static_cast<double>(total) * o.container_share;
  uint32_t container = 0;
  for (size_t e = 1; e < elements.size(); ++e) {
    if (static_cast<double>(good[e]) >= needed && blocks[e] >= 2 &&
        (container == 0 || elements[e].depth > elements[container].depth)) {
      container = static_cast<uint32_t>(e);
    }
  }
  if (container == 0 || elements[container].top) return 0;
  // Which elements lie inside it (parents first, so one forward pass).
  std::vector<char> inside(elements.size(), 0);
  inside[container] = 1;
  for (size_t e = container + 1; e < elements.size(); ++e) inside[e] = inside[elements[e].parent];
  for (JusTextParagraph& p : ps) {
    if (p.final_class == JusTextClass::kGood || p.element >= elements.size() ||
        !inside[p.element]) {
      continue;
    }
    double links = p.length == 0 ? 0.0 : static_cast<double>(p.chars_in_links) / p.length;
    if (links > o.container_max_link_density || p.copyright) continue;
    p.final_class = JusTextClass::kGood;
  }
  return container;
}

}  // namespace winnow
