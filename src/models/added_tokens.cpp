#include "models/added_tokens.h"

#include <simdjson.h>

#include <algorithm>

#include "models/hf_char_classes.h"

namespace winnow {

namespace {

// The bytes of whitespace (Rust's \s: Unicode White_Space) ending at `end`, not before `floor`.
size_t whitespace_before(std::string_view text, size_t floor, size_t end) {
  size_t i = end, length;
  while (i > floor && hf_chars::is_whitespace(hf_chars::decode_before(text, i, length)) &&
         i - length >= floor) {
    i -= length;
  }
  return end - i;
}

// The bytes of whitespace starting at `start`.
size_t whitespace_after(std::string_view text, size_t start) {
  size_t i = start, length;
  while (i < text.size() && hf_chars::is_whitespace(hf_chars::decode_at(text, i, length))) {
    i += length;
  }
  return i - start;
}

// HF keeps a single_word token only where no word character (regex \w) touches it on either
// side, in the text it searched.
bool stands_alone(std::string_view text, size_t start, size_t end) {
  size_t length;
  if (start > 0 && hf_chars::is_word(hf_chars::decode_before(text, start, length))) return false;
  return end == text.size() || !hf_chars::is_word(hf_chars::decode_at(text, end, length));
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
    if (token.single_word && !stands_alone(text, i, best_end)) {
      // Dropped, and the search goes on after it, as HF's iteration over non-overlapping
      // matches does (a shorter token inside it is not looked for).
      i = best_end - 1;
      continue;
    }
    size_t start = i, end = best_end;
    if (token.lstrip) start -= whitespace_before(text, span_start, i);
    if (token.rstrip) end += whitespace_after(text, end);
    if (start > span_start) on_text(text.substr(span_start, start - span_start), span_start);
    on_token(token.id);
    span_start = end;
    // HF's search goes on after the match itself, not after the whitespace rstrip took: a
    // token found in that whitespace is still emitted (gemma3's "\t" after an rstrip token),
    // and the text after it starts at its end.
    i = best_end - 1;
  }
  if (span_start < text.size()) on_text(text.substr(span_start), span_start);
}

Status parse_added_tokens(const simdjson::dom::element& root,
                          const std::function<void(std::string&)>& normalize, AddedTokens& raw,
                          AddedTokens& normalized) {
  simdjson::dom::array added;
  if (root["added_tokens"].get(added)) return Status::ok();
  for (simdjson::dom::element entry : added) {
    std::string_view content;
    int64_t id;
    if (entry["content"].get(content) || entry["id"].get(id)) {
      return Status::error("an added token without content or id");
    }
    auto flag = [&](const char* key) {
      bool value = false;
      return !entry[key].get(value) && value;
    };
    AddedTokens::Token token{std::string(content), id, flag("lstrip"), flag("rstrip"),
                             flag("single_word")};
    // HF matches these in each normalised stretch between the raw ones (with no normalizer,
    // in the raw text of the stretch).
    if (flag("normalized")) {
      normalize(token.content);
      normalized.add(std::move(token));
    } else {
      raw.add(std::move(token));
    }
  }
  return Status::ok();
}

}  // namespace winnow
