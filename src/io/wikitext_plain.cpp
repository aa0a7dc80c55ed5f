#include "io/wikitext_plain.h"

#include <libxml/HTMLparser.h>

#include <algorithm>
#include <array>
#include <cstdint>


namespace winnow {

namespace {

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (lower(s[i]) != lower(prefix[i])) return false;
  }
  return true;
}

bool one_of(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// mwparserfromhell's tag classes (its definitions.py), by lower-case name.
bool is_single_only(std::string_view t) { return one_of(t, {"br", "wbr", "hr", "meta", "link", "img"}); }
bool is_single(std::string_view t) {
  return is_single_only(t) || one_of(t, {"li", "dt", "dd", "th", "td", "tr"});
}
bool is_invisible(std::string_view t) {
  return one_of(t, {"categorytree", "gallery", "graph", "imagemap", "inputbox", "math", "score",
                    "section", "templatedata", "timeline"});
}
// Contents not parsed as wikitext (kept as they are when visible).
bool is_unparsed(std::string_view t) {
  return one_of(t, {"categorytree", "ce", "chem", "gallery", "graph", "hiero", "imagemap",
                    "inputbox", "math", "nowiki", "pre", "score", "section", "source",
                    "syntaxhighlight", "templatedata", "timeline"});
}

// URI schemes of bracketed external links, and whether "//" must follow the colon.
struct Scheme {
  std::string_view name;
  bool slashes;
};
constexpr std::array<Scheme, 26> kSchemes{{
    {"bitcoin", false}, {"ftp", true},     {"ftps", true},   {"geo", false},
    {"git", true},      {"gopher", true},  {"http", true},   {"https", true},
    {"irc", true},      {"ircs", true},    {"magnet", false}, {"mailto", false},
    {"mms", true},      {"news", false},   {"nntp", true},   {"redis", true},
    {"sftp", true},     {"sip", false},    {"sips", false},  {"sms", false},
    {"ssh", true},      {"svn", true},     {"tel", false},   {"telnet", true},
    {"urn", false},     {"worldwind", true},
}};

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// strip_code's collapse: newlines dropped at both ends, runs of three or more become two.
std::string collapse(std::string_view s) {
  size_t b = s.find_first_not_of('\n');
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of('\n') + 1;
  std::string out;
  out.reserve(e - b);
  size_t run = 0;
  for (size_t i = b; i < e; ++i) {
    run = s[i] == '\n' ? run + 1 : 0;
    if (run <= 2) out.push_back(s[i]);
  }
  return out;
}

// Length of the white space character (as Python's str.isspace) at the start or end of `s`.
size_t space_at_start(std::string_view s) {
  if (s.empty()) return 0;
  unsigned char c = static_cast<unsigned char>(s[0]);
  if (c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f)) return 1;
  for (std::string_view sp : {"\u0085", "\u00a0", "\u1680", "\u2028", "\u2029", "\u202f",
                              "\u205f", "\u3000"}) {
    if (s.starts_with(sp)) return sp.size();
  }
  if (s.size() >= 3 && s.starts_with("\xe2\x80") && static_cast<unsigned char>(s[2]) >= 0x80 &&
      static_cast<unsigned char>(s[2]) <= 0x8a)  // U+2000..U+200A
    return 3;
  return 0;
}
size_t space_at_end(std::string_view s) {
  for (size_t n = 1; n <= std::min<size_t>(3, s.size()); ++n) {
    std::string_view tail = s.substr(s.size() - n);
    if (space_at_start(tail) == n) return n;
  }
  return 0;
}
std::string_view py_strip(std::string_view s) {
  while (size_t n = space_at_start(s)) s.remove_prefix(n);
  while (size_t n = space_at_end(s)) s.remove_suffix(n);
  return s;
}

// Removes what the regex `__[A-Z]*__` matches (behaviour switches such as __NOTOC__).
std::string remove_magic_words(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == '_' && i + 1 < s.size() && s[i + 1] == '_') {
      size_t j = i + 2;
      while (j < s.size() && s[j] >= 'A' && s[j] <= 'Z') ++j;
      if (j + 1 < s.size() && s[j] == '_' && s[j + 1] == '_') {
        i = j + 2;
        continue;
      }
    }
    out.push_back(s[i++]);
  }
  return out;
}

