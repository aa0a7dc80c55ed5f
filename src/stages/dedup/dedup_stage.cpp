#include "stages/dedup/dedup_stage.h"

namespace winnow {

std::vector<ParamSpec> dedup_common_params() {
  return {
      {"memory_mb", ParamType::kInt, "1024",
       "memory for bucket records before they spill to disk (the output's global/ folder)"},
      {"partitions", ParamType::kInt, "64",
       "spill partitions (each sorted on its own); across MPI ranks also the partitions that "
       "documents (as graph vertices) and the duplicates table are divided into, owned "
       "round-robin by the ranks"},
      {"table_format", ParamType::kString, "jsonl",
       "duplicates table: jsonl (readable) or binary (compact, checksummed)"},
      {"checkpoint", ParamType::kBool, "false",
       "keep the read pass's bucket records under global/_checkpoints/ until the result is "
       "whole, so a job killed later in identify resumes without reading the input again, on "
       "any rank count (costs writing them; not with jaccard_threshold or the image check)"},
  };
}

Result<DedupStepOptions> dedup_common_options(const StageParams& p, const std::string& kind) {
  DedupStepOptions options;
  options.kind = kind;
  int64_t memory_mb = p.get_int("memory_mb");
  if (memory_mb < 1 || memory_mb > (int64_t{1} << 20)) {
    return p.error("memory_mb", "must be between 1 and 1048576");
  }
  options.memory_bytes = static_cast<size_t>(memory_mb) << 20;
  int64_t partitions = p.get_int("partitions");
  if (partitions < 1 || partitions > 4096) return p.error("partitions", "must be 1 to 4096");
  options.partitions = static_cast<size_t>(partitions);
  auto format = p.get_choice<TableFormat>(
      "table_format", {{"jsonl", TableFormat::kJsonl}, {"binary", TableFormat::kBinary}});
  if (!format.is_ok()) return format.status();
  options.table_format = *format;
  options.checkpoint = p.get_bool("checkpoint");
  return options;
}

}  // namespace winnow
