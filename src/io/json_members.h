#pragma once
// Splits an already-validated JSON object into its top-level members without parsing values,
// so a document can be rewritten with one member replaced and every other one kept byte for
// byte. The input must be valid JSON (the parser checked it); this scanner does not validate.
#include <string_view>
#include <vector>

namespace winnow {

struct JsonMember {
  std::string_view key;     // as written between the quotes (escapes not decoded)
  std::string_view member;  // from the key's opening quote to the end of the value
};

void split_members(std::string_view object, std::vector<JsonMember>& members);

}  // namespace winnow
