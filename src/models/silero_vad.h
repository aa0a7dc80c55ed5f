#pragma once
// SileroVad: a voice-activity model exported to ONNX with Silero VAD's interface, run as
// Silero's own OnnxWrapper runs it: windows of 512 samples at 16 kHz (256 at 8 kHz), each
// given with the 64 (32) samples before it as context (zeros before the first) and the
// recurrent state the previous window left ([2, batch, 128], zeros at first), and the sample
// rate; one speech probability per window, the last window zero-padded. Several audios run in
// lockstep as rows of one batch (the rows are independent, so each row's probabilities are
// those it would get alone).
//
// Checked at load: inputs `input` (float [batch, samples]), `state` (float [2, batch, 128]),
// `sr` (int64 or int32 scalar); two float outputs, the probability ([batch, 1]) then the state.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "models/onnx_session.h"

namespace winnow {

class SileroVad {
 public:
  static Result<std::shared_ptr<const SileroVad>> load(const std::string& path,
                                                       const OnnxSessionOptions& options);

  static int window(int sample_rate) { return sample_rate == 16000 ? 512 : 256; }
  static int context(int sample_rate) { return sample_rate == 16000 ? 64 : 32; }

  // Per audio (mono, at `sample_rate`: 16000 or 8000), its speech probability per window.
  Status probabilities(std::span<const std::span<const float>> audios, int sample_rate,
                       std::vector<std::vector<float>>& out) const;

 private:
  explicit SileroVad(std::shared_ptr<const OnnxSession> session) : session_(std::move(session)) {}
  std::shared_ptr<const OnnxSession> session_;
  std::vector<std::string> outputs_;  // probability, state
};

}  // namespace winnow
