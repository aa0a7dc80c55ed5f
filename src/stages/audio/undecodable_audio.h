#pragma once
// The error record of an audio item a stage cannot decode (a batch stored for a later pass is
// decoded again, media/audio_samples.h): <stage>/undecodable_audio (stages/undecodable_items.h).
#include <string>

#include "media/audio_samples.h"
#include "stages/undecodable_items.h"

namespace winnow {

class UndecodableAudio : public UndecodableItems {
 public:
  explicit UndecodableAudio(StageContext& context)
      : UndecodableItems(context, "audio", "its data does not decode") {}

  // Calls on_audio(row, samples) for each kept row whose samples decode (the batch's cache, or
  // the item's bytes), and reports the others; the first error under on_error: fail ends it.
  template <class OnAudio>
  Status each_decoded(DocBatch& batch, OnAudio&& on_audio) const {
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      std::string why;
      if (const AudioSamples* audio = audio_samples(batch, i, &why)) {
        on_audio(i, *audio);
      } else {
        WINNOW_RETURN_IF_ERROR(report(batch, i, why));
      }
    }
    return Status::ok();
  }
};

}  // namespace winnow
