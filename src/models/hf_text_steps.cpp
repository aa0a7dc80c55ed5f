#include "models/hf_text_steps.h"

#include <simdjson.h>
#include <unicode/regex.h>
#include <unicode/utext.h>

#include <algorithm>
#include <atomic>
#include <unordered_map>

namespace winnow::hf_text {

namespace {

std::atomic<uint64_t> next_regex_serial{1};

}  // namespace

size_t code_points(std::string_view text) {
  size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

Regex::Regex() : serial_(next_regex_serial++) {}
Regex::~Regex() = default;

Result<std::unique_ptr<Regex>> Regex::compile(std::string_view onig) {
  std::string pattern;
  for (size_t i = 0; i < onig.size(); ++i) {
    if (onig[i] == '\\' && i + 1 < onig.size()) {
      char next = onig[++i];
      if (next == 's') {
        pattern += "\\p{White_Space}";
      } else if (next == 'S') {
        pattern += "\\P{White_Space}";
      } else {
        pattern += '\\';
        pattern += next;
      }
    } else {
      pattern += onig[i];
    }
  }
  UErrorCode status = U_ZERO_ERROR;
  UParseError where;
  auto regex = std::make_unique<Regex>();
  regex->pattern_.reset(
      icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(pattern), 0, where, status));
  if (U_FAILURE(status)) {
    return Status::errorf("regex '{}' does not compile ({})", std::string(onig),
                          u_errorName(status));
  }
  return regex;
}

void Regex::find_all(std::string_view text, Ranges& out) const {
  out.clear();
  if (text.empty()) return;
  // One matcher per thread and pattern: a matcher is not thread-safe, and making one per call
  // costs more than the matching of a short text.
  thread_local std::unordered_map<uint64_t, std::unique_ptr<icu::RegexMatcher>> matchers;
  UErrorCode status = U_ZERO_ERROR;
  auto& matcher = matchers[serial_];
  if (!matcher) matcher.reset(pattern_->matcher(status));
  UText input = UTEXT_INITIALIZER;
  utext_openUTF8(&input, text.data(), static_cast<int64_t>(text.size()), &status);
  matcher->reset(&input);
  while (matcher->find(status) && U_SUCCESS(status)) {
    // Native indices of a UTF-8 UText are byte offsets.
    int64_t start = matcher->start64(status), end = matcher->end64(status);
    if (end <= start) break;  // the patterns in use never match empty text
    out.emplace_back(static_cast<size_t>(start), static_cast<size_t>(end));
  }
  matcher->reset(icu::UnicodeString());
  utext_close(&input);
}

void find_literal(std::string_view text, std::string_view literal, Ranges& out) {
  out.clear();
  if (literal.empty()) return;
  for (size_t at = text.find(literal); at != std::string_view::npos;
       at = text.find(literal, at + literal.size())) {
    out.emplace_back(at, at + literal.size());
  }
}

void split_pieces(const Piece& piece, const Ranges& matches, Behavior behavior, bool invert,
                  std::vector<Piece>& out) {
  struct Part {
    size_t start, end;
    bool is_match;
  };
  std::vector<Part> parts;
  size_t last = 0;
  for (const auto& [start, end] : matches) {
    if (start > last) parts.push_back({last, start, invert});
    parts.push_back({start, end, !invert});
    last = end;
  }
  if (last < piece.text.size()) parts.push_back({last, piece.text.size(), invert});

  std::vector<std::pair<size_t, size_t>> kept;
  switch (behavior) {
    case Behavior::kRemoved:
      for (const Part& p : parts) {
        if (!p.is_match) kept.emplace_back(p.start, p.end);
      }
      break;
    case Behavior::kIsolated:
      for (const Part& p : parts) kept.emplace_back(p.start, p.end);
      break;
    case Behavior::kMergedWithPrevious: {
      bool previous_match = false;
      for (const Part& p : parts) {
        if (p.is_match && !previous_match && !kept.empty()) {
          kept.back().second = p.end;
        } else {
          kept.emplace_back(p.start, p.end);
        }
        previous_match = p.is_match;
      }
      break;
    }
    case Behavior::kMergedWithNext: {
      bool previous_match = false;
      for (auto p = parts.rbegin(); p != parts.rend(); ++p) {
        if (p->is_match && !previous_match && !kept.empty()) {
          kept.back().first = p->start;
        } else {
          kept.emplace_back(p->start, p->end);
        }
        previous_match = p->is_match;
      }
      std::reverse(kept.begin(), kept.end());
      break;
    }
    case Behavior::kContiguous: {
      bool previous_match = false;
      for (const Part& p : parts) {
        if (p.is_match == previous_match && !kept.empty()) {
          kept.back().second = p.end;
        } else {
          kept.emplace_back(p.start, p.end);
        }
        previous_match = p.is_match;
      }
      break;
    }
  }
  for (const auto& [start, end] : kept) {
    if (end > start) {
      out.push_back({piece.text.substr(start, end - start), piece.start.from(start)});
    }
  }
}

const std::vector<std::string>& byte_characters() {
  static const std::vector<std::string> table = [] {
    std::vector<std::string> t(256);
    int n = 0;
    for (int b = 0; b < 256; ++b) {
      bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
      hf_chars::append_utf8(
          t[b], printable ? static_cast<char32_t>(b) : static_cast<char32_t>(256 + n++));
    }
    return t;
  }();
  return table;
}

Status step_error(std::string_view kind, std::string_view type) {
  return Status::errorf("{} '{}' is not supported", kind, std::string(type));
}

bool get_bool(const simdjson::dom::element& e, const char* key, bool fallback) {
  bool value;
  return e[key].get(value) ? fallback : value;
}

Result<Pattern> parse_pattern(const simdjson::dom::element& e) {
  Pattern pattern;
  std::string_view text;
  if (!e["pattern"]["String"].get(text)) {
    pattern.literal = text;
  } else if (!e["pattern"]["Regex"].get(text)) {
    auto regex = Regex::compile(text);
    if (!regex.is_ok()) return regex.status();
    pattern.regex = std::move(regex).value();
  } else {
    return Status::error("a pattern must be {\"String\": ...} or {\"Regex\": ...}");
  }
  return pattern;
}

Status parse_behavior(const simdjson::dom::element& e, Behavior& behavior) {
  std::string_view name;
  if (e["behavior"].get(name)) {
    behavior = Behavior::kIsolated;
  } else if (name == "Removed") {
    behavior = Behavior::kRemoved;
  } else if (name == "Isolated") {
    behavior = Behavior::kIsolated;
  } else if (name == "MergedWithPrevious") {
    behavior = Behavior::kMergedWithPrevious;
  } else if (name == "MergedWithNext") {
    behavior = Behavior::kMergedWithNext;
  } else if (name == "Contiguous") {
    behavior = Behavior::kContiguous;
  } else {
    return step_error("split behavior", name);
  }
  return Status::ok();
}

}  // namespace winnow::hf_text
