#include "synthetic_video.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>

namespace winnow::testing {

namespace {

std::string av_text(int rc) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(rc, text, sizeof text);
  return text;
}

}  // namespace

bool write_video(const std::string& path, const VideoSpec& spec, const FramePainter& paint,
                 std::string* error) {
  auto fail = [&](std::string why) {
    *error = path + ": " + why;
    return false;
  };
  av_log_set_level(AV_LOG_ERROR);  // libx264's statistics are not test output
  const AVCodec* codec = avcodec_find_encoder_by_name(spec.encoder.c_str());
  if (!codec) return fail("no encoder " + spec.encoder);
  AVFormatContext* out = nullptr;
  if (avformat_alloc_output_context2(&out, nullptr, nullptr, path.c_str()) < 0 || !out) {
    return fail("no muxer for this name");
  }
  std::unique_ptr<AVFormatContext, void (*)(AVFormatContext*)> muxer(out, [](AVFormatContext* f) {
    if (f->pb) avio_closep(&f->pb);
    avformat_free_context(f);
  });
  AVCodecContext* raw = avcodec_alloc_context3(codec);
  std::unique_ptr<AVCodecContext, void (*)(AVCodecContext*)> enc(
      raw, [](AVCodecContext* c) { avcodec_free_context(&c); });
  const bool jpeg = spec.encoder == "mjpeg";
  enc->width = spec.width;
  enc->height = spec.height;
  enc->pix_fmt = jpeg ? AV_PIX_FMT_YUVJ420P : AV_PIX_FMT_YUV420P;
  enc->time_base = {1, spec.fps};
  enc->framerate = {spec.fps, 1};
  enc->gop_size = spec.gop;
  enc->thread_count = 1;
  enc->bit_rate = 1'000'000;
  if (out->oformat->flags & AVFMT_GLOBALHEADER) enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if (spec.encoder == "libx264") av_opt_set(enc->priv_data, "preset", "veryfast", 0);
  if (jpeg) {  // a fine quantiser: the detail stays, as it does in the H.264 copies
    enc->flags |= AV_CODEC_FLAG_QSCALE;
    enc->global_quality = FF_QP2LAMBDA * 2;
  }
  if (int rc = avcodec_open2(enc.get(), codec, nullptr); rc < 0) return fail(av_text(rc));
  AVStream* stream = avformat_new_stream(out, nullptr);
  avcodec_parameters_from_context(stream->codecpar, enc.get());
  stream->time_base = enc->time_base;
  stream->avg_frame_rate = {spec.fps, 1};
  // The audio track: AAC frames of a sine, each written before the video frame that follows it.
  std::unique_ptr<AVCodecContext, void (*)(AVCodecContext*)> audio_enc(
      nullptr, [](AVCodecContext* c) { avcodec_free_context(&c); });
  AVStream* audio_stream = nullptr;
  if (spec.audio_hz > 0) {
    const AVCodec* aac = avcodec_find_encoder(AV_CODEC_ID_AAC);
    if (!aac) return fail("no AAC encoder");
    audio_enc.reset(avcodec_alloc_context3(aac));
    audio_enc->sample_fmt = AV_SAMPLE_FMT_FLTP;
    audio_enc->sample_rate = 48000;
    av_channel_layout_default(&audio_enc->ch_layout, 1);
    audio_enc->bit_rate = 64000;
    audio_enc->time_base = {1, 48000};
    if (out->oformat->flags & AVFMT_GLOBALHEADER) {
      audio_enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    }
    if (int rc = avcodec_open2(audio_enc.get(), aac, nullptr); rc < 0) return fail(av_text(rc));
    audio_stream = avformat_new_stream(out, nullptr);
    avcodec_parameters_from_context(audio_stream->codecpar, audio_enc.get());
    audio_stream->time_base = audio_enc->time_base;
  }
  if (int rc = avio_open(&out->pb, path.c_str(), AVIO_FLAG_WRITE); rc < 0) return fail(av_text(rc));
  if (int rc = avformat_write_header(out, nullptr); rc < 0) return fail(av_text(rc));
  AVFrame* frame = av_frame_alloc();
  AVPacket* packet = av_packet_alloc();
  frame->format = enc->pix_fmt;
  frame->width = spec.width;
  frame->height = spec.height;
  av_frame_get_buffer(frame, 0);
  SwsContext* sws =
      sws_getContext(spec.width, spec.height, AV_PIX_FMT_BGR24, spec.width, spec.height,
                     enc->pix_fmt, SWS_BICUBIC, nullptr, nullptr, nullptr);
  std::vector<uint8_t> bgr(size_t(spec.width) * spec.height * 3);
  bool ok = true;
  auto drain = [&]() {
    while (avcodec_receive_packet(enc.get(), packet) >= 0) {
      av_packet_rescale_ts(packet, enc->time_base, stream->time_base);
      packet->stream_index = stream->index;
      if (av_interleaved_write_frame(out, packet) < 0) ok = false;
    }
  };
  int64_t samples = 0;  // audio samples written so far
  const int64_t total_samples = int64_t(spec.frames) * 48000 / spec.fps;
  AVFrame* sound = av_frame_alloc();
  auto drain_audio = [&]() {
    while (avcodec_receive_packet(audio_enc.get(), packet) >= 0) {
      av_packet_rescale_ts(packet, audio_enc->time_base, audio_stream->time_base);
      packet->stream_index = audio_stream->index;
      if (av_interleaved_write_frame(out, packet) < 0) ok = false;
    }
  };
  // Audio up to video frame `until` (exclusive), in the encoder's frame size.
  auto write_audio = [&](int64_t until) {
    if (!audio_enc) return;
    const int64_t up_to = std::min(total_samples, until * 48000 / spec.fps);
    while (ok && samples < up_to) {
      const int n = int(std::min<int64_t>(audio_enc->frame_size, total_samples - samples));
      sound->format = AV_SAMPLE_FMT_FLTP;
      sound->sample_rate = 48000;
      av_channel_layout_default(&sound->ch_layout, 1);
      sound->nb_samples = n;
      av_frame_get_buffer(sound, 0);
      auto* data = reinterpret_cast<float*>(sound->data[0]);
      for (int k = 0; k < n; ++k) {
        data[k] = 0.5f * float(std::sin(2 * M_PI * spec.audio_hz * double(samples + k) / 48000));
      }
      sound->pts = samples;
      samples += n;
      if (avcodec_send_frame(audio_enc.get(), sound) < 0) ok = false;
      av_frame_unref(sound);
      drain_audio();
    }
  };
  for (int i = 0; i < spec.frames && ok; ++i) {
    write_audio(i + 1);
    paint(i, spec.width, spec.height, bgr.data());
    av_frame_make_writable(frame);
    const uint8_t* planes[1] = {bgr.data()};
    int strides[1] = {spec.width * 3};
    sws_scale(sws, planes, strides, 0, spec.height, frame->data, frame->linesize);
    frame->pts = i;
    frame->quality = enc->global_quality;
    if (avcodec_send_frame(enc.get(), frame) < 0) ok = false;
    drain();
  }
  avcodec_send_frame(enc.get(), nullptr);
  drain();
  if (audio_enc) {
    write_audio(spec.frames);
    avcodec_send_frame(audio_enc.get(), nullptr);
    drain_audio();
  }
  av_frame_free(&sound);
  sws_freeContext(sws);
  av_frame_free(&frame);
  av_packet_free(&packet);
  if (!ok) return fail("encoding failed");
  if (int rc = av_write_trailer(out); rc < 0) return fail(av_text(rc));
  return true;
}

