#include "media/log_mel.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "media/real_power_spectrum.h"

namespace winnow {

namespace {

// Slaney's mel scale (librosa's htk=False): linear to 1 kHz, logarithmic above.
constexpr double kSpacing = 200.0 / 3, kLogHz = 1000, kLogMel = kLogHz / kSpacing;
const double kLogStep = std::log(6.4) / 27;

double hz_to_mel(double hz) {
  return hz >= kLogHz ? kLogMel + std::log(hz / kLogHz) / kLogStep : hz / kSpacing;
}
double mel_to_hz(double mel) {
  return mel >= kLogMel ? kLogHz * std::exp(kLogStep * (mel - kLogMel)) : kSpacing * mel;
}

// torch's hann_window / hamming_window(win, periodic=False), zero-padded to n_fft on both
// sides as torch.stft pads a shorter window.
std::vector<double> centred_window(const std::string& name, int win, int n_fft) {
  std::vector<double> w(n_fft, 0.0);
  const int left = (n_fft - win) / 2;
  for (int i = 0; i < win; ++i) {
    const double x = win > 1 ? 2 * std::numbers::pi * i / (win - 1) : 0;
    w[left + i] = name == "hann"      ? 0.5 - 0.5 * std::cos(x)
                  : name == "hamming" ? 0.54 - 0.46 * std::cos(x)
                                      : 1.0;
  }
  return w;
}

// Each band to zero mean and unit standard deviation (Bessel's n - 1; 0 for one frame) + 1e-5.
void normalise_per_feature(MelFeatures& f) {
  for (int m = 0; m < f.n_mels; ++m) {
    float* row = f.values.data() + m * f.frames;
    double mean = 0;
    for (int64_t t = 0; t < f.frames; ++t) mean += row[t];
    mean /= double(f.frames);
    double squares = 0;
    for (int64_t t = 0; t < f.frames; ++t) squares += (row[t] - mean) * (row[t] - mean);
    const double std_dev = f.frames > 1 ? std::sqrt(squares / double(f.frames - 1)) : 0.0;
    for (int64_t t = 0; t < f.frames; ++t) row[t] = float((row[t] - mean) / (std_dev + 1e-5));
  }
}

}  // namespace

std::vector<std::vector<double>> slaney_mel_filters(int sample_rate, int n_fft, int n_mels,
                                                    double fmin, double fmax) {
  const int bins = n_fft / 2 + 1;
  std::vector<double> centres(n_mels + 2);
  const double low = hz_to_mel(fmin), high = hz_to_mel(fmax);
  for (int i = 0; i < n_mels + 2; ++i) {
    centres[i] = mel_to_hz(low + (high - low) * i / (n_mels + 1));
  }
  std::vector<std::vector<double>> filters(n_mels, std::vector<double>(bins, 0.0));
  for (int m = 0; m < n_mels; ++m) {
    const double norm = 2.0 / (centres[m + 2] - centres[m]);
    for (int k = 0; k < bins; ++k) {
      const double hz = double(sample_rate) / 2 * k / (bins - 1);
      const double rising = (hz - centres[m]) / (centres[m + 1] - centres[m]);
      const double falling = (centres[m + 2] - hz) / (centres[m + 2] - centres[m + 1]);
      filters[m][k] = std::max(0.0, std::min(rising, falling)) * norm;
    }
  }
  return filters;
}

LogMel::LogMel(const MelOptions& options)
    : o_(options),
      window_(centred_window(options.window, options.win_length, options.n_fft)),
      filters_(slaney_mel_filters(options.sample_rate, options.n_fft, options.n_mels, options.fmin,
                                  options.fmax > 0 ? options.fmax : options.sample_rate / 2.0)) {}

MelFeatures LogMel::compute(std::span<const float> mono) const {
  const int64_t length = int64_t(mono.size()), pad = o_.n_fft / 2;
  MelFeatures f;
  f.n_mels = o_.n_mels;
  f.frames = frames_of(length);
  f.values.assign(size_t(f.n_mels * f.frames), 0.0f);
  if (f.frames == 0) return f;
  // The pre-emphasised signal with the STFT's zero padding on both sides.
  std::vector<double> padded(size_t(length + 2 * pad), 0.0);
  for (int64_t i = 0; i < length; ++i) {
    padded[pad + i] = i == 0 ? mono[0] : double(mono[i]) - o_.preemph * double(mono[i - 1]);
  }
  RealPowerSpectrum spectrum(o_.n_fft);
  std::vector<double> frame(o_.n_fft), power(o_.n_fft / 2 + 1);
  for (int64_t t = 0; t < f.frames; ++t) {
    for (int i = 0; i < o_.n_fft; ++i) frame[i] = padded[t * o_.hop_length + i] * window_[i];
    std::fill(power.begin(), power.end(), 0.0);
    spectrum.accumulate(frame.data(), power);
    for (int m = 0; m < f.n_mels; ++m) {
      double energy = 0;
      for (size_t k = 0; k < power.size(); ++k) {
        const double magnitude =
            o_.mag_power == 2.0 ? power[k] : std::pow(power[k], o_.mag_power / 2);
        energy += filters_[m][k] * magnitude;
      }
      f.values[m * f.frames + t] = float(o_.log ? std::log(energy + o_.log_guard) : energy);
    }
  }
  if (o_.per_feature) normalise_per_feature(f);
  return f;
}

}  // namespace winnow
