#pragma once
// The "What was kept and dropped, as pictures" section of report.html: per category ("kept",
// "stage/reason") the sampled items (pipeline/report_sample.h) as small JPEGs embedded as
// data: URIs, each with its id, score and detail. The page stays under a size bound: when the
// thumbnails do not fit, the largest go first and the page says how many went.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "pipeline/report_sample.h"

namespace winnow {

// The section for `pictures` (empty when there are none), its thumbnails cut to fit in
// `budget_bytes` with the section's own text counted.
// `settings`: stage name -> its parameters as given, shown beside each drop reason's heading.
std::string picture_section(std::map<std::string, std::vector<SampledItem>> pictures,
                            size_t budget_bytes,
                            const std::map<std::string, std::string>& settings = {});

}  // namespace winnow
