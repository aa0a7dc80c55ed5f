#include "media/audio_bandwidth.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "media/real_power_spectrum.h"

namespace winnow {

namespace {

// scipy.signal.get_window("blackmanharris", n): the periodic 4-term window.
std::vector<double> blackman_harris(int n) {
  std::vector<double> w(n);
  for (int i = 0; i < n; ++i) {
    const double x = 2 * std::numbers::pi * i / n;
    w[i] = 0.35875 - 0.48829 * std::cos(x) + 0.14128 * std::cos(2 * x) - 0.01168 * std::cos(3 * x);
  }
  return w;
}

}  // namespace

std::vector<double> mean_power_db(std::span<const float> mono, int sample_rate,
                                  const BandwidthOptions& options) {
  const int n_fft = options.n_fft;
  const auto hop = std::max<int64_t>(1, int64_t(sample_rate * options.stride_s));
  const int64_t pad = n_fft / 2, length = int64_t(mono.size());
  const int64_t frames = 1 + (length + 2 * pad - n_fft) / hop;  // librosa's centred frames
  const std::vector<double> window = blackman_harris(n_fft);
  std::vector<double> power(n_fft / 2 + 1, 0.0);
  std::vector<double> frame(n_fft);
  RealPowerSpectrum spectrum(n_fft);
  for (int64_t f = 0; f < frames; ++f) {
    for (int i = 0; i < n_fft; ++i) {
      const int64_t at = f * hop + i - pad;  // zero outside the signal (pad_mode "constant")
      frame[i] = at >= 0 && at < length ? window[i] * mono[at] : 0.0;
    }
    spectrum.accumulate(frame.data(), power);
  }
  const double ref_db = 10 * std::log10(double(n_fft));
  for (double& p : power) {
    p = 10 * std::log10(std::max(1e-10, frames > 0 ? p / double(frames) : 0.0)) - ref_db;
  }
  const double top = *std::max_element(power.begin(), power.end());
  for (double& p : power) p = std::max(p, top - options.top_db);
  return power;
}

int64_t audio_bandwidth_hz(std::span<const float> mono, int sample_rate,
                           const BandwidthOptions& options) {
  const std::vector<double> db = mean_power_db(mono, sample_rate, options);
  const double peak = *std::max_element(db.begin(), db.end());
  const double bin_hz = double(sample_rate) / options.n_fft;
  for (size_t k = db.size(); k-- > 0;) {
    if (db[k] - peak > options.threshold_db) return int64_t(double(k) * bin_hz);
  }
  return 0;
}

}  // namespace winnow
