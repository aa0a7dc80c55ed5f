#include "media/clip_measures.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "media/block_motion.h"

namespace winnow {

namespace {

// Per-frame motion fields on a grid of cells: each cell's motion is the mean length of the
// vectors that cover it (a bi-predicted block has two), or `uncovered` when none does (a block
// the encoder had to code without prediction: intra). Frames reduce to a global mean and the
// least moving patch.
class MotionField {
 public:
  // A field of width x height pixels in cells of `cell` pixels; patches are squares of the
  // shorter side.
  void start(int width, int height, int cell) {
    width_ = width;
    height_ = height;
    cell_ = cell;
    cells_x_ = (width + cell - 1) / cell;
    cells_y_ = (height + cell - 1) / cell;
    sums_.assign(size_t(cells_x_) * cells_y_, 0);
    counts_.assign(sums_.size(), 0);
    const int side = std::max(1, std::min(width, height));
    patch_side_ = side;
    patches_x_ = (width + side - 1) / side;
    patches_y_ = (height + side - 1) / side;
    patch_totals_.assign(size_t(patches_x_) * patches_y_, 0);
  }
  bool started() const { return width_ > 0; }

  // A block of w x h pixels at (x, y) moved by `length` pixels.
  void add_block(int x, int y, int w, int h, double length) {
    const int x0 = std::clamp(x, 0, width_) / cell_,
              x1 = (std::clamp(x + w, 0, width_) + cell_ - 1) / cell_;
    const int y0 = std::clamp(y, 0, height_) / cell_,
              y1 = (std::clamp(y + h, 0, height_) + cell_ - 1) / cell_;
    for (int cy = y0; cy < y1; ++cy) {
      for (int cx = x0; cx < x1; ++cx) {
        sums_[size_t(cy) * cells_x_ + cx] += length;
        ++counts_[size_t(cy) * cells_x_ + cx];
      }
    }
  }
  // One frame done: cells reduce to patch means, which join the totals.
  void end_frame(double uncovered) {
    std::vector<double> patch_sum(patch_totals_.size(), 0), patch_cells(patch_totals_.size(), 0);
    double total = 0;
    for (int cy = 0; cy < cells_y_; ++cy) {
      for (int cx = 0; cx < cells_x_; ++cx) {
        const size_t c = size_t(cy) * cells_x_ + cx;
        const double length = counts_[c] > 0 ? sums_[c] / counts_[c] : uncovered;
        const double motion = length / double(width_ + height_);
        const size_t p = size_t(std::min(cy * cell_ / patch_side_, patches_y_ - 1)) * patches_x_ +
                         size_t(std::min(cx * cell_ / patch_side_, patches_x_ - 1));
        patch_sum[p] += motion;
        patch_cells[p] += 1;
        total += motion;
        sums_[c] = 0;
        counts_[c] = 0;
      }
    }
    for (size_t p = 0; p < patch_totals_.size(); ++p) {
      patch_totals_[p] += patch_cells[p] > 0 ? patch_sum[p] / patch_cells[p] : 0;
    }
    global_ += total / double(sums_.size());
    ++frames_;
  }
  ClipMotion result(bool from_vectors) const {
    ClipMotion motion;
    motion.from_vectors = from_vectors;
    motion.frames = frames_;
    if (frames_ == 0) return motion;
    motion.global_mean = global_ / frames_;
    motion.min_patch_mean = std::numeric_limits<double>::infinity();
    for (double sum : patch_totals_)
      motion.min_patch_mean = std::min(motion.min_patch_mean, sum / frames_);
    return motion;
  }

 private:
  int width_ = 0, height_ = 0, cell_ = 1, cells_x_ = 0, cells_y_ = 0;
  int patch_side_ = 1, patches_x_ = 1, patches_y_ = 1;
  std::vector<double> sums_;
  std::vector<int> counts_;
  std::vector<double> patch_totals_;
  double global_ = 0;
  int frames_ = 0;
};

// ITU-R BT.601 luma of a BGR frame.
void grey(const VideoFrame& frame, std::vector<uint8_t>& out) {
  out.resize(size_t(frame.width) * frame.height);
  for (size_t i = 0; i < out.size(); ++i) {
    const uint8_t* p = &frame.bgr[i * 3];
    out[i] = static_cast<uint8_t>((114 * p[0] + 587 * p[1] + 299 * p[2] + 500) / 1000);
  }
}

}  // namespace

Result<ClipMotion> measure_clip_motion(const std::string& path, const ClipSpan& span,
                                       const MotionOptions& options) {
  // Every frame is decoded (P frames need their references anyway); the sampled ones are
  // measured: their motion vectors, or block matching against the frame right after them, so
  // that both measures are motion per frame step whatever the sampling rate.
  FrameRequest request;
  request.begin_s = span.begin_s;
  request.end_s = span.end_s;
  request.width = options.flow_width;
  request.motion_vectors = true;
  MotionField vectors, flow;
  std::vector<uint8_t> sample_grey, next_grey;
  const double step = 1 / options.sample_fps;
  double next_sample = span.begin_s;
  bool sampled_last = false;  // the frame before this one was a sample
  Status status = decode_video_frames(path, request, [&](VideoFrame& frame) {
    if (sampled_last) {
      grey(frame, next_grey);
      if (!flow.started()) flow.start(frame.width, frame.height, BlockMatchOptions{}.block);
      match_blocks(sample_grey.data(), next_grey.data(), frame.width, frame.height,
                   BlockMatchOptions{}, [&](int x, int y, int w, int h, double length) {
                     if (length >= 0) flow.add_block(x, y, w, h, length);
                   });
      flow.end_frame(BlockMatchOptions{}.range);
      sampled_last = false;
    }
    if (frame.time_s + 1e-6 < next_sample) return true;
    while (next_sample <= frame.time_s + 1e-6) next_sample += step;
    if (frame.has_vectors) {
      // 4 x 4: the smallest block H.264 predicts.
      if (!vectors.started()) vectors.start(frame.source_width, frame.source_height, 4);
      for (const MotionVector& v : frame.vectors) {
        const double scale = v.scale > 0 ? v.scale : 1;
        vectors.add_block(v.dst_x - v.w / 2, v.dst_y - v.h / 2, v.w, v.h,
                          std::hypot(v.motion_x / scale, v.motion_y / scale));
      }
      vectors.end_frame(options.intra_motion_px);
    }
    grey(frame, sample_grey);
    sampled_last = true;
    return true;
  });
  if (!status.is_ok()) return status;
  return vectors.started() ? vectors.result(true) : flow.result(false);
}

Result<ClipQuality> measure_clip_quality(const std::string& path, const ClipSpan& span,
                                         double sample_fps, const BrisqueScorer* brisque) {
  FrameRequest request;
  request.begin_s = span.begin_s;
  request.end_s = span.end_s;
  request.sample_fps = sample_fps;
  request.max_side = kWorkingSide;
  ClipQuality quality;
  ImagePixels image;
  Status status = decode_video_frames(path, request, [&](VideoFrame& frame) {
    image.width = frame.width;
    image.height = frame.height;
    image.source_width = static_cast<uint32_t>(frame.source_width);
    image.source_height = static_cast<uint32_t>(frame.source_height);
    image.bgr.swap(frame.bgr);
    quality.blur += laplacian_variance(image);
    if (brisque) quality.brisque += brisque->score(image);
    ++quality.frames;
    return true;
  });
  if (!status.is_ok()) return status;
  if (quality.frames == 0) return Status::error("no frame of the video lies in the clip's span");
  quality.blur /= quality.frames;
  quality.brisque /= quality.frames;
  return quality;
}

}  // namespace winnow
