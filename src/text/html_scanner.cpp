// HtmlDocument's scanner backend: one pass over the page that tokenises it as HTML5 does
// (tags, attributes, comments, raw-text elements, character references) and builds no tree,
// but keeps the stack of open elements with libxml2's (and so lxml's) rules:
// - implied end tags: libxml2's own answer to "does this start tag close the open top?",
//   asked of libxml2 once per pair of tags (libxml2_start_closes); void elements and "<x/>"
//   are empty;
// - an end tag closes the innermost open element of its name and all inside it, unless
//   libxml2 would ignore it (libxml2_end_closes_across: "</b>" does not close across a <div>),
//   and is ignored when none is open;
// - <title>, <meta>, <link>, <style>, <script> and <base> before any body content open an
//   implied <head>; body content (a body-level tag or text) closes it and opens an implied
//   <body>, text at that level inside an implied <p>, as libxml2 does.
// No library offers this at the speed the extraction needs: gumbo builds a full HTML5 tree
// (about 15 MB/s here) and libxml2 applies all of its HTML4 tree rules (about 60 MB/s with no
// tree); this pass runs several times faster. Named character references are looked up in
// libxml2's HTML entity table, the one its own parser uses.
#include <libxml/HTMLparser.h>

#include <cstring>

#include "core/ascii.h"
#include "core/utf8.h"
#include "text/html_parser_backends.h"
#include "text/tag_set.h"

namespace winnow::html_backends {

namespace {

constexpr TagSet kVoidTags{"area",  "base", "basefont", "bgsound", "br",    "col",     "embed",
                           "frame", "hr",   "image",    "img",     "input", "isindex", "keygen",
                           "link",  "meta", "param",    "source",  "track", "wbr"};
// Raw text up to their end tag, in libxml2 as in lxml: only these two. (HTML5 has more, and
// makes <title> and <textarea> RCDATA; libxml2 parses their content as markup, and an
// unclosed <title> then does not swallow the page.)
constexpr TagSet kRawTextTags{"script", "style"};
// What libxml2 puts into an implied <head>.
constexpr TagSet kHeadTags{"title", "meta", "link", "style", "script", "base"};

bool is_blank(std::string_view s) {
  for (char c : s) {
    if (!is_ascii_whitespace(c)) return false;
  }
  return true;
}

// Appends `text` with its character references decoded: named ones from libxml2's HTML 4
// table (with or without the ';'), numeric ones in decimal or hex (invalid code points become
// U+FFFD). An unknown name stays as written.
void append_decoded(std::string& out, std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    size_t amp = text.find('&', i);
    if (amp == std::string_view::npos) {
      out.append(text.substr(i));
      return;
    }
    out.append(text.substr(i, amp - i));
    size_t j = amp + 1;
    if (j < text.size() && text[j] == '#') {
      ++j;
      bool hex = j < text.size() && (text[j] == 'x' || text[j] == 'X');
      if (hex) ++j;
      size_t digits_start = j;
      uint32_t code = 0;
      bool overflow = false;
      while (j < text.size()) {
        char c = text[j];
        int digit = is_ascii_digit(c)              ? c - '0'
                    : hex && is_ascii_hex_digit(c) ? (c | 32) - 'a' + 10
                                                   : -1;
        if (digit < 0) break;
        code = code * (hex ? 16 : 10) + static_cast<uint32_t>(digit);
        overflow |= code > 0x10FFFF;
        ++j;
      }
      if (j == digits_start) {  // "&#" with no digits: text as written
        out.append(text.substr(amp, j - amp));
        i = j;
        continue;
      }
      if (j < text.size() && text[j] == ';') ++j;
      if (overflow || code == 0 || (code >= 0xD800 && code <= 0xDFFF)) code = 0xFFFD;
      append_utf8(out, code);
      i = j;
      continue;
    }
    size_t name_end = j;
    while (name_end < text.size() && name_end - j < 32 && is_ascii_alnum(text[name_end])) {
      ++name_end;
    }
    // The common ones first: libxml2's lookup is a linear search of its table.
    std::string_view name = text.substr(j, name_end - j);
    uint32_t common = name == "amp"    ? '&'
                      : name == "lt"   ? '<'
                      : name == "gt"   ? '>'
                      : name == "quot" ? '"'
                      : name == "nbsp" ? 0xA0
                                       : 0;
    if (common != 0) {
      append_utf8(out, common);
      i = name_end < text.size() && text[name_end] == ';' ? name_end + 1 : name_end;
      continue;
    }
    const htmlEntityDesc* entity = nullptr;
    if (name_end > j) {
      char name[33];
      std::memcpy(name, text.data() + j, name_end - j);
      name[name_end - j] = '\0';
      entity = htmlEntityLookup(reinterpret_cast<const xmlChar*>(name));
    }
    if (entity == nullptr) {
      out.push_back('&');
      i = j;
      continue;
    }
    append_utf8(out, entity->value);
    i = name_end < text.size() && text[name_end] == ';' ? name_end + 1 : name_end;
  }
}

class Scanner {
 public:
  Scanner(std::string_view html, HtmlVisitor& visitor, size_t max_depth, size_t max_open)
      : html_(html), sink_(visitor, max_depth), max_open_(max_open) {}

