#pragma once
// The two parsers behind HtmlDocument (html_document.h); internal to src/text/.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/html_document.h"
#include "text/tag_set.h"

namespace winnow::html_backends {

// gumbo (html_gumbo.cpp): a tree in an arena, walked with an explicit stack.
class GumboTree;
struct GumboTreeDeleter {
  void operator()(GumboTree* tree) const;
};
using GumboTreePtr = std::unique_ptr<GumboTree, GumboTreeDeleter>;
GumboTreePtr parse_with_gumbo(std::string_view html);
void walk_gumbo(const GumboTree& tree, HtmlVisitor& visitor, size_t max_depth);
std::string_view gumbo_tag(const void* node);
std::optional<std::string_view> gumbo_attribute(const void* node, std::string_view name);
bool gumbo_self_closing(const void* node);

// Turns a streaming parser's start/end/text calls into HtmlVisitor calls (html_event_sink.cpp):
// text pieces joined into one call per run, skipped subtrees kept quiet, elements deeper than
// the walk's `max_depth` reported as text only, and each end tag matched by name against the
// open elements (all closed at finish()).
class HtmlEventSink {
 public:
  HtmlEventSink(HtmlVisitor& visitor, size_t max_depth)
      : visitor_(visitor), max_depth_(max_depth) {}

  void start(std::string_view tag, const HtmlElement& element);
  // Closes the innermost open `tag` and everything opened inside it; nothing if none is open.
  void end(std::string_view tag);
  // Text inside a skipped subtree is dropped: callers may skip producing it.
  bool wants_text() const { return skip_at_ == kNone; }
  // A piece of text that stays valid until the sink's next call (a view into the page):
  // a run of one piece reaches the visitor without a copy.
  void text(std::string_view piece) {
    if (!wants_text() || piece.empty()) return;
    if (text_.empty() && pending_.empty()) {
      pending_ = piece;
      return;
    }
    text_buffer().append(piece);
  }
  // The run's buffer, to append text that does not outlive the call (decoded references,
  // a parser's own buffer).
  std::string& text_buffer() {
    if (!pending_.empty()) {
      text_.assign(pending_);
      pending_ = {};
    }
    return text_;
  }
  void finish();

  size_t depth() const { return open_.size(); }
  // The open element `k` places below the top (0: the top).
  std::string_view open_below_top(size_t k) const { return open_[open_.size() - 1 - k].tag; }
  std::string_view top() const { return open_.empty() ? std::string_view() : open_.back().tag; }
  bool is_open(std::string_view tag) const;

 private:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  struct Open {
    std::string tag;
    bool reported;  // start() was called and said to go on, so end() is due
  };
  // How many elements of each tag are open, the tags keyed by their first 16 bytes packed
  // into two words (tag_set.h); longer tags sharing a prefix share a count, which only costs
  // a stack search. Open addressing with linear probing and backward-shift deletion: a tag
  // leaves when its count reaches zero, so the table holds at most the open elements.
  class OpenTagCounts {
   public:
    uint32_t count(std::string_view tag) const;
    void add(std::string_view tag);
    void remove(std::string_view tag);

   private:
    struct Slot {
      uint64_t a = 0, b = 0;  // the packed tag; a == 0 marks an empty slot (no empty tags)
      uint32_t count = 0;
    };
    size_t find(uint64_t a, uint64_t b) const;  // the slot holding the key, or an empty one
    void grow();
    std::vector<Slot> slots_ = std::vector<Slot>(64);
    size_t used_ = 0;
  };

  void flush_text();
  void close_down_to(size_t index);

  HtmlVisitor& visitor_;
  size_t max_depth_;
  std::vector<Open> open_;
  // An end tag that matches nothing costs no stack search, so a page of stray end tags
  // stays linear.
  OpenTagCounts open_count_;
  size_t skip_at_ = kNone;    // index in open_ of the element whose subtree is skipped
  std::string_view pending_;  // the run so far, when it is one piece
  std::string text_;          // the run so far, otherwise
};

// libxml2 (html_libxml2.cpp): parses `html` while it reports the events; no tree.
void walk_libxml2(std::string_view html, HtmlVisitor& visitor, size_t max_depth);

// libxml2's own tree rules, asked of libxml2 by parsing a probe page once per pair of tags and
// thread (html_libxml2.cpp), so that the scanner places blocks as libxml2 and lxml do:
// does starting `tag` close an open `open` ("<p>" closes "p", "<td>" closes "a"), inside
// <head> when `in_head`, else inside <body>? Does the
// end tag `end_tag`, when it matches an element below the open `open`, close `open` too, or
// is it ignored ("</b>" does not close across a "div" or a table cell)?
bool libxml2_start_closes(std::string_view tag, std::string_view open, bool in_head);
bool libxml2_end_closes_across(std::string_view end_tag, std::string_view open);

// winnow's scanner (html_scanner.cpp): HTML5 tokenisation in one pass, with the implied end
// tags and implied <head>/<body> that decide where blocks start; nesting capped at `max_open`
// (deeper start tags and their end tags dropped, their text kept).
void walk_scanner(std::string_view html, HtmlVisitor& visitor, size_t max_depth, size_t max_open);

}  // namespace winnow::html_backends
