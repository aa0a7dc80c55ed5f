#include "media/pillow_resample.h"

#include <algorithm>
#include <cmath>

namespace winnow {

namespace {

// Pillow's fixed point: 32 bits less 8 for the sample and 2 for the sign and headroom.
constexpr int kPrecisionBits = 32 - 8 - 2;

double bilinear(double x) {
  x = std::fabs(x);
  return x < 1.0 ? 1.0 - x : 0.0;
}

// Keys' cubic with a = -0.5, as Pillow has it.
double bicubic(double x) {
  constexpr double a = -0.5;
  x = std::fabs(x);
  if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1;
  if (x < 2.0) return (((x - 5) * x + 8) * x - 4) * a;
  return 0.0;
}

// One pass's weights: for output index i, `first[i]` and `count[i]` say which input samples it
// reads, and weights[i * span .. + count[i]] their fixed-point weights.
struct PassWeights {
  int span = 0;
  std::vector<int> first, count;
  std::vector<int32_t> weights;
};

PassWeights precompute(int in_size, int out_size, ResampleFilter filter) {
  const double support_base = filter == ResampleFilter::kBicubic ? 2.0 : 1.0;
  double (*kernel)(double) = filter == ResampleFilter::kBicubic ? bicubic : bilinear;
  const double scale = static_cast<double>(in_size) / out_size;
  const double filter_scale = std::max(scale, 1.0);
  const double support = support_base * filter_scale;
  PassWeights pass;
  pass.span = static_cast<int>(std::ceil(support)) * 2 + 1;
  pass.first.resize(out_size);
  pass.count.resize(out_size);
  pass.weights.assign(static_cast<size_t>(out_size) * pass.span, 0);
  std::vector<double> k(pass.span);
  const double inverse_scale = 1.0 / filter_scale;  // multiplied, as Pillow does: same last bits
  for (int i = 0; i < out_size; ++i) {
    const double center = (i + 0.5) * scale;
    // Pillow rounds by truncating x + 0.5 toward zero, then clamps.
    int lo = std::max(static_cast<int>(center - support + 0.5), 0);
    int hi = std::min(static_cast<int>(center + support + 0.5), in_size);
    const int n = hi - lo;
    double sum = 0.0;
    for (int x = 0; x < n; ++x) {
      k[x] = kernel((x + lo - center + 0.5) * inverse_scale);
      sum += k[x];
    }
    for (int x = 0; x < n; ++x) {
      double w = sum != 0.0 ? k[x] / sum : k[x];
      pass.weights[static_cast<size_t>(i) * pass.span + x] =
          static_cast<int32_t>(w < 0 ? -0.5 + w * (1 << kPrecisionBits)
                                     : 0.5 + w * (1 << kPrecisionBits));
    }
    pass.first[i] = lo;
    pass.count[i] = n;
  }
  return pass;
}

inline uint8_t clip8(int32_t sum) {
  return static_cast<uint8_t>(std::clamp(sum >> kPrecisionBits, 0, 255));
}

// One row of the horizontal pass; kChannels 0: `channels` at run time. Integer sums: any order
// gives Pillow's bytes (no overflow: the weights' magnitudes sum to under 2^23).
template <size_t kChannels>
void horizontal_row(const uint8_t* line, const PassWeights& pass, int out_width, uint8_t* target,
                    size_t channels = kChannels) {
  const size_t c = kChannels ? kChannels : channels;
  int32_t sums[kChannels ? kChannels : 4];
  std::vector<int32_t> wide(kChannels ? 0 : c);
  int32_t* sum = kChannels ? sums : wide.data();
  for (int x = 0; x < out_width; ++x) {
    const int32_t* k = &pass.weights[static_cast<size_t>(x) * pass.span];
    const uint8_t* p = line + static_cast<size_t>(pass.first[x]) * c;
    for (size_t ch = 0; ch < c; ++ch) sum[ch] = 1 << (kPrecisionBits - 1);
    for (int j = 0; j < pass.count[x]; ++j, p += c) {
      for (size_t ch = 0; ch < c; ++ch) sum[ch] += p[ch] * k[j];
    }
    for (size_t ch = 0; ch < c; ++ch) target[x * c + ch] = clip8(sum[ch]);
  }
}

}  // namespace

void resize_like_pillow(const uint8_t* in, int width, int height, int channels, int out_width,
                        int out_height, ResampleFilter filter, std::vector<uint8_t>& out) {
  const size_t c = static_cast<size_t>(channels);
  std::vector<uint8_t> rows;  // the horizontal pass's output
  const uint8_t* source = in;
  int source_width = width;
  int row_offset = 0;  // the first input row the vertical pass reads
  PassWeights vertical;
  if (out_height != height) vertical = precompute(height, out_height, filter);
  if (out_width != width) {
    const PassWeights horizontal = precompute(width, out_width, filter);
    // Only the rows the vertical pass reads, as Pillow does.
    int first_row = 0, last_row = height;
    if (out_height != height) {
      first_row = vertical.first.front();
      last_row = vertical.first.back() + vertical.count.back();
    }
    rows.resize(static_cast<size_t>(last_row - first_row) * out_width * c);
    for (int y = first_row; y < last_row; ++y) {
      const uint8_t* line = in + static_cast<size_t>(y) * width * c;
      uint8_t* target = rows.data() + static_cast<size_t>(y - first_row) * out_width * c;
      if (c == 3) {
        horizontal_row<3>(line, horizontal, out_width, target);
      } else if (c == 1) {
        horizontal_row<1>(line, horizontal, out_width, target);
      } else {
        horizontal_row<0>(line, horizontal, out_width, target, c);
      }
    }
    source = rows.data();
    source_width = out_width;
    row_offset = first_row;
  }
  if (out_height == height) {
    if (source == in) {
      out.assign(in, in + static_cast<size_t>(width) * height * c);
    } else {
      out = std::move(rows);
    }
    return;
  }
  out.resize(static_cast<size_t>(source_width) * out_height * c);
  const size_t stride = static_cast<size_t>(source_width) * c;
  // Row by row of the filter, over a whole output row at once: the inner loop is a
  // multiply-add over contiguous bytes, which the compiler vectorises.
  std::vector<int32_t> sums(stride);
  for (int y = 0; y < out_height; ++y) {
    const int32_t* k = &vertical.weights[static_cast<size_t>(y) * vertical.span];
    const uint8_t* top = source + static_cast<size_t>(vertical.first[y] - row_offset) * stride;
    std::fill(sums.begin(), sums.end(), 1 << (kPrecisionBits - 1));
    for (int j = 0; j < vertical.count[y]; ++j) {
      const uint8_t* line = top + j * stride;
      const int32_t w = k[j];
      for (size_t x = 0; x < stride; ++x) sums[x] += line[x] * w;
    }
    uint8_t* target = out.data() + static_cast<size_t>(y) * stride;
    for (size_t x = 0; x < stride; ++x) target[x] = clip8(sums[x]);
  }
}

}  // namespace winnow