class Stripper {
 public:
  explicit Stripper(const WikitextOptions& options) {
    media_ = {"File", "Image", "Media"};
    for (const auto& p : options.extra_media_prefixes) media_.push_back(p);
    categories_ = {"Category"};
    for (const auto& p : options.extra_category_prefixes) categories_.push_back(p);
  }

  std::string page(std::string_view text) {
    budget_ = 64 * text.size() + (1 << 20);
    std::vector<std::string> sections(1);
    run(text, &sections);
    std::string out;
    for (size_t k = 0; k < sections.size(); ++k) {
      if (k > 0) out += "\n\n";
      out += remove_magic_words(py_strip(collapse(sections[k])));
    }
    return out;
  }

 private:
  // strip_code of a part inside the page (a link's text, a tag's contents, a heading's title).
  std::string strip(std::string_view text) {
    std::vector<std::string> one(1);
    run(text, nullptr, &one[0]);
    return collapse(one[0]);
  }

  // The stripped form of `s`, appended to the last of `sections` (top-level headings start a
  // new one) or, for a part, to `part`.
  void run(std::string_view s, std::vector<std::string>* sections, std::string* part = nullptr) {
    std::string* out = sections ? &sections->back() : part;
    size_t i = 0;
    const size_t n = s.size();
    while (i < n) {
      // Only the page's own start counts as a line start, not a part's (mwparserfromhell
      // reads `[[:a]]` as a link to ":a", not as a list marker).
      const bool line_start = i == 0 ? sections != nullptr : s[i - 1] == '\n';
      const char c = s[i];
      if (line_start) {
        if (c == '=') {
          if (size_t end = heading(s, i, sections, out); end != 0) {
            if (sections) out = &sections->back();
            i = end;
            continue;
          }
        } else if (c == '*' || c == '#' || c == ':' || c == ';') {
          while (i < n && (s[i] == '*' || s[i] == '#' || s[i] == ':' || s[i] == ';')) ++i;
          continue;
        } else if (s.substr(i).starts_with("----")) {
          while (i < n && s[i] == '-') ++i;
          continue;
        }
        size_t j = i;
        while (j < n && (s[j] == ' ' || s[j] == '\t')) ++j;
        if (s.substr(j).starts_with("{|")) {
          if (size_t end = table_end(s, j); end != 0) {
            i = end;
            continue;
          }
        }
      }
      switch (c) {
        case '<':
          i = angle(s, i, *out);
          continue;
        case '{':
          if (i + 1 < n && s[i + 1] == '{') {
            size_t end = braces_end(s, i);
            if (end != 0) {
              i = end;  // a template or argument: removed
            } else {
              out->append("{{");
              i += 2;
            }
            continue;
          }
          break;
        case '[':
          i = bracket(s, i, *out);
          continue;
        case '\'':
          if (i + 1 < n && s[i + 1] == '\'') {
            size_t j = i;
            while (j < n && s[j] == '\'') ++j;
            size_t k = j - i;
            if (k == 4) out->push_back('\'');
            if (k > 5) out->append(k - 5, '\'');
            i = j;
            continue;
          }
          break;
        case '&':
          i = entity(s, i, *out);
          continue;
        default:
          break;
      }
      if (c == '\n') {  // the next position is a line start
        out->push_back(c);
        ++i;
        continue;
      }
      // Plain text up to the next character that may start markup.
      size_t j = i + 1;
      while (j < n && s[j] != '<' && s[j] != '{' && s[j] != '[' && s[j] != '\'' && s[j] != '&' &&
             s[j] != '\n')
        ++j;
      out->append(s.substr(i, j - i));
      i = j;
    }
  }