void paint_scene(int scene, int index, int width, int height, uint8_t* bgr) {
  // Palettes far apart in hue and value; odd scenes are dark, even ones bright.
  static const uint8_t kBase[8][3] = {{230, 40, 30},  {20, 30, 200}, {40, 220, 60},  {200, 20, 210},
                                      {30, 210, 230}, {120, 10, 20}, {240, 240, 40}, {10, 90, 140}};
  const uint8_t* base = kBase[scene % 8];
  // A square of half the height going back and forth two pixels a frame (no jump: a jump
  // would be a cut of its own).
  const int square = std::max(4, height / 2);
  const int travel = std::max(1, width - square);
  const int along = (2 * index + scene * 13) % (2 * travel);
  const int sx = along < travel ? along : 2 * travel - along;
  const int sy = (scene * 7) % std::max(1, height - square);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      uint8_t* p = bgr + (size_t(y) * width + x) * 3;
      const int shade = ((scene % 2 ? x : width - x) * 40) / width;
      for (int c = 0; c < 3; ++c)
        p[c] = static_cast<uint8_t>(std::clamp(base[c] - 20 + shade, 0, 255));
      if (x >= sx && x < sx + square && y >= sy && y < sy + square) {
        p[0] = 255 - base[0];
        p[1] = 255 - base[1];
        p[2] = 255 - base[2];
      }
    }
  }
}

