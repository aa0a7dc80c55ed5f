#include "text/charset.h"

#include <uchardet/uchardet.h>
#include <unicode/ucnv.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>

#include "core/ascii.h"
#include "core/utf8.h"

namespace winnow {

namespace {

bool has_non_ascii(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return true;
  }
  return false;
}

// The value after "charset" in `text` (an attribute list or a Content-Type value), unquoted.
std::string charset_value(std::string_view text) {
  std::string low = ascii_lowered(text);
  size_t pos = 0;
  while ((pos = low.find("charset", pos)) != std::string::npos) {
    size_t i = pos + 7;
    while (i < low.size() && is_ascii_whitespace(low[i])) ++i;
    if (i >= low.size() || low[i] != '=') {
      pos = i;
      continue;
    }
    ++i;
    while (i < low.size() && is_ascii_whitespace(low[i])) ++i;
    char quote = 0;
    if (i < low.size() && (low[i] == '"' || low[i] == '\'')) quote = low[i++];
    size_t start = i;
    while (i < low.size() && low[i] != quote && low[i] != ';' && low[i] != '>' &&
           (quote || !is_ascii_whitespace(low[i])) && low[i] != '"' && low[i] != '\'' &&
           low[i] != '/')
      ++i;
    return std::string(ascii_trim_end(text.substr(start, i - start)));
  }
  return {};
}

// One ICU converter per charset and thread: opening one costs far more than a small page.
UConverter* converter_for(const std::string& charset) {
  struct Close {
    void operator()(UConverter* c) const { ucnv_close(c); }
  };
  thread_local std::map<std::string, std::unique_ptr<UConverter, Close>> cache;
  auto it = cache.find(charset);
  if (it != cache.end()) return it->second.get();
  if (cache.size() > 64) cache.clear();  // bounded, whatever labels pages declare
  UErrorCode status = U_ZERO_ERROR;
  UConverter* c = ucnv_open(charset.c_str(), &status);
  if (U_FAILURE(status)) c = nullptr;
  if (c) {
    // Invalid bytes become U+FFFD, never an error.
    status = U_ZERO_ERROR;
    ucnv_setToUCallBack(c, UCNV_TO_U_CALLBACK_SUBSTITUTE, nullptr, nullptr, nullptr, &status);
  }
  cache.emplace(charset, std::unique_ptr<UConverter, Close>(c));
  return c;
}

}  // namespace

std::string_view charset_source_name(CharsetSource source) {
  switch (source) {
    case CharsetSource::kBom:
      return "bom";
    case CharsetSource::kHeader:
      return "header";
    case CharsetSource::kMeta:
      return "meta";
    case CharsetSource::kDetected:
      return "detected";
    case CharsetSource::kDefault:
      return "default";
  }
  return "default";
}

std::string charset_from_content_type(std::string_view content_type) {
  size_t semicolon = content_type.find(';');
  if (semicolon == std::string_view::npos) return {};
  return charset_value(content_type.substr(semicolon + 1));
}

