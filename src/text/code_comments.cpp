#include "text/code_comments.h"

#include "core/ascii.h"
#include "text/python_text.h"

namespace winnow {

namespace {

// Skips a quoted literal starting at s[i] (the quote); returns the index after it.
size_t skip_quoted(std::string_view s, size_t i) {
  char q = s[i++];
  while (i < s.size()) {
    if (s[i] == '\\') {
      i += 2;
      continue;
    }
    if (s[i] == q) return i + 1;
    if (s[i] == '\n' && q != '`') return i;  // unterminated: stop at the line end
    ++i;
  }
  return s.size();
}

}  // namespace

size_t comment_chars(std::string_view s, CommentSyntax syntax) {
  size_t chars = 0;
  size_t i = 0;
  if (syntax == CommentSyntax::kHtml) {
    while ((i = s.find("<!--", i)) != std::string_view::npos) {
      size_t end = s.find("-->", i + 4);
      size_t stop = end == std::string_view::npos ? s.size() : end;
      chars += python_len(s.substr(i + 4, stop - i - 4));
      if (end == std::string_view::npos) break;
      i = end + 3;
    }
    return chars;
  }
  while (i < s.size()) {
    char c = s[i];
    if (c == '"' || c == '\'' || (c == '`' && syntax == CommentSyntax::kC)) {
      i = skip_quoted(s, i);
    } else if (syntax == CommentSyntax::kHash && c == '#') {
      size_t end = s.find('\n', i);
      if (end == std::string_view::npos) end = s.size();
      chars += python_len(s.substr(i + 1, end - i - 1));
      i = end;
    } else if (syntax == CommentSyntax::kC && c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      size_t end = s.find('\n', i);
      if (end == std::string_view::npos) end = s.size();
      chars += python_len(s.substr(i + 2, end - i - 2));
      i = end;
    } else if (syntax == CommentSyntax::kC && c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t end = s.find("*/", i + 2);
      size_t stop = end == std::string_view::npos ? s.size() : end;
      chars += python_len(s.substr(i + 2, stop - i - 2));
      i = end == std::string_view::npos ? s.size() : end + 2;
    } else {
      ++i;
    }
  }
  return chars;
}

size_t python_comment_chars(std::string_view s) {
  size_t chars = 0;
  size_t i = 0;
  bool line_start = true;  // only white space so far on this line
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
      ++i;
      continue;
    }
    bool statement_start = line_start;
    line_start = false;
    if (c == '#') {
      size_t end = s.find('\n', i);
      if (end == std::string_view::npos) end = s.size();
      chars += python_len(s.substr(i, end - i));
      i = end;
      continue;
    }
    // String prefixes (r, b, u, f and pairs) before a quote.
    size_t q = i;
    while (q < s.size() && q - i < 2 &&
           (s[q] == 'r' || s[q] == 'R' || s[q] == 'b' || s[q] == 'B' || s[q] == 'u' ||
            s[q] == 'U' || s[q] == 'f' || s[q] == 'F'))
      ++q;
    if (q < s.size() && (s[q] == '"' || s[q] == '\'') &&
        (q == i || i == 0 || !(is_ascii_alnum(s[i - 1]) || s[i - 1] == '_'))) {
      char quote = s[q];
      bool triple = q + 2 < s.size() && s[q + 1] == quote && s[q + 2] == quote;
      size_t body = q + (triple ? 3 : 1);
      size_t end = body;
      if (triple) {
        const char closing[4] = {quote, quote, quote, 0};
        size_t found = s.find(closing, body);
        // Escaped quotes inside a triple-quoted string are rare in docstrings; not handled.
        end = found == std::string_view::npos ? s.size() : found;
        if (statement_start) chars += python_len(s.substr(body, end - body));
        i = found == std::string_view::npos ? s.size() : found + 3;
      } else {
        size_t after = skip_quoted(s, q);
        size_t close =
            after > body && after <= s.size() && s[after - 1] == quote ? after - 1 : after;
        if (statement_start) {
          // A one-line string statement counts only when nothing but a comment follows it.
          size_t k = after;
          while (k < s.size() && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r')) ++k;
          if (k >= s.size() || s[k] == '\n' || s[k] == '#')
            chars += python_len(s.substr(body, close - body));
        }
        i = after;
      }
      continue;
    }
    // Any other token: skip to the next interesting character.
    ++i;
    while (i < s.size() && s[i] != '\n' && s[i] != '#' && s[i] != '"' && s[i] != '\'') ++i;
  }
  return chars;
}

}  // namespace winnow