  void run() {
    size_t pos = 0;
    const size_t n = html_.size();
    while (pos < n) {
      const void* found = std::memchr(html_.data() + pos, '<', n - pos);
      size_t lt = found ? static_cast<size_t>(static_cast<const char*>(found) - html_.data()) : n;
      if (lt > pos) on_text(html_.substr(pos, lt - pos), true);
      if (lt >= n) break;
      pos = markup(lt);
    }
    sink_.finish();
  }

 private:
  // The markup at html_[lt] == '<'; returns where scanning goes on.
  size_t markup(size_t lt) {
    const size_t n = html_.size();
    char next = lt + 1 < n ? html_[lt + 1] : '\0';
    if (next == '!') {
      if (html_.compare(lt, 4, "<!--") == 0) {
        // "<!-->" and "<!--->" end at once, as in HTML5.
        size_t body = lt + 4;
        if (body < n && html_[body] == '>') return body + 1;
        if (body + 1 < n && html_[body] == '-' && html_[body + 1] == '>') return body + 2;
        size_t end = html_.find("-->", body);
        return end == std::string_view::npos ? n : end + 3;
      }
      return past('>', lt + 2);  // doctype, CDATA and other declarations
    }
    if (next == '?') return past('>', lt + 2);
    if (next == '/') {
      if (lt + 2 < n && is_ascii_alpha(html_[lt + 2])) {
        size_t after = read_name(lt + 2);
        size_t end = html_.find('>', after);
        if (end == std::string_view::npos) return n;  // EOF in a tag: dropped
        on_end_tag(name_);
        return end + 1;
      }
      return past('>', lt + 2);  // "</>" and "</ ...>" are dropped
    }
    if (!is_ascii_alpha(next)) {
      on_text(html_.substr(lt, 1), true);  // a lone '<' is text
      return lt + 1;
    }
    size_t after = start_tag(lt + 1);
    if (after == std::string_view::npos) return n;  // EOF in a tag: dropped
    // "<script/>" is empty for libxml2 (and lxml): no raw text follows.
    if (!self_closing_ && kRawTextTags.contains(name_)) {
      return raw_text(after);
    }
    return after;
  }

  size_t past(char c, size_t from) const {
    size_t at = html_.find(c, from);
    return at == std::string_view::npos ? html_.size() : at + 1;
  }

  // Lowercases the tag name starting at `i` into name_; returns where it ends.
  size_t read_name(size_t i) {
    name_.clear();
    while (i < html_.size() && !is_ascii_whitespace(html_[i]) && html_[i] != '/' &&
           html_[i] != '>') {
      name_.push_back(ascii_lower(html_[i]));
      ++i;
    }
    return i;
  }

