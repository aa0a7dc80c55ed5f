#pragma once
// CtcAsrModel: a CTC speech recogniser exported to ONNX as NeMo exports its CTC models (the
// encoder and decoder, without the preprocessor): a float input of log-mel features
// [batch, n_mels, frames] and an integer input of their lengths [batch]; a first output of
// per-frame scores over the vocabulary and the blank, last ([batch, frames', vocabulary + 1];
// log-probabilities or logits, the same to greedy decoding). The features are computed as the
// model's config says (models/nemo_asr_config.h, media/log_mel.h), and decoded greedily as
// NeMo's GreedyCTCInfer does: the best token per frame, repeats collapsed, blanks dropped.
//
// A batch pads its rows to the longest with zeros; a row's output frames are its own frames
// divided by the model's subsampling (frames / frames', rounded), rounded up, as NeMo's
// encoders count them (each stride-2 stage makes ceil(n / 2)).
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "media/log_mel.h"
#include "models/nemo_asr_config.h"
#include "models/onnx_session.h"

namespace winnow {

class CtcAsrModel {
 public:
  static Result<std::shared_ptr<const CtcAsrModel>> load(const std::string& model_path,
                                                         const std::string& config_path,
                                                         const OnnxSessionOptions& options);

  const LogMel& features() const { return mel_; }
  int sample_rate() const { return mel_.options().sample_rate; }

  // The token ids of each row (greedy CTC), one batch.
  Status decode(std::span<const MelFeatures* const> rows, std::vector<std::vector<int>>& out) const;
  // Token ids as text: the tokens joined, SentencePiece's "▁" made a space, the ends trimmed.
  std::string text(const std::vector<int>& ids) const;

 private:
  CtcAsrModel(std::shared_ptr<const OnnxSession> session, NemoAsrConfig config)
      : session_(std::move(session)), config_(std::move(config)), mel_(config_.mel) {}
  std::shared_ptr<const OnnxSession> session_;
  NemoAsrConfig config_;
  LogMel mel_;
  std::string signal_input_, length_input_;
  std::vector<std::string> outputs_;
};

// Greedy CTC over [frames][classes] scores: per frame the first best class, repeats collapsed,
// `blank` dropped.
std::vector<int> greedy_ctc(std::span<const float> scores, int64_t frames, int64_t classes,
                            int blank);

}  // namespace winnow
