#pragma once
// report.html: one self-contained page (inline SVG and CSS, no script, nothing fetched) that
// shows a run: the document funnel (kept and dropped per step and reason), and per step over
// time: workers, busy fraction, input queue fill and throughput.
#include <string>

#include "core/status.h"
#include "pipeline/executor.h"

namespace winnow {

std::string render_report_html(const RunReport& report);
Status write_report_html(const RunReport& report, const std::string& path);

}  // namespace winnow
