#include "models/added_tokens.h"

#include <algorithm>

namespace winnow {

namespace {

// Rust's char::is_whitespace on the ASCII and two-byte forms HF's lstrip/rstrip meet in
// practice (space, \t-\r, U+0085, U+00A0); wider Unicode spaces are not stripped here.
size_t whitespace_before(std::string_view text, size_t end) {
  size_t i = end;
  while (i > 0) {
    unsigned char c = static_cast<unsigned char>(text[i - 1]);
    if (c == ' ' || (c >= 0x09 && c <= 0x0D)) {
      --i;
    } else if (i >= 2 && static_cast<unsigned char>(text[i - 2]) == 0xC2 &&
               (c == 0x85 || c == 0xA0)) {
      i -= 2;
    } else {
      break;
    }
  }
  return end - i;
}

size_t whitespace_after(std::string_view text, size_t start) {
  size_t i = start;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == ' ' || (c >= 0x09 && c <= 0x0D)) {
      ++i;
    } else if (c == 0xC2 && i + 1 < text.size() &&
               (static_cast<unsigned char>(text[i + 1]) == 0x85 ||
                static_cast<unsigned char>(text[i + 1]) == 0xA0)) {
      i += 2;
    } else {
      break;
    }
  }
  return i - start;
}

}  // namespace

int32_t AddedTokens::child(int32_t node, unsigned char byte) const {
  const auto& children = nodes_[node].children;
  auto found = std::lower_bound(children.begin(), children.end(), byte,
                                [](const auto& entry, unsigned char b) { return entry.first < b; });
  return found != children.end() && found->first == byte ? found->second : -1;
}

void AddedTokens::add(Token token) {
  if (token.content.empty()) return;
  int32_t node = 0;
  for (char ch : token.content) {
    auto byte = static_cast<unsigned char>(ch);
    int32_t next = child(node, byte);
    if (next < 0) {
      next = static_cast<int32_t>(nodes_.size());
      nodes_.emplace_back();
      auto& children = nodes_[node].children;
      children.insert(std::lower_bound(children.begin(), children.end(), byte,
                                       [](const auto& e, unsigned char b) { return e.first < b; }),
                      {byte, next});
    }
    node = next;
  }
  first_byte_[static_cast<unsigned char>(token.content[0])] = true;
  // The same content twice: HF keeps the later entry.
  if (nodes_[node].token >= 0) {
    tokens_[nodes_[node].token] = std::move(token);
  } else {
    nodes_[node].token = static_cast<int32_t>(tokens_.size());
    tokens_.push_back(std::move(token));
  }
}

void AddedTokens::split(std::string_view text,
                        const std::function<void(std::string_view, size_t)>& on_text,
                        const std::function<void(int64_t)>& on_token) const {
  size_t span_start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!first_byte_[static_cast<unsigned char>(text[i])]) continue;
    // The longest token starting at i.
    int32_t node = 0, best = -1;
    size_t best_end = 0;
    for (size_t j = i; j < text.size(); ++j) {
      node = child(node, static_cast<unsigned char>(text[j]));
      if (node < 0) break;
      if (nodes_[node].token >= 0) {
        best = nodes_[node].token;
        best_end = j + 1;
      }
    }
    if (best < 0) continue;
    const Token& token = tokens_[best];
    size_t start = i, end = best_end;
    if (token.lstrip) start -= whitespace_before(text.substr(span_start), i - span_start);
    if (token.rstrip) end += whitespace_after(text, end);
    if (start > span_start) on_text(text.substr(span_start, start - span_start), span_start);
    on_token(token.id);
    span_start = end;
    i = end - 1;
  }
  if (span_start < text.size()) on_text(text.substr(span_start), span_start);
}

}  // namespace winnow
