#pragma once
// The Parquet columns a pass needs (its projection): the text and id fields and every field of
// the input record its stages read by name (core/stage.h, RecordFields). Derived from the
// pipeline, never configured: a stage that does not declare what it reads may read any field,
// and then the pass reads every column. Only a pass whose batches die with it (an identify
// pass that stores nothing) is projected: the writing pass writes every column back, and
// stored batches feed later passes.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/step_parts.h"

namespace winnow {

// What a configured stage reads of the input record: its spec's declaration for its parameters,
// or any field when it declares nothing.
RecordFields record_fields_of(const StageConfig& stage);

// The columns stages [from, to] (both included) read, with the text and id fields, sorted and
// unique; a field "a.b" gives both "a.b" (a column of that name) and "a" (an object holding
// b). nullopt when one of those stages may read any field.
std::optional<std::vector<std::string>> projected_columns(const std::vector<PassStage>& stages,
                                                          size_t from, size_t to,
                                                          const std::string& text_field,
                                                          const std::string& id_field);

}  // namespace winnow