  // Parses the start tag whose name begins at `i`, reports it; returns the index after its
  // '>', or npos when the page ends inside it.
  size_t start_tag(size_t i) {
    const size_t n = html_.size();
    i = read_name(i);
    attributes_.clear();
    values_.clear();
    decoded_.clear();
    bool self_closing = false;
    while (true) {
      while (i < n && (is_ascii_whitespace(html_[i]) || html_[i] == '/')) {
        self_closing = html_[i] == '/';
        ++i;
      }
      if (i >= n) return std::string_view::npos;
      if (html_[i] == '>') break;
      self_closing = false;
      size_t name_start = i++;  // a first '=' belongs to the name
      while (i < n && !is_ascii_whitespace(html_[i]) && html_[i] != '/' && html_[i] != '>' &&
             html_[i] != '=') {
        ++i;
      }
      std::string_view name = html_.substr(name_start, i - name_start);
      size_t k = i;
      while (k < n && is_ascii_whitespace(html_[k])) ++k;
      std::string_view value;
      if (k < n && html_[k] == '=') {
        ++k;
        while (k < n && is_ascii_whitespace(html_[k])) ++k;
        if (k >= n) return std::string_view::npos;
        if (html_[k] == '"' || html_[k] == '\'') {
          size_t close = html_.find(html_[k], k + 1);
          if (close == std::string_view::npos) return std::string_view::npos;
          value = html_.substr(k + 1, close - k - 1);
          i = close + 1;
        } else {
          size_t v = k;
          while (k < n && !is_ascii_whitespace(html_[k]) && html_[k] != '>') ++k;
          value = html_.substr(v, k - v);
          i = k;
        }
      }
      add_attribute(name, value);
    }
    self_closing_ = self_closing;
    on_start_tag();
    return i + 1;
  }

  void add_attribute(std::string_view name, std::string_view value) {
    if (value.find('&') != std::string_view::npos) {
      values_.emplace_back();
      append_decoded(values_.back(), value);
      attributes_.push_back({name, {}});
      decoded_.push_back(values_.size() - 1);
    } else {
      attributes_.push_back({name, value});
      decoded_.push_back(kNotDecoded);
    }
  }

  // After a raw-text start tag: the content up to "</name" (any case) is text.
  size_t raw_text(size_t from) {
    const size_t n = html_.size();
    std::string tag = name_;
    size_t end = from;
    while (true) {
      end = html_.find("</", end);
      if (end == std::string_view::npos) {
        end = n;
        break;
      }
      size_t k = 0;
      while (k < tag.size() && end + 2 + k < n && ascii_lower(html_[end + 2 + k]) == tag[k]) ++k;
      size_t after = end + 2 + k;
      if (k == tag.size() && (after >= n || is_ascii_whitespace(html_[after]) ||
                              html_[after] == '/' || html_[after] == '>')) {
        break;
      }
      end += 2;
    }
    on_text(html_.substr(from, end - from), false);
    name_ = tag;
    on_end_tag(name_);
    return end >= n ? n : past('>', end + 2);
  }

  // The start tag just scanned: name_, attributes_, self_closing_.
  void on_start_tag() {
    // The decoded values' strings no longer move: the views can point at them now.
    for (size_t k = 0; k < attributes_.size(); ++k) {
      if (decoded_[k] != kNotDecoded) attributes_[k].value = values_[decoded_[k]];
    }
    const std::string& tag = name_;
    if (tag == "html") {
      if (sink_.depth() == 0) start("html", true);
      return;  // a later <html> adds nothing
    }
    // As libxml2 does, in this order: the implied end tags the new tag causes, then the
    // implied <html>, <head> or <body> it needs.
    close_implied_by(tag);
    ensure_html();
    if (tag == "head") {
      // Only right under <html>, and once.
      if (sink_.depth() == 1 && !head_seen_ && !in_body_) {
        start("head", true);
        head_seen_ = true;
      }
      return;
    }
    if (tag == "body") {
      if (!in_body_) enter_body(true);
      return;  // a second <body> adds nothing but the end tags it implied
    }
    imply_head_or_body(tag);
    bool empty = kVoidTags.contains(tag) || self_closing_;
    if (sink_.depth() >= max_open_) {
      if (!empty) ++dropped_open_;  // too deep: the tag goes, its text stays
      return;
    }
    start(tag, true);
    if (empty) sink_.end(tag);
  }

