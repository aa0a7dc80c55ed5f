#include "text/spoken_abbreviations.h"

#include <array>
#include <unordered_map>
#include <utility>

namespace winnow {

namespace {

// NeMo's spoken forms, entry by entry from its whitelist (deterministic English).
constexpr std::array<std::pair<std::string_view, std::string_view>, 61> kWhitelist = {{
    {"Dr.", "doctor"},
    {"Mr.", "mister"},
    {"Mrs.", "misses"},
    {"Ms.", "miss"},
    {"Jr.", "junior"},
    {"Jr", "junior"},
    {"Capt.", "captain"},
    {"Col.", "colonel"},
    {"Gen.", "general"},
    {"Lt.", "lieutenant"},
    {"Sgt.", "sergeant"},
    {"Gov.", "governor"},
    {"Rev.", "Reverend"},
    {"Hon.", "honorable"},
    {"Mt.", "Mount"},
    {"prof.", "professor"},
    {"Esq.", "esquire"},
    {"Co.", "company"},
    {"Ltd.", "limited"},
    {"dept.", "department"},
    {"dept", "department"},
    {"e.g.", "for example"},
    {"i.e.", "that is"},
    {"vs.", "versus"},
    {"vs", "versus"},
    {"etc.", "etcetera."},
    {"w/o", "without"},
    {"c/o", "care of"},
    {"Ph.D.", "PHD"},
    {"U.S.", "US"},
    {"U.K.", "UK"},
    {"A.D.", "AD"},
    {"A.D", "AD"},
    {"B.C.", "BC"},
    {"B.C", "BC"},
    {"a.m.", "AM"},
    {"a.m", "AM"},
    {"p.m.", "PM"},
    {"p.m", "PM"},
    {"P.S.", "PS"},
    {"AT&T", "ATANDT"},
    // symbol.tsv, for a symbol standing alone ("~" is in both lists, read two ways: left).
    {"&", "and"},
    {"#", "hash"},
    {"@", "at"},
    {"\u00a7", "section"},
    {"\u2122", "trademark"},
    {"\u00ae", "registered trademark"},
    {"\u00a9", "copyright"},
    {"_", "underscore"},
    {"%", "percent"},
    {"*", "asterisk"},
    {"+", "plus"},
    {"=", "equal sign"},
    {"^", "circumflex"},
    {"$", "dollar"},
    {"\u00a3", "pound"},
    {"\u20ac", "euro"},
    {"\u20a9", "won"},
    {"\u00a5", "yen"},
    {"\u00b0", "degree"},
    {"\u00ba", "degree"},
}};

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }

// "U.S.A." or "U.S.A": three or more capitals, each but the last followed by a dot, read as
// one word ("USA").
std::string dotted_capitals(std::string_view token) {
  std::string letters;
  size_t i = 0;
  while (i < token.size()) {
    if (!is_upper(token[i])) return {};
    letters += token[i++];
    if (i == token.size()) break;
    if (token[i] != '.') return {};
    ++i;
  }
  return letters.size() >= 3 ? letters : std::string();
}

}  // namespace

std::string spoken_abbreviation(std::string_view token) {
  // Every token of a transcript comes here, most of them words: a hash lookup, and the dotted
  // rule only for a capital followed by a dot.
  static const std::unordered_map<std::string_view, std::string_view> kTable(kWhitelist.begin(),
                                                                             kWhitelist.end());
  if (auto it = kTable.find(token); it != kTable.end()) return std::string(it->second);
  if (token.size() < 5 || token[1] != '.') return {};
  return dotted_capitals(token);
}

}  // namespace winnow
