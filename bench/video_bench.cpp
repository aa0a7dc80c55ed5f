// Video curation throughput (issue #16): examples/video.yaml on a bench corpus (synthetic
// 320x180 videos with a cut every 3.2 s and the real 1280x720 clip python3-imageio ships, when
// installed), at one and two threads: clips per second and each step's share of the busy time.
// Then the decode cost: winnow's decode for shot detection (every frame, scaled to 64 px wide)
// against a plain libavcodec decode of the same files in the same run (what `ffmpeg -i X -f
// null -` does; the ffmpeg command itself too when it is installed).
//   build/bench/video_bench [DIR]
#include <fmt/format.h>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
}

#include <chrono>
#include <filesystem>

#include "synthetic_video.h"
#include "media/video_codecs.h"
#include "pipeline/executor.h"
#include "pipeline/pipeline_config.h"
#include "stages/builtin_stages.h"
#include "bench/bench_source_dir.h"

namespace {

using SteadyClock = std::chrono::steady_clock;
namespace fs = std::filesystem;

double seconds_since(SteadyClock::time_point begin) {
  return std::chrono::duration<double>(SteadyClock::now() - begin).count();
}

// Every frame decoded by libavcodec, one thread, nothing else: the baseline.
int plain_decode(const std::string& path) {
  AVFormatContext* in = nullptr;
  if (avformat_open_input(&in, path.c_str(), nullptr, nullptr) < 0) return -1;
  avformat_find_stream_info(in, nullptr);
  const int stream = av_find_best_stream(in, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  const AVCodec* codec = avcodec_find_decoder(in->streams[stream]->codecpar->codec_id);
  AVCodecContext* dec = avcodec_alloc_context3(codec);
  avcodec_parameters_to_context(dec, in->streams[stream]->codecpar);
  dec->thread_count = 1;
  avcodec_open2(dec, codec, nullptr);
  AVPacket* packet = av_packet_alloc();
  AVFrame* frame = av_frame_alloc();
  int frames = 0;
  auto drain = [&] {
    while (avcodec_receive_frame(dec, frame) >= 0) ++frames;
  };
  while (av_read_frame(in, packet) >= 0) {
    if (packet->stream_index == stream) {
      avcodec_send_packet(dec, packet);
      drain();
    }
    av_packet_unref(packet);
  }
  avcodec_send_packet(dec, nullptr);
  drain();
  av_frame_free(&frame);
  av_packet_free(&packet);
  avcodec_free_context(&dec);
  avformat_close_input(&in);
  return frames;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace winnow;
  const std::string dir = argc > 1 ? argv[1] : "build/bench/video";
  const std::string corpus = dir + "/corpus";
  fs::create_directories(corpus);
  testing::VideoSpec spec;
  spec.width = 320;
  spec.height = 180;
  spec.frames = 500;  // 20 s
  spec.gop = 100;
  std::string error;
  for (int v = 0; v < 3; ++v) {
    std::vector<int> cuts;
    for (int c = 80 + v * 7; c < spec.frames; c += 80) cuts.push_back(c);
    const std::string path = fmt::format("{}/synthetic-{}.mp4", corpus, v);
    if (!fs::exists(path) &&
        !testing::write_video(path, spec, testing::shots_painter(cuts), &error)) {
      fmt::print(stderr, "video_bench: {}\n", error);
      return 1;
    }
  }
  const std::string real = "/usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4";
  if (fs::exists(real) && !fs::exists(corpus + "/cockatoo.mp4"))
    fs::copy_file(real, corpus + "/cockatoo.mp4");

  StageRegistry registry;
  register_builtin_stages(registry);
  auto config =
      PipelineConfig::load_file(std::string(winnow_bench_source_dir()) + "/examples/video.yaml",
                                registry);
  if (!config.is_ok()) {
    fmt::print(stderr, "video_bench: {}\n", config.status().message());
    return 1;
  }
  fmt::print("examples/video.yaml on {} ({} videos)\n", corpus,
             std::distance(fs::directory_iterator(corpus), fs::directory_iterator{}));
  for (int threads : {1, 2}) {
    RunOptions options;
    options.inputs = {corpus};
    options.output = fmt::format("{}/out-{}", dir, threads);
    options.overwrite = true;
    options.threads = threads;
    auto begin = SteadyClock::now();
    RunReport report = run_pipeline(*config, options);
    const double elapsed = seconds_since(begin);
    if (!report.status.is_ok()) {
      fmt::print(stderr, "video_bench: {}\n", report.status.message());
      return 1;
    }
    const auto clips = report.totals.levels["clip@1"];
    double busy = 0;
    for (const auto& step : report.steps) busy += step.busy_seconds;
    fmt::print(
        "  {} thread(s): {:.2f} s, {} clips made, {} kept: {:.2f} clips/s kept ({:.2f} made/s)\n",
        threads, elapsed, clips.created, clips.kept, clips.kept / elapsed, clips.created / elapsed);
    for (const auto& step : report.steps) {
      if (step.busy_seconds >= 0.005 * busy) {
        fmt::print("    {:<16} {:7.2f} s busy  {:5.1f}%\n", step.name, step.busy_seconds,
                   100 * step.busy_seconds / busy);
      }
    }
  }
  fmt::print("decode cost (every frame, one thread):\n");
  const bool ffmpeg = std::system("command -v ffmpeg > /dev/null 2>&1") == 0;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    const std::string path = entry.path().string();
    auto begin = SteadyClock::now();
    const int frames = plain_decode(path);
    const double plain = seconds_since(begin);
    begin = SteadyClock::now();
    FrameRequest request;
    request.width = 64;
    int seen = 0;
    Status status = decode_video_frames(path, request, [&](VideoFrame&) { return ++seen > 0; });
    const double ours = seconds_since(begin);
    std::string cli;
    if (ffmpeg) {
      begin = SteadyClock::now();
      std::system(("ffmpeg -v error -threads 1 -i " + path + " -f null - ").c_str());
      cli = fmt::format(", ffmpeg command {:.3f} s (ratio {:.2f})", seconds_since(begin),
                        ours / seconds_since(begin));
    }
    fmt::print(
        "  {:<18} {} frames: libavcodec {:.3f} s, winnow's split decode {:.3f} s: ratio "
        "{:.2f}{}{}\n",
        entry.path().filename().string(), frames, plain, ours, ours / plain, cli,
        status.is_ok() && seen == frames ? "" : " (frame counts differ)");
  }
  if (!ffmpeg) fmt::print("  (no ffmpeg command here: the baseline is libavcodec itself)\n");
  return 0;
}
