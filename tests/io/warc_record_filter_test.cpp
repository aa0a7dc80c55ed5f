#include "io/warc_record_filter.h"

#include <gtest/gtest.h>

#include <vector>

namespace winnow {
namespace {

struct Wanted {
  std::string_view content_type;
  bool wanted;
};

void expect_content(const WarcRecordFilter& filter, const std::vector<Wanted>& cases) {
  for (const Wanted& c : cases) {
    EXPECT_EQ(filter.content_wanted(c.content_type), c.wanted) << c.content_type;
  }
}

TEST(WarcRecordFilter, DefaultsKeepHtmlResponses) {
  WarcRecordFilter filter({"response"}, {"text/html", "application/xhtml+xml"}, {});
  EXPECT_TRUE(filter.type_wanted("response"));
  EXPECT_FALSE(filter.type_wanted("request"));
  EXPECT_FALSE(filter.type_wanted("warcinfo"));
  expect_content(filter, {{"text/html", true},
                          {"Text/HTML; charset=ISO-8859-1", true},
                          {"text/html;charset=utf-8", true},
                          {"application/xhtml+xml", true},
                          {"text/css", false},
                          {"text/htmlx", false},
                          {"", false}});
  EXPECT_TRUE(filter.status_wanted(200));
  EXPECT_TRUE(filter.status_wanted(404));  // no status codes: any
}

TEST(WarcRecordFilter, OptionsMatchCaseInsensitively) {
  WarcRecordFilter filter({"Response", "RESOURCE"}, {"TEXT/Plain"}, {200, 301});
  EXPECT_TRUE(filter.type_wanted("response"));  // WarcHeaders lower-cases the record's type
  EXPECT_TRUE(filter.type_wanted("resource"));
  expect_content(filter, {{"text/plain", true}, {"Text/Plain; charset=utf-8", true}});
  EXPECT_TRUE(filter.status_wanted(301));
  EXPECT_FALSE(filter.status_wanted(404));
}

TEST(WarcRecordFilter, WildcardsMatchATypeOrEverything) {
  expect_content(WarcRecordFilter({"response"}, {"text/*"}, {}), {{"text/css", true},
                                                                  {"text/html; charset=x", true},
                                                                  {"text/", true},
                                                                  {"text", false},
                                                                  {"image/png", false},
                                                                  {"application/text", false}});
  expect_content(WarcRecordFilter({"response"}, {"*"}, {}), {{"image/png", true}, {"", true}});
  WarcRecordFilter none({}, {}, {});
  EXPECT_FALSE(none.type_wanted("response"));
  expect_content(none, {{"text/html", false}});
}

}  // namespace
}  // namespace winnow