std::string charset_from_meta(std::string_view html, size_t scan_bytes) {
  std::string_view head = html.substr(0, std::min(html.size(), scan_bytes));
  std::string low = ascii_lowered(head);
  size_t pos = 0;
  while ((pos = low.find("<meta", pos)) != std::string::npos) {
    // The tag's attributes, quotes respected (the HTML prescan, simplified).
    size_t i = pos + 5;
    std::string charset, http_equiv, content;
    while (i < low.size() && low[i] != '>') {
      while (i < low.size() && (is_ascii_whitespace(low[i]) || low[i] == '/')) ++i;
      size_t name_start = i;
      while (i < low.size() && !is_ascii_whitespace(low[i]) && low[i] != '=' && low[i] != '>' &&
             low[i] != '/')
        ++i;
      std::string_view name = std::string_view(low).substr(name_start, i - name_start);
      while (i < low.size() && is_ascii_whitespace(low[i])) ++i;
      std::string value;
      if (i < low.size() && low[i] == '=') {
        ++i;
        while (i < low.size() && is_ascii_whitespace(low[i])) ++i;
        if (i < low.size() && (low[i] == '"' || low[i] == '\'')) {
          char quote = low[i++];
          size_t end = low.find(quote, i);
          if (end == std::string::npos) end = low.size();
          value = std::string(head.substr(i, end - i));
          i = std::min(end + 1, low.size());
        } else {
          size_t start = i;
          while (i < low.size() && !is_ascii_whitespace(low[i]) && low[i] != '>') ++i;
          value = std::string(head.substr(start, i - start));
          // "<meta charset=utf-8/>": strictly the label is "utf-8/"; pages mean utf-8.
          while (!value.empty() && value.back() == '/') value.pop_back();
        }
      }
      if (name.empty()) {
        if (i < low.size() && low[i] != '>') ++i;  // a stray character
        continue;
      }
      if (name == "charset") charset = value;
      if (name == "http-equiv") http_equiv = ascii_lowered(value);
      if (name == "content") content = value;
    }
    pos = i;
    charset.resize(ascii_trim_end(charset).size());
    if (!charset.empty()) return charset;
    if (http_equiv == "content-type") {
      std::string value = charset_value(content);
      if (!value.empty()) return value;
    }
  }
  return {};
}

std::string detect_charset(std::string_view bytes, size_t sample_bytes) {
  struct Delete {
    void operator()(uchardet_t d) const { uchardet_delete(d); }
  };
  thread_local std::unique_ptr<struct uchardet, Delete> detector(uchardet_new());
  uchardet_reset(detector.get());
  std::string_view sample = bytes.substr(0, std::min(bytes.size(), sample_bytes));
  if (uchardet_handle_data(detector.get(), sample.data(), sample.size()) != 0) return {};
  uchardet_data_end(detector.get());
  const char* name = uchardet_get_charset(detector.get());
  return name ? std::string(name) : std::string();
}

std::string normalize_charset(std::string_view label) {
  std::string name = ascii_lowered(ascii_trim(label));
  if (name.empty()) return {};
  // WHATWG: these labels mean windows-1252 / gbk / utf-8 in browsers, and pages rely on it.
  static const std::map<std::string, std::string, std::less<>> kAliases = {
      {"ascii", "windows-1252"},
      {"us-ascii", "windows-1252"},
      {"iso-8859-1", "windows-1252"},
      {"iso8859-1", "windows-1252"},
      {"iso_8859-1", "windows-1252"},
      {"latin1", "windows-1252"},
      {"l1", "windows-1252"},
      {"cp1252", "windows-1252"},
      {"x-cp1252", "windows-1252"},
      {"gb2312", "gbk"},
      {"x-gbk", "gbk"},
      {"gb_2312-80", "gbk"},
      {"utf8", "utf-8"},
      {"unicode-1-1-utf-8", "utf-8"},
      {"iso-8859-9", "windows-1254"},
      {"latin5", "windows-1254"},
      {"tis-620", "windows-874"},
      {"iso-8859-11", "windows-874"},
      {"euc-kr", "windows-949"},
      {"ks_c_5601-1987", "windows-949"},
      {"x-sjis", "shift_jis"},
      {"shift-jis", "shift_jis"},
      {"sjis", "shift_jis"},
      {"ms_kanji", "shift_jis"},
      {"windows-31j", "shift_jis"},
      {"x-euc-jp", "euc-jp"},
      {"big5-hkscs", "big5-hkscs"},
      {"x-mac-cyrillic", "x-mac-cyrillic"},
  };
  if (auto it = kAliases.find(name); it != kAliases.end()) name = it->second;
  if (name == "utf-8") return name;
  // uchardet speaks upper case ("WINDOWS-1252", "UTF-8", "ASCII"); ICU accepts most labels.
  if (!converter_for(name)) return {};
  return name;
}

