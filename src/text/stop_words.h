#pragma once
// Stop-word lists per language, for jusText. The lists are the Snowball ones that Debian ships in
// liblingua-stopwords-perl (/usr/share/perl5/Lingua/StopWords/XX.pm), read from the Perl
// modules when a table is loaded: 15 languages (da de en es fi fr hu id it nl no pt ro ru sv).
// Words are stored lowercased (Unicode simple lowercase), as jusText compares them.
//
// jusText's own lists are frequency-derived (the most frequent words of Wikipedia per language)
// and several times longer than Snowball's. The `frequency` lists are made the same way by
// scripts/make_stop_words from text Debian installs (manual pages, fortune cookies, licences;
// none of it what bench/ measures extraction on) and compiled in from frequency_stop_words.inc
// (en de fr es it pt nl ru, 300 words each). They are committed rather than generated at
// build time because their source is documentation packages a build machine need not have
// and whose versions move: a committed list keeps extraction reproducible everywhere.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>

#include "core/status.h"

namespace winnow {

inline constexpr std::string_view kDefaultStopWordsDir = "/usr/share/perl5/Lingua/StopWords";

class StopWords {
 public:
  explicit StopWords(const std::unordered_set<std::string>& words)
      : words_(words.begin(), words.end()) {}
  // `lower_word` must already be lowercased. Looked up as a view: no string is built per word.
  bool contains(std::string_view lower_word) const {
    return words_.find(lower_word) != words_.end();
  }
  size_t size() const { return words_.size(); }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_set<std::string, Hash, std::equal_to<>> words_;
};

// The words of one Lingua::StopWords module's source text (the qw(...) list of _stopwords).
Result<std::unordered_set<std::string>> parse_lingua_stopwords(std::string_view perl_source);

// Which lists a table holds: Snowball's (from Lingua::StopWords), the frequency-derived ones,
// or per language the union of both.
enum class StopWordSource { kSnowball, kFrequency, kBoth };

// "snowball", "frequency", "both"; false for anything else.
bool parse_stop_word_source(std::string_view name, StopWordSource& out);

// The compiled-in frequency-derived list of a language; empty when there is none.
std::unordered_set<std::string> frequency_stop_words(std::string_view language);

// Every list found, by ISO 639-1 code ("en", "de", ...). Immutable once built, so it can be
// shared by threads. Snowball lists come from `dir` (none when the folder is missing).
class StopWordTable {
 public:
  static Result<StopWordTable> load(const std::string& dir,
                                    StopWordSource source = StopWordSource::kSnowball);
  const StopWords* find(std::string_view language) const;  // null when none
  size_t languages() const { return lists_.size(); }

 private:
  static Status load_snowball(
      const std::string& dir,
      std::map<std::string, std::unordered_set<std::string>, std::less<>>& lists);
  std::map<std::string, std::shared_ptr<const StopWords>, std::less<>> lists_;
};

// Lowercases UTF-8 text per code point (utf8proc's simple mapping, as Python's str.lower()
// does for all but a few special cases); invalid bytes are copied as they are.
void append_lowercase_utf8(std::string& out, std::string_view utf8);

}  // namespace winnow
