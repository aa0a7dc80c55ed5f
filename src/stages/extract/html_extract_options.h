#pragma once
// html_extract's parameters read into HtmlExtractOptions and checked: the algorithm, parser,
// jusText's thresholds and container pass, NeMo's TrafilaturaExtractor parameters, the
// language and the page bounds. An out-of-range value is an error naming the key.
#include "core/stage_params.h"
#include "core/status.h"
#include "text/html_extractor.h"

namespace winnow {

Status read_extract_options(const StageParams& p, HtmlExtractOptions& o);

}  // namespace winnow
