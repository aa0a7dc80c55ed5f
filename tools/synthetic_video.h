#pragma once
// Synthetic videos with known content for the video tests and the example's corpus, written and
// read back with FFmpeg's libraries directly (not through winnow's codec module, which is what
// the tests check): shots of distinct scenes with hard cuts at known frames, static and panning
// shots, noise, blurred copies.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace winnow::testing {

// Paints frame `index` (BGR, rows packed) of a width x height video.
using FramePainter = std::function<void(int index, int width, int height, uint8_t* bgr)>;

struct VideoSpec {
  int width = 96;
  int height = 64;
  int fps = 25;
  int frames = 50;
  std::string encoder = "libx264";  // or mpeg4, mjpeg, libvpx...
  int gop = 50;                     // frames between keyframes
  // > 0: an audio track too, a sine of this pitch (what lavfi's sine source makes), AAC at
  // 48 kHz mono (FFmpeg's own encoder), as long as the video.
  int audio_hz = 0;
};

// Writes `path` (the container from its extension); false with `error` set when it cannot.
bool write_video(const std::string& path, const VideoSpec& spec, const FramePainter& paint,
                 std::string* error);

// Scenes: `scene` picks a palette and layout far from every other scene's (a hard cut between
// two scenes changes every pixel's hue or value); a small square drifts one pixel a frame.
void paint_scene(int scene, int index, int width, int height, uint8_t* bgr);
// A smooth texture, still or moving right by `speed` pixels a frame.
void paint_texture(double speed, int index, int width, int height, uint8_t* bgr);
// Fresh noise each frame (seeded by the frame).
void paint_noise(int index, int width, int height, uint8_t* bgr);
// Box blur of radius r in place (the blurred copy of a painter's frame).
void box_blur(int radius, int width, int height, uint8_t* bgr);

// Shots with hard cuts: shot k holds frames [cuts[k-1], cuts[k]) painted as scene k.
FramePainter shots_painter(std::vector<int> cuts);

// The corpus examples/video.yaml runs on (tools/make_video_corpus, tests/cli/video_example_test):
// in `dir`, shots.mp4 (12.8 s, 25 fps, hard cuts at 3.2, 6.4 and 9.6 s: four clips), pan.mkv (a
// slow pan), flow.avi (MJPEG, no motion vectors: a pan measured by optical flow), still.mp4 (no
// motion), blurry.mp4 (heavily blurred), and two bad files: cut.mp4 (cut short) and notes.mp4
// (text).
bool write_video_corpus(const std::string& dir, std::string* error);

struct ReadBack {
  int frames = 0;
  std::vector<double> times;  // each frame's presentation time from the stream's start
  double fps = 0;
  int width = 0;
  int height = 0;
  std::string codec;
  // The audio stream, read as packets (not decoded): codec, packets, the first packet's time and
  // the sum of the packets' durations, in seconds.
  std::string audio_codec;  // empty: no audio stream
  int audio_packets = 0;
  double audio_first_s = 0;
  double audio_seconds = 0;
  bool ok = false;
  std::string error;
};
// Decodes every frame of `path` with libavformat / libavcodec.
ReadBack read_video(const std::string& path);

}  // namespace winnow::testing
