#pragma once
// An image whose header reads but whose data no decoder can read (cut short, damaged inside)
// is bad input, like one whose header does not read (a reader's undecodable_image error): the
// first stage that needs its pixels reports it as an error record of kind
// <stage>/undecodable_image (stages/undecodable_items.h).
#include "stages/undecodable_items.h"

namespace winnow {

class UndecodableImages : public UndecodableItems {
 public:
  explicit UndecodableImages(StageContext& context)
      : UndecodableItems(context, "image", "no decoder can read its data") {}
};

}  // namespace winnow
