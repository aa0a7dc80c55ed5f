#pragma once
// The names winnow gives its own files and folders inside an output folder (the layout is
// described in pipeline/output_layout.h). Input discovery needs them too: a previous run's
// output folder given as input contributes its kept shards only, not its bookkeeping.
#include <string_view>

namespace winnow::output_names {

inline constexpr std::string_view kRejectedDir = "rejected";
inline constexpr std::string_view kErrorsDir = "errors";
inline constexpr std::string_view kDoneDir = "_done";  // its presence marks an output folder
inline constexpr std::string_view kGlobalDir = "global";
inline constexpr std::string_view kFilesDir = "files";  // kept media items' bytes
// Kept video clips, the anchor's layout: clips/<clip id>.mp4, metas/<clip id>.json (the
// clip's metadata and scores), previews/<clip id>.jpg (a contact sheet), summary.json.
inline constexpr std::string_view kClipsDir = "clips";
inline constexpr std::string_view kMetasDir = "metas";
inline constexpr std::string_view kPreviewsDir = "previews";
inline constexpr std::string_view kSummaryFile = "summary.json";
// Batches one pass stores for the next (pipeline/batch_store.h); removed when the run ends.
inline constexpr std::string_view kWorkDir = "_work";
inline constexpr std::string_view kStatsFile = "stats.json";
inline constexpr std::string_view kMetricsFile = "metrics.jsonl";
inline constexpr std::string_view kReportFile = "report.html";

}  // namespace winnow::output_names