  // A heading line at `i`: its title stripped and appended (to a new section at the top
  // level). Returns the end of the line, or 0 when the line is no heading.
  size_t heading(std::string_view s, size_t i, std::vector<std::string>* sections,
                 std::string* out) {
    size_t eol = s.find('\n', i);
    if (eol == std::string_view::npos) eol = s.size();
    std::string_view line = s.substr(i, eol - i);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    size_t left = line.find_first_not_of('=');
    if (left == std::string_view::npos) return 0;
    size_t right = line.size() - 1 - line.find_last_not_of('=');
    if (right == 0) return 0;
    size_t level = std::min<size_t>({left, right, 6});
    std::string_view title = line.substr(level, line.size() - 2 * level);
    if (sections) {
      sections->emplace_back();
      out = &sections->back();
    }
    out->append(strip(title));
    return eol;
  }

  // `{| ... |}` from `i` (at a line's start), nested tables counted. Returns the position
  // after the closing `|}`, or 0 when it is never closed (then it is text).
  size_t table_end(std::string_view s, size_t i) {
    int depth = 0;
    size_t pos = i;
    while (pos < s.size() && spend(1)) {
      size_t j = pos;
      while (j < s.size() && (s[j] == ' ' || s[j] == '\t')) ++j;
      if (s.substr(j).starts_with("{|")) ++depth;
      if (s.substr(j).starts_with("|}") && --depth == 0) return j + 2;
      size_t eol = s.find('\n', j);
      if (eol == std::string_view::npos || !spend(eol - j)) break;
      pos = eol + 1;
    }
    return 0;
  }

  // `{{...}}` or `{{{...}}}` from `i`, braces counted. Returns the position after it, 0 when
  // it is never closed.
  size_t braces_end(std::string_view s, size_t i) {
    long depth = 0;
    for (size_t j = i; j < s.size() && spend(1); ++j) {
      if (s[j] == '{') {
        ++depth;
      } else if (s[j] == '}') {
        if (--depth == 0) return j + 1;
      }
    }
    return 0;
  }

  // `[[...]]` from `i`, nested links counted. Returns the position after it, 0 when unclosed.
  size_t link_end(std::string_view s, size_t i) {
    long depth = 0;
    size_t j = i;
    while (j + 1 < s.size() && spend(1)) {
      if (s[j] == '[' && s[j + 1] == '[') {
        ++depth;
        j += 2;
      } else if (s[j] == ']' && s[j + 1] == ']') {
        j += 2;
        if (--depth == 0) return j;
      } else {
        ++j;
      }
    }
    return 0;
  }

  bool has_prefix(std::string_view title, const std::vector<std::string>& prefixes) const {
    for (const auto& p : prefixes) {
      if (starts_with_ci(title, p) && title.size() > p.size() && title[p.size()] == ':')
        return true;
    }
    return false;
  }

  std::string_view drop_prefix(std::string_view text,
                               const std::vector<std::string>& prefixes) const {
    for (const auto& p : prefixes) {
      if (starts_with_ci(text, p) && text.size() > p.size() && text[p.size()] == ':')
        return text.substr(p.size() + 1);
    }
    return text;
  }

