#include "text/stop_words.h"

#include <utf8proc.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/ascii.h"

namespace winnow {

namespace {

// Lingua::StopWords module names are the language's ISO 639-1 code in upper case.
constexpr std::string_view kLanguages[] = {"da", "de", "en", "es", "fi", "fr", "hu", "id",
                                           "it", "nl", "no", "pt", "ro", "ru", "sv"};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

struct FrequencyList {
  std::string_view language;
  std::string_view words;  // space separated, lowercased
};

constexpr FrequencyList kFrequencyLists[] = {
#include "text/frequency_stop_words.inc"
};

void split_words(std::string_view list, std::unordered_set<std::string>& out) {
  size_t i = 0;
  while (i < list.size()) {
    while (i < list.size() && is_space(list[i])) ++i;
    size_t start = i;
    while (i < list.size() && !is_space(list[i])) ++i;
    if (i > start) {
      std::string word;
      append_lowercase_utf8(word, list.substr(start, i - start));
      out.insert(std::move(word));
    }
  }
}

}  // namespace

void append_lowercase_utf8(std::string& out, std::string_view utf8) {
  size_t i = 0;
  while (i < utf8.size()) {
    auto c = static_cast<unsigned char>(utf8[i]);
    if (c < 0x80) {
      out.push_back(ascii_lower(static_cast<char>(c)));
      ++i;
      continue;
    }
    utf8proc_int32_t cp;
    utf8proc_ssize_t n =
        utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(utf8.data() + i),
                         static_cast<utf8proc_ssize_t>(utf8.size() - i), &cp);
    if (n <= 0) {
      out.push_back(utf8[i]);
      ++i;
      continue;
    }
    utf8proc_uint8_t buffer[4];
    utf8proc_ssize_t m = utf8proc_encode_char(utf8proc_tolower(cp), buffer);
    out.append(reinterpret_cast<const char*>(buffer), static_cast<size_t>(m));
    i += static_cast<size_t>(n);
  }
}

Result<std::unordered_set<std::string>> parse_lingua_stopwords(std::string_view source) {
  size_t sub = source.find("sub _stopwords");
  if (sub == std::string_view::npos) return Status::error("no 'sub _stopwords' in the module");
  size_t open = source.find("qw(", sub);
  if (open == std::string_view::npos) return Status::error("no qw( list in _stopwords");
  size_t close = source.find(')', open);
  if (close == std::string_view::npos) return Status::error("the qw( list is not closed");
  std::string_view list = source.substr(open + 3, close - open - 3);
  std::unordered_set<std::string> words;
  split_words(list, words);
  if (words.empty()) return Status::error("the stop-word list is empty");
  return words;
}

bool parse_stop_word_source(std::string_view name, StopWordSource& out) {
  if (name == "snowball") {
    out = StopWordSource::kSnowball;
  } else if (name == "frequency") {
    out = StopWordSource::kFrequency;
  } else if (name == "both") {
    out = StopWordSource::kBoth;
  } else {
    return false;
  }
  return true;
}

std::unordered_set<std::string> frequency_stop_words(std::string_view language) {
  std::unordered_set<std::string> words;
  for (const FrequencyList& list : kFrequencyLists) {
    if (list.language == language) split_words(list.words, words);
  }
  return words;
}

Result<StopWordTable> StopWordTable::load(const std::string& dir, StopWordSource source) {
  std::map<std::string, std::unordered_set<std::string>, std::less<>> lists;
  if (source != StopWordSource::kSnowball) {
    for (const FrequencyList& list : kFrequencyLists) {
      lists[std::string(list.language)] = frequency_stop_words(list.language);
    }
  }
  if (source != StopWordSource::kFrequency) {
    WINNOW_RETURN_IF_ERROR(load_snowball(dir, lists));
  }
  StopWordTable table;
  for (auto& [language, words] : lists) {
    table.lists_.emplace(language, std::make_shared<const StopWords>(std::move(words)));
  }
  return table;
}

Status StopWordTable::load_snowball(
    const std::string& dir,
    std::map<std::string, std::unordered_set<std::string>, std::less<>>& lists) {
  for (std::string_view language : kLanguages) {
    std::string upper(language);
    for (char& c : upper) c = ascii_upper(c);
    std::filesystem::path path = std::filesystem::path(dir) / (upper + ".pm");
    std::ifstream in(path);
    if (!in) continue;
    std::stringstream text;
    text << in.rdbuf();
    auto words = parse_lingua_stopwords(text.str());
    if (!words.is_ok()) {
      return Status::errorf("{}: {}", path.string(), words.status().message());
    }
    lists[std::string(language)].merge(words.value());
  }
  return Status::ok();
}

const StopWords* StopWordTable::find(std::string_view language) const {
  auto it = lists_.find(language);
  if (it != lists_.end()) return it->second.get();
  if (language == "nb" || language == "nn") return find("no");  // Norwegian Bokmål, Nynorsk
  return nullptr;
}

}  // namespace winnow
