#include "io/header_field.h"

#include <gtest/gtest.h>

#include <vector>

namespace winnow {
namespace {

struct Case {
  std::string_view in, out;
};

TEST(HeaderField, SplitsAtTheFirstColonAndTrims) {
  struct FieldCase {
    std::string_view line, name, value;
  };
  // Lines as the readers cut them: at "\n", so a CRLF line keeps its "\r".
  for (const FieldCase& c : std::vector<FieldCase>{
           {"WARC-Target-URI: <http://127.0.0.1:41847/index.html>\r", "WARC-Target-URI",
            "<http://127.0.0.1:41847/index.html>"},
           {"Date:Tue, 01 Dec 2026 14:35:42 GMT", "Date", "Tue, 01 Dec 2026 14:35:42 GMT"},
           {" \tX-Empty : \t \r", "X-Empty", ""},
           {":", "", ""},
       }) {
    std::optional<HeaderField> field = HeaderField::parse(c.line);
    ASSERT_TRUE(field) << c.line;
    EXPECT_EQ(field->name, c.name) << c.line;
    EXPECT_EQ(field->value, c.value) << c.line;
  }
}

TEST(HeaderField, LineWithoutAColonIsNoField) {
  for (std::string_view line :
       {"HTTP/1.0 200 OK\r", "", "\r", "  folded continuation of the previous value"}) {
    EXPECT_FALSE(HeaderField::parse(line)) << line;
  }
}

TEST(HeaderField, TrimsOptionalWhiteSpaceAndTheLineEnd) {
  for (const Case& c : std::vector<Case>{
           {" \t value \t\r\n", "value"},
           {"value\r\r", "value"},
           {" \r ", ""},
           // A CR is a line end only at the end; at the start it is data, as a form feed is
           // anywhere.
           {"\rvalue", "\rvalue"},
           {"\fvalue\f", "\fvalue\f"},
       }) {
    EXPECT_EQ(trim_field(c.in), c.out) << ::testing::PrintToString(c.in);
  }
}

TEST(HeaderField, MediaTypeDropsParametersAndCase) {
  for (const Case& c : std::vector<Case>{
           {"text/html", "text/html"},
           {"Text/HTML; charset=ISO-8859-1", "text/html"},
           {"text/html;charset=utf-8", "text/html"},
           {"application/http;msgtype=response", "application/http"},
           {"  application/xhtml+xml  ;q=1", "application/xhtml+xml"},
           {"", ""},
           {"; charset=utf-8", ""},
       }) {
    EXPECT_EQ(media_type(c.in), c.out) << c.in;
  }
}

}  // namespace
}  // namespace winnow
