#pragma once
// RealPowerSpectrum: |X[k]|^2, k = 0..n/2, of n real samples (n a power of two): one complex
// FFT of n/2 points (even samples real, odd imaginary) split into the real transform, with
// tables made once. Shared by the audio measures (media/audio_bandwidth.h, media/log_mel.h).
#include <complex>
#include <cstddef>
#include <numbers>
#include <vector>

namespace winnow {

class RealPowerSpectrum {
 public:
  using Complex = std::complex<double>;

  explicit RealPowerSpectrum(int n)
      : n_(n), half_(n / 2), bits_(half_), twiddles_(half_), split_(half_) {
    for (size_t i = 1, j = 0; i < half_; ++i) {  // bit-reversal permutation
      size_t bit = half_ >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      bits_[i] = j;
    }
    for (size_t k = 0; k < half_; ++k) {
      twiddles_[k] = std::polar(1.0, -2 * std::numbers::pi * double(k) / double(half_));
      split_[k] = std::polar(1.0, -2 * std::numbers::pi * double(k) / double(n_));
    }
  }

  // Adds |X[k]|^2 of `frame` (n samples) to power[k].
  void accumulate(const double* frame, std::vector<double>& power) {
    z_.resize(half_);
    for (size_t i = 0; i < half_; ++i) z_[bits_[i]] = Complex(frame[2 * i], frame[2 * i + 1]);
    for (size_t len = 2; len <= half_; len <<= 1) {
      const size_t stride = half_ / len;
      for (size_t i = 0; i < half_; i += len) {
        for (size_t k = 0; k < len / 2; ++k) {
          const Complex u = z_[i + k], v = z_[i + k + len / 2] * twiddles_[k * stride];
          z_[i + k] = u + v;
          z_[i + k + len / 2] = u - v;
        }
      }
    }
    for (size_t k = 0; k <= half_; ++k) {
      const Complex a = z_[k % half_], b = std::conj(z_[(half_ - k) % half_]);
      const Complex even = (a + b) * 0.5, odd = (a - b) * Complex(0, -0.5);
      const Complex w = k < half_ ? split_[k] : Complex(-1, 0);
      power[k] += std::norm(even + w * odd);
    }
  }

 private:
  size_t n_, half_;
  std::vector<size_t> bits_;
  std::vector<Complex> twiddles_, split_, z_;
};

}  // namespace winnow
