#pragma once
// Text placed in the HTML that winnow writes (report.html and the fragments global steps give
// it): ids, excerpts, stage and reason names.
#include <string>
#include <string_view>

namespace winnow {

// `text` with &, <, > and " written as entities, so it is safe both as element text and
// inside a double-quoted attribute.
std::string escape_html(std::string_view text);

}  // namespace winnow
