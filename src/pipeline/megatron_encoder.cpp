#include "pipeline/megatron_encoder.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace winnow {

Result<std::unique_ptr<MegatronEncoder>> MegatronEncoder::load(const MegatronSettings& settings) {
  if (settings.tokenizer.empty()) {
    return Status::error(
        "output.format megatron needs output.tokenizer (a tokenizer.json or a model folder)");
  }
  auto tokenizer = load_text_tokenizer(settings.tokenizer);
  if (!tokenizer.is_ok()) return tokenizer.status();
  const uint64_t vocabulary = tokenizer.value()->vocabulary_size();
  if (settings.append_eod &&
      (settings.eod_id < 0 || static_cast<uint64_t>(settings.eod_id) >= vocabulary)) {
    return Status::errorf("output.eod_id {} is not an id of {} ({} ids)", settings.eod_id,
                          settings.tokenizer, vocabulary);
  }
  const MegatronDtype dtype = megatron_dtype_for_vocabulary(vocabulary);
  return std::unique_ptr<MegatronEncoder>(
      new MegatronEncoder(std::move(tokenizer).value(), settings, dtype));
}

Status MegatronEncoder::encode_kept(DocBatch& batch) const {
  // Untruncated, whatever truncation the tokenizer.json sets: a training set keeps every token.
  constexpr size_t kNoTruncation = std::numeric_limits<size_t>::max();
  std::vector<int64_t> ids;
  for (size_t i = 0; i < batch.size(); ++i) {
    if (!batch.kept(i)) continue;
    ids.clear();
    if (settings_.add_special_tokens) {
      tokenizer_->encode(batch.text(i), ids, kNoTruncation);
    } else {
      tokenizer_->encode_without_specials(batch.text(i), ids);
    }
    if (settings_.append_eod && !ids.empty()) ids.push_back(settings_.eod_id);
    if (const int64_t* bad = append_megatron_tokens(batch.encoded_kept, ids, dtype_)) {
      return Status::errorf("token id {} of document '{}' does not fit the {} output of {}", *bad,
                            batch.id(i), megatron_dtype_name(dtype_), settings_.tokenizer);
    }
    batch.encoded_kept_ends.push_back(batch.encoded_kept.size());
  }
  return Status::ok();
}

}  // namespace winnow
