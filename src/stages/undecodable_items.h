#pragma once
// The error record of a media item a stage cannot decode (its header read, its data does not):
// bad input, not a verdict, so never a drop. Under on_error: skip it goes to errors/ as
// <stage>/undecodable_<noun> with the item's file and id and the run goes on; under fail the
// run stops, naming the stage and the item. stages/image/undecodable_images.h and
// stages/audio/undecodable_audio.h name the kinds.
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "core/stage.h"

namespace winnow {

class UndecodableItems {
 public:
  // `noun`: "image", "audio"; `default_why`: said when report() is given no reason.
  UndecodableItems(StageContext& context, std::string_view noun, std::string_view default_why)
      : stage_(context.stage_name()),
        noun_(noun),
        default_why_(default_why),
        skip_(context.skip_errors()),
        kind_(context.declare_error("undecodable_" + std::string(noun))) {}

  // Reports row `row`; an error Status under on_error: fail (return it from process()).
  Status report(DocBatch& batch, size_t row, std::string_view why) const {
    const std::string message = fmt::format("{}: {} '{}' cannot be decoded: {}", stage_, noun_,
                                            batch.id(row), why.empty() ? default_why_ : why);
    if (!skip_) {
      return Status::errorf(
          "{} (on_error: fail; on_error: skip logs such items to errors/ and "
          "goes on)",
          message);
    }
    mark_row_error(batch, row, kind_, message);
    return Status::ok();
  }

 private:
  std::string stage_;
  std::string noun_;
  std::string default_why_;
  bool skip_;
  ReasonId kind_;
};

}  // namespace winnow
