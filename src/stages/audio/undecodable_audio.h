#pragma once
// The error record of an audio item a stage cannot decode (a batch stored for a later pass is
// decoded again, media/audio_samples.h): <stage>/undecodable_audio (stages/undecodable_items.h).
#include "stages/undecodable_items.h"

namespace winnow {

class UndecodableAudio : public UndecodableItems {
 public:
  explicit UndecodableAudio(StageContext& context)
      : UndecodableItems(context, "audio", "its data does not decode") {}
};

}  // namespace winnow
