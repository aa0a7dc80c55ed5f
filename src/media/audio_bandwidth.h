#pragma once
// NeMo Curator's bandwidth metric (BandwidthEstimationStage): the highest frequency whose
// mean power lies within `threshold_db` of the loudest frequency's. As NeMo computes it with
// librosa: a centred STFT (n_fft-point frames, zero-padded n_fft/2 at both ends, a hop of
// int(rate x stride_s) samples, a periodic 4-term Blackman-Harris window), power |X|^2 averaged
// over the frames per frequency bin, power_to_db against ref = n_fft (amin 1e-10) clipped to
// top_db below its maximum, then the bins scanned from the top for the first within
// threshold_db of the peak: bandwidth = bin x rate / n_fft (0 when none).
#include <cstdint>
#include <span>
#include <vector>

namespace winnow {

struct BandwidthOptions {
  int n_fft = 512;  // a power of two
  double stride_s = 0.01;
  double top_db = 100.0;
  double threshold_db = -50.0;
};

// The mean power spectrum in dB (n_fft / 2 + 1 bins), as above.
std::vector<double> mean_power_db(std::span<const float> mono, int sample_rate,
                                  const BandwidthOptions& options);

// Hz, truncated to an integer as NeMo stores it.
int64_t audio_bandwidth_hz(std::span<const float> mono, int sample_rate,
                           const BandwidthOptions& options);

}  // namespace winnow