  // `[` at `i`: an internal link, an external link, or text. Returns where to go on.
  size_t bracket(std::string_view s, size_t i, std::string& out) {
    if (i + 1 < s.size() && s[i + 1] == '[') {
      size_t end = link_end(s, i);
      if (end == 0) {
        out.append("[[");
        return i + 2;
      }
      std::string_view inner = s.substr(i + 2, end - i - 4);
      // The title ends at the first `|` outside nested links and templates.
      size_t bar = std::string_view::npos;
      int depth = 0;
      for (size_t k = 0; k < inner.size(); ++k) {
        char c = inner[k];
        if ((c == '[' || c == '{') && k + 1 < inner.size() && inner[k + 1] == c) {
          ++depth;
          ++k;
        } else if ((c == ']' || c == '}') && k + 1 < inner.size() && inner[k + 1] == c) {
          --depth;
          ++k;
        } else if (c == '|' && depth <= 0) {
          bar = k;
          break;
        }
      }
      std::string_view title = inner.substr(0, bar);
      bool has_text = bar != std::string_view::npos;
      std::string_view text = has_text ? inner.substr(bar + 1) : std::string_view();
      if (has_prefix(title, media_)) return end;  // files and images: removed, caption too
      std::string shown = strip(has_text ? text : title);
      if (has_prefix(title, categories_)) shown = std::string(drop_prefix(shown, categories_));
      out.append(shown);
      return end;
    }
    // An external link needs a known scheme (or `//`) right after the bracket.
    size_t j = i + 1;
    if (s.substr(j).starts_with("//")) {
      j += 2;
    } else {
      size_t k = j;
      while (k < s.size() && (is_letter(s[k]) || is_digit(s[k]) || s[k] == '+' || s[k] == '.' ||
                              s[k] == '-'))
        ++k;
      if (k == j || k >= s.size() || s[k] != ':') return text(s, i, out);
      std::string scheme;
      for (size_t m = j; m < k; ++m) scheme.push_back(lower(s[m]));
      auto it = std::find_if(kSchemes.begin(), kSchemes.end(),
                             [&](const Scheme& sc) { return sc.name == scheme; });
      if (it == kSchemes.end()) return text(s, i, out);
      j = k + 1;
      if (it->slashes) {
        if (!s.substr(j).starts_with("//")) return text(s, i, out);
        j += 2;
      }
    }
    size_t url_end = j;
    while (url_end < s.size() && s[url_end] != ' ' && s[url_end] != '\t' && s[url_end] != ']' &&
           s[url_end] != '\n' && s[url_end] != '<' && s[url_end] != '>' && s[url_end] != '"' &&
           s[url_end] != '[')
      ++url_end;
    if (url_end == j || url_end >= s.size()) return text(s, i, out);
    if (s[url_end] == ']') return url_end + 1;  // no title: nothing shown
    if (s[url_end] != ' ' && s[url_end] != '\t') return text(s, i, out);
    size_t close = s.find_first_of("]\n", url_end + 1);
    if (close == std::string_view::npos || s[close] != ']') return text(s, i, out);
    out.append(strip(s.substr(url_end + 1, close - url_end - 1)));
    return close + 1;
  }

  static size_t text(std::string_view s, size_t i, std::string& out) {
    out.push_back(s[i]);
    return i + 1;
  }

