#include "models/hf_text_pipeline.h"

#include <simdjson.h>

#include "models/hf_text_steps.h"

namespace winnow {

HfTextPipeline::HfTextPipeline() = default;
HfTextPipeline::~HfTextPipeline() = default;
HfTextPipeline::HfTextPipeline(HfTextPipeline&&) noexcept = default;
HfTextPipeline& HfTextPipeline::operator=(HfTextPipeline&&) noexcept = default;

Status HfTextPipeline::parse(const simdjson::dom::element* normalizer,
                             const simdjson::dom::element* pre_tokenizer) {
  if (normalizer != nullptr && !normalizer->is_null()) {
    WINNOW_RETURN_IF_ERROR(hf_text::parse_normalizer(*normalizer, normalizers_));
  }
  if (pre_tokenizer != nullptr && !pre_tokenizer->is_null()) {
    WINNOW_RETURN_IF_ERROR(hf_text::parse_pre_tokenizer(*pre_tokenizer, pre_tokenizers_));
  }
  return Status::ok();
}

void HfTextPipeline::normalize(std::string& text, TextStart& start) const {
  for (const auto& step : normalizers_) step->normalize(text, start);
}

void HfTextPipeline::pre_tokenize(std::string_view text, TextStart start,
                                  std::vector<std::string>& words) const {
  std::vector<hf_text::Piece> pieces;
  pieces.push_back({std::string(text), start});
  for (const auto& step : pre_tokenizers_) step->pre_tokenize(pieces);
  for (hf_text::Piece& piece : pieces) words.push_back(std::move(piece.text));
}

}  // namespace winnow
