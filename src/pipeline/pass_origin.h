#pragma once
// PassOrigin: where a pass begins. Either the input files (read in the configured format, then
// parsed, then every stage from the first), or the batches an earlier pass stored
// (pipeline/batch_store.h) at a point of the pipeline: read back, then the stages from that
// point on. Passes that begin from stored batches run none of the stages before the point again.
#include <cstddef>
#include <string>
#include <vector>

#include "io/input_files.h"
#include "io/input_reader.h"

namespace winnow {

struct PassOrigin {
  const std::vector<InputFile>* files = nullptr;  // by shard index
  InputFormat format = InputFormat::kAuto;         // kStored for stored batches
  size_t first_stage = 0;                          // the first stage the pass runs
  std::string name;                                // "the input", "batches stored before X"

  bool stored() const { return format == InputFormat::kStored; }
};

}  // namespace winnow