  // `<` at `i`: a comment, a tag, or text.
  size_t angle(std::string_view s, size_t i, std::string& out) {
    if (s.substr(i).starts_with("<!--")) {
      if (budget_ == 0) return text(s, i, out);
      size_t end = s.find("-->", i + 4);
      spend((end == std::string_view::npos ? s.size() : end) - i);
      return end == std::string_view::npos ? text(s, i, out) : end + 3;  // unclosed: text
    }
    const bool closing = i + 1 < s.size() && s[i + 1] == '/';
    size_t name_start = i + (closing ? 2 : 1);
    size_t k = name_start;
    while (k < s.size() && (is_letter(s[k]) || (k > name_start && is_digit(s[k])))) ++k;
    if (k == name_start) return text(s, i, out);
    std::string name;
    for (size_t m = name_start; m < k; ++m) name.push_back(lower(s[m]));
    // The end of the opening tag, attribute values in quotes passed over.
    size_t gt = k;
    char quote = 0;
    for (; gt < s.size(); ++gt) {
      char c = s[gt];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"') {
        quote = c;
      } else if (c == '>') {
        break;
      } else if (c == '<') {
        gt = s.size();
        break;
      }
    }
    if (gt >= s.size()) return text(s, i, out);
    if (k < gt && !(s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '/'))
      return text(s, i, out);  // `<ab-c>` is no tag
    if (closing) {
      // A lone closing tag is text, except those of void elements (`</br>` is a break).
      return is_single_only(name) ? gt + 1 : text(s, i, out);
    }
    if (s[gt - 1] == '/' || is_single_only(name)) return gt + 1;  // no contents
    size_t contents_end = 0, after = 0;
    if (!find_close(s, gt + 1, name, contents_end, after)) {
      return is_single(name) ? gt + 1 : text(s, i, out);
    }
    std::string_view contents = s.substr(gt + 1, contents_end - gt - 1);
    if (name == "ref" || name == "table" || is_invisible(name) || contents.empty()) return after;
    if (is_unparsed(name)) {
      out.append(collapse(contents));
    } else {
      out.append(strip(contents));
    }
    return after;
  }

  // The `</name>` closing the tag whose contents start at `from`, nested tags of the same name
  // counted (not in unparsed tags).
  bool find_close(std::string_view s, size_t from, std::string_view name, size_t& contents_end,
                  size_t& after) {
    int depth = 1;
    const bool nests = !is_unparsed(name);
    size_t pos = from;
    size_t scanned_from = pos;
    while ((pos = s.find('<', pos)) != std::string_view::npos) {
      if (!spend(pos - scanned_from + 1)) return false;
      scanned_from = pos;
      bool closing = pos + 1 < s.size() && s[pos + 1] == '/';
      size_t k = pos + (closing ? 2 : 1);
      if (starts_with_ci(s.substr(k), name)) {
        size_t m = k + name.size();
        char c = m < s.size() ? s[m] : '\0';
        if (closing) {
          size_t e = m;
          while (e < s.size() && (s[e] == ' ' || s[e] == '\t' || s[e] == '\n')) ++e;
          if (e < s.size() && s[e] == '>' && --depth == 0) {
            contents_end = pos;
            after = e + 1;
            return true;
          }
        } else if (nests && (c == '>' || c == ' ' || c == '\t' || c == '\n')) {
          size_t gt = s.find('>', m);
          if (gt != std::string_view::npos && s[gt - 1] != '/') ++depth;
        }
      }
      pos = k;
    }
    return false;
  }

  // `&` at `i`: an HTML entity decoded, or text.
  static size_t entity(std::string_view s, size_t i, std::string& out) {
    size_t semi = s.find(';', i + 1);
    if (semi == std::string_view::npos || semi - i > 40) return text(s, i, out);
    std::string_view body = s.substr(i + 1, semi - i - 1);
    if (body.size() >= 2 && body[0] == '#') {
      bool hex = body[1] == 'x' || body[1] == 'X';
      std::string_view digits = body.substr(hex ? 2 : 1);
      if (digits.empty() || digits.size() > 8) return text(s, i, out);
      uint32_t cp = 0;
      for (char c : digits) {
        int v = is_digit(c) ? c - '0'
                : hex && lower(c) >= 'a' && lower(c) <= 'f' ? lower(c) - 'a' + 10
                                                            : -1;
        if (v < 0) return text(s, i, out);
        cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(v);
      }
      if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return text(s, i, out);
      append_utf8(out, cp);
      return semi + 1;
    }
    if (body.empty() || body == "apos") return text(s, i, out);  // HTML 4 names only
    for (char c : body) {
      if (!is_letter(c) && !is_digit(c)) return text(s, i, out);
    }
    std::string name(body);
    const htmlEntityDesc* desc = htmlEntityLookup(reinterpret_cast<const xmlChar*>(name.c_str()));
    if (!desc) return text(s, i, out);
    append_utf8(out, desc->value);
    return semi + 1;
  }

  std::vector<std::string> media_;
  std::vector<std::string> categories_;
  // Scans for a closing mark (`}}`, `]]`, `|}`, `</tag>`) may each run to the page's end, and
  // a page of unclosed openings would make them quadratic: a page gets a budget of scanned
  // bytes (64 times its size), after which an unclosed-looking opening is text without a scan.
  size_t budget_ = 0;
  bool spend(size_t bytes) {
    if (budget_ < bytes) {
      budget_ = 0;
      return false;
    }
    budget_ -= bytes;
    return true;
  }
};

}  // namespace

std::string wikitext_to_plain(std::string_view wikitext, const WikitextOptions& options) {
  Stripper stripper(options);
  return stripper.page(wikitext);
}

}  // namespace winnow
