#pragma once
// audio_samples(batch, row): an audio item's samples, from the batch's DecodedAudioCache (the
// reader's decode, or resample's output) or, when the batch has none (a batch stored for a later
// pass), decoded again from the item's file or bytes and cached for the later stages.
#include <string>

#include "core/audio_decode.h"
#include "core/doc_batch.h"

namespace winnow {

// Null, with `why` set, when the item's audio cannot be decoded.
const AudioSamples* audio_samples(DocBatch& batch, size_t row, std::string* why);

// The channels averaged into one (as librosa.load(mono=True) and NeMo's mono conversion do).
std::vector<float> mono_samples(const AudioSamples& audio);

}  // namespace winnow
