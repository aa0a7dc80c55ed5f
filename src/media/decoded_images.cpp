#include "media/decoded_images.h"

#include <memory>
#include <vector>

namespace winnow {

namespace {

struct Entry {
  const std::string* buffer = nullptr;  // the payload it was decoded from
  uint64_t offset = 0;
  uint64_t size = 0;
  bool ok = false;
  std::string error;
  ImagePixels pixels;
};

class DecodedImageCache : public DocBatchCache {
 public:
  void text_changed(size_t) override {}
  std::vector<std::unique_ptr<Entry>> entries;
};

bool matches(const Entry& entry, const Payload& payload) {
  return entry.buffer == payload.buffer.get() && entry.offset == payload.offset &&
         entry.size == payload.size;
}

}  // namespace

const ImagePixels* decoded_image(DocBatch& batch, size_t row, std::string* error) {
  const Payload* payload = batch.payload(row);
  if (!payload || !payload->in_memory()) {
    if (error) *error = "no image bytes";
    return nullptr;
  }
  DecodedImageCache* cache = &batch.cache<DecodedImageCache>();
  if (cache->entries.size() < batch.size()) cache->entries.resize(batch.size());
  std::unique_ptr<Entry>& entry = cache->entries[row];
  if (!entry || !matches(*entry, *payload)) {
    entry = std::make_unique<Entry>();
    entry->buffer = payload->buffer.get();
    entry->offset = payload->offset;
    entry->size = payload->size;
    entry->ok = decode_working_image(payload->bytes(), entry->pixels, &entry->error);
  }
  if (!entry->ok && error) *error = entry->error;
  return entry->ok ? &entry->pixels : nullptr;
}

const ImagePixels* decoded_image(const DocBatch& batch, size_t row, ImagePixels& scratch) {
  const Payload* payload = batch.payload(row);
  if (!payload || !payload->in_memory()) return nullptr;
  if (auto* cache = batch.find_cache<DecodedImageCache>()) {
    if (row < cache->entries.size() && cache->entries[row] &&
        matches(*cache->entries[row], *payload)) {
      return cache->entries[row]->ok ? &cache->entries[row]->pixels : nullptr;
    }
  }
  return decode_working_image(payload->bytes(), scratch, nullptr) ? &scratch : nullptr;
}

}  // namespace winnow
