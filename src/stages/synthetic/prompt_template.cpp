#include "stages/synthetic/prompt_template.h"

namespace winnow {

Result<PromptTemplate> PromptTemplate::parse(std::string_view text) {
  constexpr std::string_view kField = "document";
  PromptTemplate t;
  t.literals_.emplace_back();
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '}') {
      if (i + 1 < text.size() && text[i + 1] == '}') {
        t.literals_.back() += '}';
        ++i;
        continue;
      }
      return Status::errorf("a lone '}}' at byte {} (write '}}}}' for a brace)", i);
    }
    if (c != '{') {
      t.literals_.back() += c;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      t.literals_.back() += '{';
      ++i;
      continue;
    }
    const size_t close = text.find('}', i + 1);
    if (close == std::string_view::npos) {
      return Status::errorf("a '{{' at byte {} is never closed (write '{{{{' for a brace)", i);
    }
    std::string_view field = text.substr(i + 1, close - i - 1);
    if (field != kField) {
      return Status::errorf(
          "unknown field {{{}}} (the only one is {{document}}; write '{{{{' and "
          "'}}}}' for braces)",
          field);
    }
    t.literals_.emplace_back();
    i = close;
  }
  if (t.literals_.size() < 2) return Status::error("never names {document}");
  return t;
}

void PromptTemplate::render(std::string_view document, std::string& out) const {
  out.clear();
  for (size_t k = 0; k < literals_.size(); ++k) {
    if (k > 0) out += document;
    out += literals_[k];
  }
}

}  // namespace winnow