bool convert_to_utf8(std::string_view bytes, const std::string& charset, std::string& out) {
  if (charset == "utf-8") {
    if (is_valid_utf8(bytes)) {
      out.append(bytes);
    } else {
      append_sanitized_utf8(out, bytes);
    }
    return true;
  }
  UConverter* from = converter_for(charset);
  if (!from) return false;
  ucnv_reset(from);
  thread_local UConverter* to = [] {
    UErrorCode status = U_ZERO_ERROR;
    return ucnv_open("utf-8", &status);
  }();
  ucnv_reset(to);
  size_t start = out.size();
  // At most 3 UTF-8 bytes per input byte in single- and multi-byte charsets alike (a 2-byte
  // sequence becomes at most 3 bytes; a lone byte at most U+FFFD, 3 bytes).
  out.resize(start + bytes.size() * 3 + 16);
  char* target = out.data() + start;
  const char* source = bytes.data();
  UErrorCode status = U_ZERO_ERROR;
  ucnv_convertEx(to, from, &target, out.data() + out.size(), &source, bytes.data() + bytes.size(),
                 nullptr, nullptr, nullptr, nullptr, true, true, &status);
  if (U_FAILURE(status)) {
    out.resize(start);
    return false;
  }
  out.resize(static_cast<size_t>(target - out.data()));
  return true;
}

DecodedHtml decode_html(std::string_view bytes, std::string_view content_type) {
  DecodedHtml result;
  auto use = [&](std::string_view body, const std::string& label, CharsetSource source) {
    std::string name = normalize_charset(label);
    if (name.empty()) return false;
    // A page is a stream of bytes in an ASCII-compatible charset once it is parsed as HTML;
    // an utf-16 meta is a lie the bytes already told (WHATWG says: utf-8).
    if ((name.rfind("utf-16", 0) == 0 || name.rfind("utf-32", 0) == 0) &&
        source != CharsetSource::kBom) {
      if (source == CharsetSource::kMeta) name = "utf-8";
    }
    std::string text;
    text.reserve(body.size());
    if (!convert_to_utf8(body, name, text)) return false;
    result.text = std::move(text);
    result.charset = name;
    result.source = source;
    return true;
  };
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF" && use(bytes.substr(3), "utf-8", CharsetSource::kBom))
    return result;
  if (bytes.substr(0, 2) == "\xFF\xFE" && use(bytes.substr(2), "utf-16le", CharsetSource::kBom))
    return result;
  if (bytes.substr(0, 2) == "\xFE\xFF" && use(bytes.substr(2), "utf-16be", CharsetSource::kBom))
    return result;
  // Bytes that hold non-ASCII and are valid UTF-8 are UTF-8, whatever the header or <meta>
  // says: another charset almost never yields valid UTF-8 by chance, while pages labelled
  // iso-8859-1 that are UTF-8 are common (decoding them as labelled gives "CafÃ©", whose "©"
  // then trips jusText's copyright rule). NeMo's decode_html tries UTF-8 first too. Pure
  // ASCII still follows the labels (7-bit charsets such as ISO-2022-JP look like ASCII).
  if (has_non_ascii(bytes) && is_valid_utf8(bytes)) {
    result.text.assign(bytes);
    result.charset = "utf-8";
    result.source = CharsetSource::kDetected;
    return result;
  }
  if (std::string label = charset_from_content_type(content_type);
      !label.empty() && use(bytes, label, CharsetSource::kHeader))
    return result;
  if (std::string label = charset_from_meta(bytes);
      !label.empty() && use(bytes, label, CharsetSource::kMeta))
    return result;
  // Unlabelled ASCII: UTF-8 (what uchardet would say, at a fraction of the cost).
  if (is_valid_utf8(bytes)) {
    result.text.assign(bytes);
    result.charset = "utf-8";
    result.source = CharsetSource::kDetected;
    return result;
  }
  if (std::string label = detect_charset(bytes);
      !label.empty() && use(bytes, label, CharsetSource::kDetected))
    return result;
  use(bytes, "windows-1252", CharsetSource::kDefault);  // what browsers fall back to
  return result;
}

}  // namespace winnow
