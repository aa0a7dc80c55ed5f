#include "io/warc_record_filter.h"

#include <algorithm>

#include "core/ascii.h"
#include "io/header_field.h"

namespace winnow {

WarcRecordFilter::WarcRecordFilter(std::vector<std::string> record_types,
                                   std::vector<std::string> content_types,
                                   std::vector<int> status_codes)
    : record_types_(std::move(record_types)),
      content_types_(std::move(content_types)),
      status_codes_(std::move(status_codes)) {
  for (auto& t : record_types_) t = ascii_lowered(t);
  for (auto& t : content_types_) t = ascii_lowered(t);
}

bool WarcRecordFilter::type_wanted(std::string_view type) const {
  return std::find(record_types_.begin(), record_types_.end(), type) != record_types_.end();
}

bool WarcRecordFilter::content_wanted(std::string_view content_type) const {
  std::string media = media_type(content_type);
  for (const auto& t : content_types_) {
    if (t == "*" || t == media) return true;
    if (t.ends_with("/*") && media.compare(0, t.size() - 1, t, 0, t.size() - 1) == 0) return true;
  }
  return false;
}

bool WarcRecordFilter::status_wanted(int status) const {
  return status_codes_.empty() ||
         std::find(status_codes_.begin(), status_codes_.end(), status) != status_codes_.end();
}

}  // namespace winnow
