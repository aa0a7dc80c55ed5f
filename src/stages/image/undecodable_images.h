#pragma once
// An image whose header reads but whose data no decoder can read (cut short, damaged inside)
// is bad input, like one whose header does not read (a reader's undecodable_image error): the
// first stage that needs its pixels reports it as an error record of kind
// <stage>/undecodable_image under on_error: skip (written to errors/ with the item's file and
// id, the run goes on), or fails the run under on_error: fail, naming the item. Never a drop:
// a drop says the item was judged, and this one could not be.
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "core/stage.h"

namespace winnow {

class UndecodableImages {
 public:
  explicit UndecodableImages(StageContext& context)
      : stage_(context.stage_name()),
        skip_(context.skip_errors()),
        kind_(context.declare_error("undecodable_image")) {}

  // Reports row `row`; an error Status under on_error: fail (return it from process()).
  Status report(DocBatch& batch, size_t row, std::string_view why) const {
    const std::string message =
        fmt::format("{}: image '{}' cannot be decoded: {}", stage_, batch.id(row),
                    why.empty() ? std::string_view("no decoder can read its data") : why);
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
