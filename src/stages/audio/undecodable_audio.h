#pragma once
// The error record of an audio item a stage cannot decode (a batch stored for a later pass is
// decoded again, media/audio_samples.h): under on_error: skip it goes to errors/ as
// <stage>/undecodable_audio; under fail the run stops, naming the stage and the item.
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "core/stage.h"

namespace winnow {

class UndecodableAudio {
 public:
  explicit UndecodableAudio(StageContext& context)
      : stage_(context.stage_name()),
        skip_(context.skip_errors()),
        kind_(context.declare_error("undecodable_audio")) {}

  // Reports row `row`; an error Status under on_error: fail (return it from process()).
  Status report(DocBatch& batch, size_t row, std::string_view why) const {
    const std::string message =
        fmt::format("{}: audio '{}' cannot be decoded: {}", stage_, batch.id(row), why);
    if (!skip_) {
      return Status::errorf("{} (on_error: fail; on_error: skip logs such items to errors/ and "
                            "goes on)",
                            message);
    }
    mark_row_error(batch, row, kind_, message);
    return Status::ok();
  }

 private:
  std::string stage_;
  bool skip_;
  ReasonId kind_;
};

}  // namespace winnow
