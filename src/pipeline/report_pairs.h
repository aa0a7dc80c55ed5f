#pragma once
// The "Near-duplicate pairs" section of report.html: per dedup step, its sampled pairs
// (core/report_pair.h) side by side. Texts: the kept and the removed document in two columns,
// the differing words marked (pipeline/report_diff_html.h), with the step's similarity. Pictures:
// near-duplicate groups, the survivor's thumbnail first, then each item it removed with the
// distance or similarity. Pairs go in the steps' sample order until the section would pass
// `budget_bytes`; the page says how many were left out.
#include <cstddef>
#include <string>
#include <vector>

#include "core/report_pair.h"

namespace winnow {

std::string pair_section(const std::vector<ReportPair>& pairs, size_t budget_bytes);

}  // namespace winnow
