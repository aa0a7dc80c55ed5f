#include "media/audio_samples.h"

#include "core/decoded_audio_cache.h"

namespace winnow {

const AudioSamples* audio_samples(DocBatch& batch, size_t row, std::string* why) {
  auto& cache = batch.cache<DecodedAudioCache>();
  if (const AudioSamples* found = cache.find(batch.key(row))) return found;
  const Payload* payload = batch.payload(row);
  if (!payload) {
    if (why) *why = "the item has no audio";
    return nullptr;
  }
  AudioDecode decoded = payload->in_memory() ? decode_audio_bytes(payload->bytes(), {})
                                             : decode_audio_file(payload->path, {});
  if (!decoded.audio) {
    if (why) *why = decoded.message;
    return nullptr;
  }
  return &cache.put(batch.key(row), std::move(*decoded.audio));
}

std::vector<float> mono_samples(const AudioSamples& audio) {
  if (audio.channels <= 1) return audio.samples;
  std::vector<float> mono(audio.frames());
  for (size_t f = 0; f < mono.size(); ++f) {
    float sum = 0;
    for (int c = 0; c < audio.channels; ++c) sum += audio.samples[f * audio.channels + c];
    mono[f] = sum / float(audio.channels);
  }
  return mono;
}

}  // namespace winnow
