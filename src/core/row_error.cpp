// mark_row_error (core/stage.h): a row a stage could not judge, with the message errors/ shows.
#include "core/stage.h"

namespace winnow {

void mark_row_error(DocBatch& batch, size_t row, ReasonId error, std::string_view message) {
  batch.annotation(kRowErrorField, AnnotationType::kString).set_string(row, message);
  batch.drop(row, error);
}

}  // namespace winnow