void paint_texture(double speed, int index, int width, int height, uint8_t* bgr) {
  const double shift = speed * index;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const double u = x - shift, v = y;
      // Broad shapes plus fine detail (what a blur takes away).
      const double t = std::sin(u * 0.21) * std::cos(v * 0.17) +
                       0.6 * std::sin((u + 2 * v) * 0.09) + 0.4 * std::cos((u * 0.5 - v) * 0.31) +
                       0.5 * std::sin(u * 1.9) * std::sin(v * 1.7);
      const auto level = static_cast<uint8_t>(std::clamp(128 + 60 * t, 0.0, 255.0));
      uint8_t* p = bgr + (size_t(y) * width + x) * 3;
      // Bright where the texture is high in every channel: the grey (luma) image shows it.
      p[0] = level;
      p[1] = static_cast<uint8_t>(level * 3 / 4 + 30);
      p[2] = static_cast<uint8_t>(level / 2 + 60);
    }
  }
}

void paint_noise(int index, int width, int height, uint8_t* bgr) {
  std::mt19937 random(static_cast<uint32_t>(index * 7919 + 1));
  for (size_t i = 0; i < size_t(width) * height * 3; ++i) bgr[i] = static_cast<uint8_t>(random());
}

void box_blur(int radius, int width, int height, uint8_t* bgr) {
  std::vector<uint8_t> source(bgr, bgr + size_t(width) * height * 3);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      for (int c = 0; c < 3; ++c) {
        int sum = 0, n = 0;
        for (int dy = -radius; dy <= radius; ++dy) {
          for (int dx = -radius; dx <= radius; ++dx) {
            const int yy = std::clamp(y + dy, 0, height - 1), xx = std::clamp(x + dx, 0, width - 1);
            sum += source[(size_t(yy) * width + xx) * 3 + c];
            ++n;
          }
        }
        bgr[(size_t(y) * width + x) * 3 + c] = static_cast<uint8_t>(sum / n);
      }
    }
  }
}

FramePainter shots_painter(std::vector<int> cuts) {
  return [cuts = std::move(cuts)](int index, int width, int height, uint8_t* bgr) {
    int scene = 0;
    while (scene < int(cuts.size()) && index >= cuts[size_t(scene)]) ++scene;
    paint_scene(scene, index, width, height, bgr);
  };
}