  void on_end_tag(const std::string& tag) {
    if (tag == "html" || tag == "body") return;  // closed at the end, as libxml2 does
    if (sink_.is_open(tag)) {
      // An end tag closes what lies above its element only if libxml2 would: "</b>" does
      // not close across a <div> or a table cell, and is then ignored.
      for (size_t k = 0; sink_.open_below_top(k) != tag; ++k) {
        if (!libxml2_end_closes_across(tag, sink_.open_below_top(k))) return;
      }
      sink_.end(tag);
    } else if (dropped_open_ > 0) {
      --dropped_open_;  // most likely the end of a start tag dropped for depth
    }
  }

  void on_text(std::string_view text, bool decode) {
    std::string_view top = sink_.top();
    if (top.empty() || top == "html" || top == "head") {
      // Text right under <html> or <head>: blank text is dropped; other text sits in an
      // implied <p> (which closes the head and implies the body), as libxml2 puts it.
      if (is_blank(text)) return;
      close_implied_by("p");
      ensure_html();
      imply_head_or_body("p");
      start("p", false);
    }
    if (!sink_.wants_text()) return;
    if (decode && text.find('&') != std::string_view::npos) {
      append_decoded(sink_.text_buffer(), text);
    } else {
      sink_.text(text);  // a view into the page
    }
  }

  // Implied end tags, as libxml2 closes them: while the new tag closes the open top (never
  // <html> or <body>).
  void close_implied_by(std::string_view tag) {
    while (!sink_.top().empty() && sink_.top() != "html" && sink_.top() != "body" &&
           libxml2_start_closes(tag, sink_.top(), !in_body_ && sink_.is_open("head"))) {
      sink_.end(sink_.top());
    }
  }

  void ensure_html() {
    if (sink_.depth() == 0) start("html", false);
  }

  // Before any body content: a head element right under <html> opens an implied <head>
  // (once); anything else opens an implied <body>, unless a <head> or <body> is still open,
  // in which case it goes inside (libxml2 keeps a stray <tr> in an open <head>).
  void imply_head_or_body(std::string_view tag) {
    if (in_body_) return;
    if (kHeadTags.contains(tag) && sink_.depth() <= 1) {
      if (!head_seen_) {
        start("head", false);
        head_seen_ = true;
      }
      return;
    }
    if (sink_.is_open("head")) return;
    enter_body(false);
  }

  // Opens <body>: `explicit_tag` when the page wrote it (its attributes are the ones just
  // scanned), else implied by body content (then the head is the top or closed).
  void enter_body(bool explicit_tag) {
    if (sink_.is_open("head")) sink_.end("head");
    start("body", explicit_tag);
    in_body_ = true;
  }

  // Reports a start tag, with the attributes parsed when it is the tag just scanned.
  void start(std::string_view tag, bool with_attributes) {
    if (with_attributes) {
      sink_.start(tag, HtmlElement::from_scanner(tag, attributes_.data(), attributes_.size()));
    } else {
      sink_.start(tag, HtmlElement::from_scanner(tag, nullptr, 0));
    }
  }

  static constexpr size_t kNotDecoded = static_cast<size_t>(-1);

  std::string_view html_;
  HtmlEventSink sink_;
  size_t max_open_;
  size_t dropped_open_ = 0;  // start tags dropped for depth, not yet closed
  bool in_body_ = false;
  bool head_seen_ = false;     // a <head> was opened, written or implied
  bool self_closing_ = false;  // of the start tag just scanned
  std::string name_;
  std::vector<HtmlAttribute> attributes_;
  std::vector<std::string> values_;  // attribute values with references decoded
  std::vector<size_t> decoded_;      // per attribute: its index in values_, or kNotDecoded
};

}  // namespace

void walk_scanner(std::string_view html, HtmlVisitor& visitor, size_t max_depth, size_t max_open) {
  Scanner(html, visitor, max_depth, max_open).run();
}

}  // namespace winnow::html_backends
