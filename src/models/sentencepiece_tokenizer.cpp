#include "models/sentencepiece_tokenizer.h"

#include <sentencepiece_processor.h>

#include "models/shared_model_cache.h"

namespace winnow {

SentencePieceTokenizer::~SentencePieceTokenizer() = default;

Result<std::shared_ptr<const SentencePieceTokenizer>> SentencePieceTokenizer::load(
    const std::string& path) {
  return load_shared_model<SentencePieceTokenizer>("SentencePiece model", path,
                                                   [&path] { return read_file(path); });
}

Result<std::shared_ptr<SentencePieceTokenizer>> SentencePieceTokenizer::read_file(
    const std::string& path) {
  std::shared_ptr<SentencePieceTokenizer> model(new SentencePieceTokenizer());
  model->processor_ = std::make_unique<sentencepiece::SentencePieceProcessor>();
  // The library reports a file that is no model as "Model file is broken" or a protobuf parse
  // error; either way the user needs the path with it.
  const auto status = model->processor_->Load(path);
  if (!status.ok()) {
    return Status::errorf("cannot load SentencePiece model '{}': {}", path, status.ToString());
  }
  model->vocab_size_ = model->processor_->GetPieceSize();
  if (model->vocab_size_ <= 0) {
    return Status::errorf("SentencePiece model '{}' has no pieces", path);
  }
  model->bos_id_ = model->processor_->bos_id();
  model->eos_id_ = model->processor_->eos_id();
  model->path_ = path;
  return model;
}

void SentencePieceTokenizer::encode(std::string_view text, std::vector<int>& ids) const {
  ids.clear();
  // Encode fails only when the processor is not loaded, which load() rules out.
  processor_->Encode(text, &ids).IgnoreError();
}

int SentencePieceTokenizer::piece_id(std::string_view piece) const {
  // PieceToId answers unknown pieces with the unk id: check the id names the piece.
  int id = processor_->PieceToId(piece);
  return id >= 0 && processor_->IdToPiece(id) == piece ? id : -1;
}

size_t SentencePieceTokenizer::count(std::string_view text) const {
  thread_local std::vector<int> ids;
  encode(text, ids);
  return ids.size();
}

}  // namespace winnow
