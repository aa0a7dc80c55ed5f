#pragma once
// Log-mel features as NeMo's AudioToMelSpectrogramPreprocessor (FilterbankFeatures) computes
// them at inference (no dither): pre-emphasis, a centred STFT (zero padding of n_fft / 2 each
// side; the window, symmetric as torch's periodic=False, centred in n_fft), the power spectrum,
// librosa's mel filterbank (Slaney's mel scale and area normalisation), log(x + guard), and per
// feature (mel band) normalisation to zero mean and unit standard deviation (n - 1) over the
// audio's frames, plus 1e-5. NeMo keeps length / hop frames (its STFT gives one more).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace winnow {

struct MelOptions {
  int sample_rate = 16000;
  int win_length = 320;  // samples (NeMo's window_size 0.02 s at 16 kHz)
  int hop_length = 160;  // samples (window_stride 0.01 s)
  int n_fft = 512;       // a power of two, at least win_length
  int n_mels = 64;
  double fmin = 0, fmax = 0;    // fmax 0: sample_rate / 2
  std::string window = "hann";  // hann | hamming | none
  double preemph = 0.97;        // 0: none
  double mag_power = 2.0;
  double log_guard = 1.0 / (1 << 24);  // added before the log (log_zero_guard_type add)
  bool log = true;
  bool per_feature = true;  // normalize: per_feature, else none
};

// [n_mels][frames], row-major.
struct MelFeatures {
  int n_mels = 0;
  int64_t frames = 0;
  std::vector<float> values;
};

class LogMel {
 public:
  explicit LogMel(const MelOptions& options);
  const MelOptions& options() const { return o_; }
  // Frames NeMo keeps of `samples` samples.
  int64_t frames_of(int64_t samples) const { return samples / o_.hop_length; }
  MelFeatures compute(std::span<const float> mono) const;

 private:
  MelOptions o_;
  std::vector<double> window_;                // n_fft, the window centred
  std::vector<std::vector<double>> filters_;  // [n_mels][n_fft / 2 + 1]
};

// librosa.filters.mel(sr, n_fft, n_mels, fmin, fmax, htk=False, norm="slaney").
std::vector<std::vector<double>> slaney_mel_filters(int sample_rate, int n_fft, int n_mels,
                                                    double fmin, double fmax);

}  // namespace winnow