bool write_video_corpus(const std::string& dir, std::string* error) {
  VideoSpec spec;
  spec.frames = 320;
  if (!write_video(dir + "/shots.mp4", spec, shots_painter({80, 160, 240}), error)) return false;
  spec.frames = 100;
  auto pan = [](int i, int w, int h, uint8_t* p) { paint_texture(1, i, w, h, p); };
  if (!write_video(dir + "/pan.mkv", spec, pan, error)) return false;
  auto still = [](int i, int w, int h, uint8_t* p) { paint_texture(0, i, w, h, p); };
  if (!write_video(dir + "/still.mp4", spec, still, error)) return false;
  auto blurry = [](int i, int w, int h, uint8_t* p) {
    paint_texture(1, i, w, h, p);
    box_blur(5, w, h, p);
  };
  if (!write_video(dir + "/blurry.mp4", spec, blurry, error)) return false;
  VideoSpec mjpeg = spec;
  mjpeg.encoder = "mjpeg";
  if (!write_video(dir + "/flow.avi", mjpeg, pan, error)) return false;
  if (!write_video(dir + "/cut.mp4", spec, pan, error)) return false;
  std::FILE* f = std::fopen((dir + "/cut.mp4").c_str(), "r+b");
  if (!f || std::fseek(f, 0, SEEK_END) != 0) return false;
  const long size = std::ftell(f);
  std::fclose(f);
  if (::truncate((dir + "/cut.mp4").c_str(), size / 2) != 0) return false;
  f = std::fopen((dir + "/notes.mp4").c_str(), "wb");
  if (!f) return false;
  std::fputs("not a video: a text file with a video's name\n", f);
  std::fclose(f);
  return true;
}

ReadBack read_video(const std::string& path) {
  ReadBack r;
  AVFormatContext* raw = nullptr;
  if (int rc = avformat_open_input(&raw, path.c_str(), nullptr, nullptr); rc < 0) {
    r.error = av_text(rc);
    return r;
  }
  std::unique_ptr<AVFormatContext, void (*)(AVFormatContext*)> in(
      raw, [](AVFormatContext* f) { avformat_close_input(&f); });
  if (avformat_find_stream_info(raw, nullptr) < 0) {
    r.error = "no stream info";
    return r;
  }
  const int index = av_find_best_stream(raw, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  if (index < 0) {
    r.error = "no video stream";
    return r;
  }
  AVStream* stream = raw->streams[index];
  const AVCodec* codec = avcodec_find_decoder(stream->codecpar->codec_id);
  std::unique_ptr<AVCodecContext, void (*)(AVCodecContext*)> dec(
      avcodec_alloc_context3(codec), [](AVCodecContext* c) { avcodec_free_context(&c); });
  avcodec_parameters_to_context(dec.get(), stream->codecpar);
  if (avcodec_open2(dec.get(), codec, nullptr) < 0) {
    r.error = "cannot open decoder";
    return r;
  }
  r.codec = codec->name;
  r.width = stream->codecpar->width;
  r.height = stream->codecpar->height;
  r.fps = av_q2d(stream->avg_frame_rate);
  const double start = stream->start_time == AV_NOPTS_VALUE
                           ? 0
                           : double(stream->start_time) * av_q2d(stream->time_base);
  AVPacket* packet = av_packet_alloc();
  AVFrame* frame = av_frame_alloc();
  auto drain = [&]() {
    while (avcodec_receive_frame(dec.get(), frame) >= 0) {
      ++r.frames;
      r.times.push_back(double(frame->best_effort_timestamp) * av_q2d(stream->time_base) - start);
      av_frame_unref(frame);
    }
  };
  const int audio = av_find_best_stream(raw, AVMEDIA_TYPE_AUDIO, -1, -1, nullptr, 0);
  if (audio >= 0) r.audio_codec = avcodec_get_name(raw->streams[audio]->codecpar->codec_id);
  while (av_read_frame(raw, packet) >= 0) {
    if (packet->stream_index == index) {
      avcodec_send_packet(dec.get(), packet);
      drain();
    } else if (packet->stream_index == audio) {
      const double tb = av_q2d(raw->streams[audio]->time_base);
      if (r.audio_packets++ == 0) r.audio_first_s = double(packet->pts) * tb;
      r.audio_seconds += double(packet->duration) * tb;
    }
    av_packet_unref(packet);
  }
  avcodec_send_packet(dec.get(), nullptr);
  drain();
  av_packet_free(&packet);
  av_frame_free(&frame);
  r.ok = true;
  return r;
}

}  // namespace winnow::testing
