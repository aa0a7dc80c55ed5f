#pragma once
// Offers a written batch's picture items (images, clips) to the report's sample: each kept item
// under "kept", each dropped one under its "stage/reason", with its drop score. A thumbnail is
// made only for an item the sample takes (ReportSample::wants), so a large run pays for a few
// hundred small encodes, not one per item.
#include "core/doc_batch.h"
#include "core/reason_table.h"
#include "pipeline/report_sample.h"

namespace winnow {

void offer_pictures(ReportSample& sample, const DocBatch& batch, const ReasonTable& reasons);

}  // namespace winnow
