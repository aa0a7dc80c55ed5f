#include "text/word_tokenizer.h"

#include "core/ascii.h"
#include "text/python_text.h"

namespace winnow {

namespace {

bool is_split_char(uint32_t cp) {
  switch (cp) {
    case '?':
    case '!':
    case ';':
    case '@':
    case '#':
    case '$':
    case '%':
    case '&':
    case '(':
    case ')':
    case '[':
    case ']':
    case '{':
    case '}':
    case '<':
    case '>':
    case '"':
    case 0x201C:
    case 0x201D:
    case 0xAB:
    case 0xBB:
      return true;
    default:
      return false;
  }
}

class Emitter {
 public:
  Emitter(std::string_view text, std::vector<TextPiece>& out) : text_(text), out_(out) {}

  // Emits text_[begin, end), splitting a contraction off its end.
  void word(size_t begin, size_t end) {
    if (begin >= end) return;
    std::string_view w = text_.substr(begin, end - begin);
    static const std::string_view kContractions[] = {"n't", "'ll", "'re", "'ve", "'s", "'m", "'d"};
    for (std::string_view c : kContractions) {
      if (w.size() > c.size() && ascii_iends_with(w, c) && w[w.size() - c.size() - 1] != '\'') {
        raw(begin, end - c.size());
        raw(end - c.size(), end);
        return;
      }
    }
    raw(begin, end);
  }

  void raw(size_t begin, size_t end) {
    if (begin >= end) return;
    std::string_view w = text_.substr(begin, end - begin);
    out_.push_back({static_cast<uint32_t>(begin), static_cast<uint32_t>(end - begin),
                    static_cast<uint32_t>(python_len(w))});
  }

 private:
  std::string_view text_;
  std::vector<TextPiece>& out_;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Tokenises one whitespace-free chunk text[begin, end).
void tokenize_chunk(std::string_view text, size_t begin, size_t end, Emitter& emit) {
  const char* base = text.data();
  size_t token_start = begin;
  size_t last_word_begin = begin, last_word_end = begin;
  bool have_pending = false;
  auto close = [&](size_t at) {
    if (token_start < at) {
      if (have_pending) emit.word(last_word_begin, last_word_end);
      last_word_begin = token_start;
      last_word_end = at;
      have_pending = true;
    }
  };
  auto flush_pending = [&] {
    if (have_pending) emit.word(last_word_begin, last_word_end);
    have_pending = false;
  };
  size_t i = begin;
  while (i < end) {
    const char* p = base + i;
    uint32_t cp = decode_utf8(p, base + end);
    size_t next = static_cast<size_t>(p - base);
    size_t special_end = 0;
    if (is_split_char(cp)) {
      special_end = next;
    } else if (cp == '.' && i + 2 < end + 0 && text.compare(i, 3, "...") == 0) {
      special_end = i + 3;
    } else if (cp == '-' && i + 1 < end && text[i + 1] == '-') {
      special_end = i + 2;
    } else if ((cp == ',' || cp == ':') && (next >= end || !is_digit(text[next]))) {
      special_end = next;
    }
    if (special_end) {
      close(i);
      flush_pending();
      emit.raw(i, special_end);
      token_start = special_end;
      i = special_end;
      continue;
    }
    i = next;
  }
  // The last word: a final period or quote splits off.
  if (token_start < end) {
    close(end);
    std::string_view w = text.substr(last_word_begin, last_word_end - last_word_begin);
    if (w.size() > 1 && (w.back() == '.' || w.back() == '\'') &&
        (w.back() == '\'' || w.find('.') == w.size() - 1)) {
      emit.word(last_word_begin, last_word_end - 1);
      emit.raw(last_word_end - 1, last_word_end);
      have_pending = false;
    }
  }
  flush_pending();
}

}  // namespace

void word_tokenize(std::string_view text, std::vector<TextPiece>& out) {
  out.clear();
  Emitter emit(text, out);
  const char* base = text.data();
  const char* end = base + text.size();
  const char* p = base;
  const char* chunk = nullptr;
  while (p < end) {
    const char* here = p;
    uint32_t cp = decode_utf8(p, end);
    if (is_python_space(cp)) {
      if (chunk) tokenize_chunk(text, chunk - base, here - base, emit);
      chunk = nullptr;
    } else if (!chunk) {
      chunk = here;
    }
  }
  if (chunk) tokenize_chunk(text, chunk - base, end - base, emit);
}

}  // namespace winnow
