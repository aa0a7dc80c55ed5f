#pragma once
// PromptTemplate: a user prompt with a {document} placeholder, filled as Python's
// str.format(document=...) fills it (NeMo Curator's synthetic stages format their templates
// that way), so NeMo's own templates can be passed as they are: "{{" and "}}" stand for "{" and
// "}", and any other field or a lone brace is refused when the template is parsed (where
// Python would raise KeyError or ValueError on the first document).
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace winnow {

class PromptTemplate {
 public:
  // The template's pieces, or an error saying which brace or field is wrong. A template that
  // never names {document} is refused: every document would get the same prompt.
  static Result<PromptTemplate> parse(std::string_view text);

  // The prompt for one document.
  void render(std::string_view document, std::string& out) const;

 private:
  std::vector<std::string> literals_;  // literal text around each {document}: one more than them
};

}  // namespace winnow
