#pragma once
// CtcAsrModel: a CTC speech recogniser exported to ONNX as NeMo exports its CTC models (the
// encoder and decoder, without the preprocessor): a float input of log-mel features
// [batch, n_mels, frames] and an integer input of their lengths [batch]; a first output of
// per-frame scores over the vocabulary and the blank, last ([batch, frames', vocabulary + 1];
// log-probabilities or logits, the same to greedy decoding). The caller computes the features
// as the model's config says (stages/audio/nemo_asr_config.h, media/log_mel.h); the scores are
// decoded greedily as NeMo's GreedyCTCInfer does: the best token per frame, repeats collapsed,
// blanks dropped.
//
// A batch pads its rows to the longest with zeros; a row's output frames are its own frames
// divided by the model's subsampling, rounded up, as NeMo's encoders count them (each stride-2
// stage makes ceil(n / 2)). The subsampling is the config's (encoder.subsampling_factor) or, when
// it has none, read off the output: the power of two that takes the longest row's frames to
// the output's (subsampling_of).
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "models/onnx_session.h"

namespace winnow {

// One row's features: [n_mels][frames], row-major.
struct CtcFeatures {
  std::span<const float> values;
  int64_t frames = 0;
};

class CtcAsrModel {
 public:
  // `vocabulary`: the model's tokens, the blank one past the last; `n_mels` features a frame;
  // `subsampling`: input frames per output frame (0: read off each run's output).
  static Result<std::shared_ptr<const CtcAsrModel>> load(const std::string& model_path,
                                                         std::vector<std::string> vocabulary,
                                                         int n_mels, int subsampling,
                                                         const OnnxSessionOptions& options);

  // The token ids of each row (greedy CTC), one batch.
  Status decode(std::span<const CtcFeatures> rows, std::vector<std::vector<int>>& out) const;
  // Token ids as text: the tokens joined, SentencePiece's "▁" made a space, the ends trimmed.
  std::string text(const std::vector<int>& ids) const;

 private:
  CtcAsrModel(std::shared_ptr<const OnnxSession> session, std::vector<std::string> vocabulary,
              int n_mels, int subsampling)
      : session_(std::move(session)),
        vocabulary_(std::move(vocabulary)),
        n_mels_(n_mels),
        subsampling_(subsampling) {}
  std::shared_ptr<const OnnxSession> session_;
  std::vector<std::string> vocabulary_;
  int n_mels_;
  int subsampling_;
  std::string signal_input_, length_input_;
  std::vector<std::string> outputs_;
};

// Greedy CTC over [frames][classes] scores: per frame the first best class, repeats collapsed,
// `blank` dropped.
// The power of two f (1 to 64) with ceil(frames_in / f) = frames_out, else their ratio rounded.
int64_t subsampling_of(int64_t frames_in, int64_t frames_out);

std::vector<int> greedy_ctc(std::span<const float> scores, int64_t frames, int64_t classes,
                            int blank);

}  // namespace winnow
