#include "io/warc_record_builder.h"

#include <string>

#include "io/http_response_head.h"
#include "io/warc_header_parser.h"

namespace winnow {

WarcRecordBuilder::WarcRecordBuilder(uint32_t shard, std::string_view text_field)
    : rows_(shard, text_field) {}

void WarcRecordBuilder::add(uint64_t index, std::string_view payload, const WarcHeaders& headers,
                            const HttpResponseHead* http) {
  rows_.begin(index, payload);
  rows_.add_string("url", headers.target_uri);
  rows_.add_string("warc_record_id", headers.record_id);
  rows_.add_string("warc_date", headers.date);
  rows_.add_string("content_type", http ? http->content_type : headers.content_type);
  if (http) rows_.add_json("http_status", std::to_string(http->status));
  rows_.end(std::nullopt);
}

}  // namespace winnow
