#pragma once
// DecodedAudioCache: each audio item's samples, decoded once (by the reader, which decodes every
// file whole to refuse what cannot be read through, or by the first stage that needs them) and
// shared by every later stage of the batch. Keyed by the item's DocKey, so rows rebuilt by a
// fan-out keep their entries; a stage that changes an item's audio (resample) replaces its entry.
#include <memory>
#include <unordered_map>

#include "core/audio_decode.h"
#include "core/doc_batch.h"

namespace winnow {

class DecodedAudioCache final : public DocBatchCache {
 public:
  void text_changed(size_t) override {}  // a transcript's text is not its audio

  const AudioSamples* find(DocKey key) const {
    auto it = entries_.find(key.value());
    return it == entries_.end() ? nullptr : it->second.get();
  }
  const AudioSamples& put(DocKey key, AudioSamples audio) {
    auto& entry = entries_[key.value()];
    entry = std::make_shared<const AudioSamples>(std::move(audio));
    return *entry;
  }

 private:
  std::unordered_map<uint64_t, std::shared_ptr<const AudioSamples>> entries_;
};

}  // namespace winnow
