#pragma once
// WarcRecordFilter: which WARC records WarcReader keeps, answered from headers alone so that
// an unwanted block is skipped without being copied: the record type, the HTTP status of a
// response, and the media type (the HTTP Content-Type of a response, the WARC Content-Type of
// any other record).
#include <string>
#include <string_view>
#include <vector>

namespace winnow {

class WarcRecordFilter {
 public:
  // `record_types` and `content_types` match case-insensitively. A content type is a media
  // type ("text/html"), a whole type ("text/*") or "*"; parameters of the record's
  // Content-Type are ignored. No status codes: every status is wanted.
  WarcRecordFilter(std::vector<std::string> record_types, std::vector<std::string> content_types,
                   std::vector<int> status_codes);

  // `type`: the WARC-Type, lower-cased (as WarcHeaders keeps it).
  bool type_wanted(std::string_view type) const;
  // `content_type`: a Content-Type value as sent ("Text/HTML; charset=x").
  bool content_wanted(std::string_view content_type) const;
  bool status_wanted(int status) const;

 private:
  std::vector<std::string> record_types_;   // lower-cased
  std::vector<std::string> content_types_;  // lower-cased
  std::vector<int> status_codes_;
};

}  // namespace winnow
