#pragma once
// What winnow reads of a NeMo ASR model's config (model_config.yaml, as a .nemo archive holds
// it): the `preprocessor` section (AudioToMelSpectrogramPreprocessor: sample_rate,
// window_size and window_stride in seconds or n_window_size and n_window_stride in samples,
// n_fft, features, window, normalize, lowfreq, highfreq, log, log_zero_guard_value, preemph,
// mag_power; dither is a training-time setting and ignored) and the CTC vocabulary
// (`decoder.vocabulary`, or a top-level `labels`), and `encoder.subsampling_factor` if given. What
// NeMo allows and winnow does not compute (frame_splicing, exact_pad, normalize all_features,
// log_zero_guard_type clamp, a mel_norm other than slaney) is refused, naming the key.
#include <string>
#include <vector>

#include "core/status.h"
#include "media/log_mel.h"

namespace winnow {

struct NemoAsrConfig {
  MelOptions mel;
  std::vector<std::string> vocabulary;  // the blank is one past the last
  int subsampling = 0;                  // encoder.subsampling_factor (0: not given)
};

Result<NemoAsrConfig> read_nemo_asr_config(const std::string& path);

}  // namespace winnow
