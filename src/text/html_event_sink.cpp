#include "text/html_parser_backends.h"

namespace winnow::html_backends {

void HtmlEventSink::start(std::string_view tag, const HtmlElement& element) {
  flush_text();
  // As in the tree walk: element depth counts the document, so <html> is at depth 1.
  bool report = skip_at_ == kNone && open_.size() + 1 <= max_depth_;
  bool skip = report && !visitor_.start(element);
  open_.push_back({std::string(tag), report && !skip});
  open_count_.add(tag);
  if (skip) skip_at_ = open_.size() - 1;
}

namespace {

size_t slot_hash(uint64_t a, uint64_t b) {
  uint64_t h = (a ^ (b * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL;
  return static_cast<size_t>(h ^ (h >> 31));
}

}  // namespace

size_t HtmlEventSink::OpenTagCounts::find(uint64_t a, uint64_t b) const {
  size_t mask = slots_.size() - 1;
  size_t i = slot_hash(a, b) & mask;
  while (slots_[i].a != 0 && (slots_[i].a != a || slots_[i].b != b)) i = (i + 1) & mask;
  return i;
}

uint32_t HtmlEventSink::OpenTagCounts::count(std::string_view tag) const {
  if (tag.empty()) return 0;
  auto [a, b] = tag_set_detail::pack(tag.substr(0, 16));
  return slots_[find(a, b)].count;
}

void HtmlEventSink::OpenTagCounts::add(std::string_view tag) {
  if (tag.empty()) return;
  auto [a, b] = tag_set_detail::pack(tag.substr(0, 16));
  Slot& slot = slots_[find(a, b)];
  if (slot.a == 0) {
    slot = {a, b, 0};
    if (++used_ * 2 > slots_.size()) {
      grow();
      slots_[find(a, b)].count = 1;
      return;
    }
  }
  ++slot.count;
}

void HtmlEventSink::OpenTagCounts::remove(std::string_view tag) {
  if (tag.empty()) return;
  auto [a, b] = tag_set_detail::pack(tag.substr(0, 16));
  size_t i = find(a, b);
  if (slots_[i].a == 0 || --slots_[i].count > 0) return;
  // Backward-shift deletion: move later entries of the probe run into the hole.
  size_t mask = slots_.size() - 1;
  size_t hole = i;
  for (size_t j = (i + 1) & mask; slots_[j].a != 0; j = (j + 1) & mask) {
    size_t home = slot_hash(slots_[j].a, slots_[j].b) & mask;
    // j's entry may move to the hole unless its home lies cyclically in (hole, j].
    bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (stays) continue;
    slots_[hole] = slots_[j];
    hole = j;
  }
  slots_[hole] = Slot{};
  --used_;
}

void HtmlEventSink::OpenTagCounts::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{});
  for (const Slot& slot : old) {
    if (slot.a != 0) slots_[find(slot.a, slot.b)] = slot;
  }
}

bool HtmlEventSink::is_open(std::string_view tag) const { return open_count_.count(tag) > 0; }

void HtmlEventSink::end(std::string_view tag) {
  if (!is_open(tag)) return;
  flush_text();
  size_t i = open_.size();
  while (i > 0 && open_[i - 1].tag != tag) --i;
  if (i > 0) close_down_to(i - 1);
}

void HtmlEventSink::finish() {
  flush_text();
  close_down_to(0);
}

void HtmlEventSink::flush_text() {
  if (!pending_.empty()) {
    std::string_view run = pending_;
    pending_ = {};
    visitor_.text(run);
  } else if (!text_.empty()) {
    visitor_.text(text_);
    text_.clear();
  }
}

void HtmlEventSink::close_down_to(size_t index) {
  while (open_.size() > index) {
    Open top = std::move(open_.back());
    open_.pop_back();
    open_count_.remove(top.tag);
    if (skip_at_ == open_.size()) {
      skip_at_ = kNone;  // the skipped element itself: no end() for it
    } else if (top.reported && skip_at_ == kNone) {
      visitor_.end(HtmlElement::from_libxml2(top.tag, nullptr));
    }
  }
}

}  // namespace winnow::html_backends
