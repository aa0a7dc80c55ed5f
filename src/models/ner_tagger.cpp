#include "models/ner_tagger.h"

#include <algorithm>

namespace winnow {

NerTagger::NerTagger(std::shared_ptr<const TokenClassifier> model, PiiEntityMask entities)
    : model_(std::move(model)) {
  for (const std::string& label : model_->labels()) {
    BioTag tag = parse_bio_label(label);
    if (tag.kind != BioTag::kOutside && !(entities & pii_bit(tag.entity))) tag = BioTag{};
    label_tags_.push_back(tag);
  }
}

void NerTagger::pack_windows(std::string_view text, std::span<const WordRange> words,
                             std::vector<std::vector<int64_t>>& rows,
                             std::vector<Slot>& slots) const {
  const std::vector<int64_t>& prefix = model_->prefix();
  const std::vector<int64_t>& suffix = model_->suffix();
  const size_t room = model_->max_tokens() - prefix.size() - suffix.size();
  std::vector<int64_t> pieces;
  bool open = false;  // rows.back() is this text's window, still taking words
  for (const WordRange& word : words) {
    pieces.clear();
    model_->tokenizer().encode_without_specials(text.substr(word.begin, word.end - word.begin),
                                                pieces);
    if (pieces.empty()) {
      slots.push_back({});
      continue;
    }
    const size_t take = std::min(pieces.size(), room);
    if (open && rows.back().size() - prefix.size() + take > room) {
      rows.back().insert(rows.back().end(), suffix.begin(), suffix.end());
      open = false;
    }
    if (!open) {
      rows.emplace_back(prefix);
      open = true;
    }
    std::vector<int64_t>& row = rows.back();
    slots.push_back({static_cast<int64_t>(rows.size() - 1), row.size()});
    row.insert(row.end(), pieces.begin(), pieces.begin() + static_cast<std::ptrdiff_t>(take));
  }
  if (open) rows.back().insert(rows.back().end(), suffix.begin(), suffix.end());
}

BioTag NerTagger::tag_of(const std::vector<float>& logits, size_t position) const {
  const size_t n = label_tags_.size();
  const float* scores = logits.data() + position * n;
  const size_t top = static_cast<size_t>(std::max_element(scores, scores + n) - scores);
  return label_tags_[top];
}

Status NerTagger::find(std::span<const std::string_view> texts,
                       std::vector<std::vector<PiiSpan>>& out) const {
  out.assign(texts.size(), {});
  std::vector<std::vector<WordRange>> words(texts.size());
  std::vector<std::vector<Slot>> slots(texts.size());
  std::vector<std::vector<int64_t>> rows;
  for (size_t t = 0; t < texts.size(); ++t) {
    split_ner_words(texts[t], words[t]);
    pack_windows(texts[t], words[t], rows, slots[t]);
  }
  if (rows.empty()) return Status::ok();
  std::vector<std::span<const int64_t>> views(rows.begin(), rows.end());
  std::vector<std::vector<float>> logits;
  WINNOW_RETURN_IF_ERROR(model_->logits(views, logits));
  std::vector<BioTag> tags;
  for (size_t t = 0; t < texts.size(); ++t) {
    tags.clear();
    for (const Slot& slot : slots[t]) {
      tags.push_back(slot.row < 0 ? BioTag{} : tag_of(logits[size_t(slot.row)], slot.position));
    }
    merge_bio_tags(words[t], tags, out[t]);
  }
  return Status::ok();
}

}  // namespace winnow
