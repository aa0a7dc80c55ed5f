// winnow_video_transcode (media/video_codecs.h): every clip of a source in one decoder pass, each
// re-encoded from its first frame with libx264 into an MP4 in memory, plus a contact sheet; with
// copy_when_possible, a clip of an H.264 source that starts on a keyframe and ends before one
// (packet_scan.h) is remuxed instead: its packets copied, shifted to start at 0.
#include <algorithm>
#include <cmath>
#include <memory>

extern "C" {
#include <libavutil/opt.h>
}

#include "media/codecs/video/av_support.h"
#include "media/codecs/video/packet_scan.h"
#include "media/video_codecs.h"

namespace winnow {

namespace {

// An AVIOContext over a string, seekable: the MP4 muxer goes back to fill in sizes, so the
// clip is written whole in memory and never as a half-written file.
class MemoryOutput {
 public:
  MemoryOutput() {
    constexpr int kBufferSize = 1 << 16;
    auto* buffer = static_cast<unsigned char*>(av_malloc(kBufferSize));
    io_ = avio_alloc_context(buffer, kBufferSize, 1, this, nullptr, &write, &seek);
  }
  ~MemoryOutput() {
    if (io_) av_freep(&io_->buffer);
    avio_context_free(&io_);
  }
  MemoryOutput(const MemoryOutput&) = delete;
  MemoryOutput& operator=(const MemoryOutput&) = delete;

  AVIOContext* io() { return io_; }
  std::string take() { return std::move(bytes_); }

 private:
  static int write(void* self, uint8_t* data, int size) {
    auto* out = static_cast<MemoryOutput*>(self);
    size_t end = out->position_ + static_cast<size_t>(size);
    if (end > out->bytes_.size()) out->bytes_.resize(end);
    std::copy(data, data + size, out->bytes_.begin() + static_cast<std::ptrdiff_t>(out->position_));
    out->position_ = end;
    return size;
  }
  static int64_t seek(void* self, int64_t offset, int whence) {
    auto* out = static_cast<MemoryOutput*>(self);
    whence &= ~AVSEEK_FORCE;
    if (whence == AVSEEK_SIZE) return static_cast<int64_t>(out->bytes_.size());
    int64_t base = whence == SEEK_CUR   ? static_cast<int64_t>(out->position_)
                   : whence == SEEK_END ? static_cast<int64_t>(out->bytes_.size())
                                        : 0;
    if (base + offset < 0) return AVERROR(EINVAL);
    out->position_ = static_cast<size_t>(base + offset);
    return base + offset;
  }

  AVIOContext* io_ = nullptr;
  std::string bytes_;
  size_t position_ = 0;
};

// One clip being encoded: opened at its first frame, finished after its last.
class ClipEncoder {
 public:
  // `audio`: the source's audio stream to copy (null: none). `copy_from`: the source's video
  // stream, whose packets of the span make the clip (null: the clip is encoded).
  ClipEncoder(const ClipSpan& span, const EncodeSettings& settings, int64_t bit_rate,
              AVRational frame_rate, int64_t frame_ticks, const AVStream* audio,
              const AVStream* copy_from, EncodedClip& out)
      : span_(span),
        settings_(settings),
        bit_rate_(bit_rate),
        frame_rate_(frame_rate),
        frame_ticks_(frame_ticks),
        audio_in_(audio),
        copy_from_(copy_from),
        out_(out) {
    out_.copied = copy_from_ != nullptr;
  }

  // A video packet of the source (decode order) shown at source time `time`. A copied clip
  // takes those its span holds (can_copy made sure they start on a keyframe and need nothing
  // else), from the first of them on.
  void add_video(const AVPacket* packet, double time, double slack) {
    if (!copy_from_ || finished_) return;
    if (time < span_.begin_s - slack || time >= span_.end_s - slack) return;
    if (!started_ && !start_copy(packet)) {
      fail_and_finish();
      return;
    }
    av::PacketPtr copy(av_packet_clone(packet));
    copy->pts -= first_pts_;
    if (copy->dts != AV_NOPTS_VALUE) copy->dts -= first_pts_;
    copy->pos = -1;
    copy->stream_index = stream_->index;
    av_packet_rescale_ts(copy.get(), copy_from_->time_base, stream_->time_base);
    if (int w = av_interleaved_write_frame(muxer_.get(), copy.get()); w < 0) {
      fail_and_finish("cannot write the MP4: " + av::error_text(w));
    }
  }

  // An audio packet of the source at source time `time`. Packets the demuxer reads before the
  // clip's first frame is decoded wait until the MP4 is started; those before that frame or
  // at or after the span's end are left out, so the copy keeps the clip's span.
  void add_audio(const AVPacket* packet, double time) {
    if (!audio_in_ || finished_ || time >= span_.end_s) return;
    if (!started_) {
      if (time >= span_.begin_s - 1.0) pending_audio_.emplace_back(av_packet_clone(packet));
      return;
    }
    write_audio(packet);
  }

  bool started() const { return started_; }
  bool finished() const { return finished_; }

  // Adds `frame` (source time `time`); false when the clip fails (out_.error says why).
  bool add(const AVFrame* frame, double time, AVRational time_base) {
    if (copy_from_) return count_copied(frame, time);
    if (!started_ && !start(frame, time_base)) return fail_and_finish();
    av::FramePtr own(av_frame_alloc());
    own->format = AV_PIX_FMT_YUV420P;
    own->width = width_;
    own->height = height_;
    if (av_frame_get_buffer(own.get(), 0) < 0) return fail_and_finish("out of memory");
    if (!convert_) {
      convert_.reset(sws_getContext(
          frame->width, frame->height, static_cast<AVPixelFormat>(frame->format), width_, height_,
          AV_PIX_FMT_YUV420P, SWS_BICUBIC | SWS_BITEXACT, nullptr, nullptr, nullptr));
    }
    sws_scale(convert_.get(), frame->data, frame->linesize, 0, frame->height, own->data,
              own->linesize);
    own->pts = frame->best_effort_timestamp - first_pts_;
    // Each frame's duration reaches the MP4's last sample: without it the muxer gives the last
    // frame none, and its edit list leaves that frame out.
    own->pkt_duration = frame->pkt_duration > 0 ? frame->pkt_duration : frame_ticks_;
    if (own->pts <= last_pts_) own->pts = last_pts_ + 1;  // a repeated timestamp
    last_pts_ = own->pts;
    if (out_.frames == 0) out_.first_s = time;
    out_.last_s = time;
    ++out_.frames;
    add_to_preview(frame, time);
    if (avcodec_send_frame(encoder_.get(), own.get()) < 0) return fail_and_finish("encode failed");
    return write_packets();
  }

  // Flushes the encoder and closes the MP4.
  void finish() {
    if (finished_) return;
    finished_ = true;
    if (!started_) {
      out_.error = "no frame of the source lies in the span";
      return;
    }
    if (!copy_from_) {
      avcodec_send_frame(encoder_.get(), nullptr);
      if (!write_packets()) return;
    }
    if (int rc = av_write_trailer(muxer_.get()); rc < 0) {
      out_.error = "cannot finish the MP4: " + av::error_text(rc);
      return;
    }
    avio_flush(output_.io());
    out_.mp4 = output_.take();
    if (!preview_.empty())
      out_.preview_jpg = av::encode_jpeg(preview_.data(), preview_w_, preview_h_, 4);
  }

 private:
  // A copied clip's frames are decoded only to count them and for the contact sheet.
  bool count_copied(const AVFrame* frame, double time) {
    if (!started_) return fail_and_finish("its first frame has no packet");
    if (out_.frames == 0) out_.first_s = time;
    out_.last_s = time;
    ++out_.frames;
    add_to_preview(frame, time);
    return true;
  }

  // The MP4 of a copied clip: the source's stream parameters, its first packet's time as 0.
  bool start_copy(const AVPacket* packet) {
    started_ = true;
    first_pts_ = packet->pts;
    out_.width = copy_from_->codecpar->width;
    out_.height = copy_from_->codecpar->height;
    if (!open_muxer(copy_from_->codecpar, copy_from_->time_base)) return false;
    stream_->codecpar->codec_tag = 0;  // the MP4 muxer picks its own (avc1)
    return write_header();
  }

  // The MP4 with one video stream of `video`'s parameters and, when it can carry it, the
  // source's audio.
  bool open_muxer(const AVCodecParameters* video, AVRational time_base) {
    AVFormatContext* raw = nullptr;
    avformat_alloc_output_context2(&raw, nullptr, "mp4", nullptr);
    if (!raw) return set_error("no MP4 muxer");
    muxer_.reset(raw);
    muxer_->pb = output_.io();
    muxer_->flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_BITEXACT;
    stream_ = avformat_new_stream(raw, nullptr);
    avcodec_parameters_copy(stream_->codecpar, video);
    stream_->time_base = time_base;
    stream_->avg_frame_rate = frame_rate_;
    video_time_base_ = time_base;
    // Audio the MP4 muxer cannot carry (Vorbis, say) is left out rather than re-encoded.
    if (audio_in_ && avformat_query_codec(raw->oformat, audio_in_->codecpar->codec_id,
                                          FF_COMPLIANCE_NORMAL) == 1) {
      audio_out_ = avformat_new_stream(raw, nullptr);
      avcodec_parameters_copy(audio_out_->codecpar, audio_in_->codecpar);
      audio_out_->codecpar->codec_tag = 0;
      audio_out_->time_base = audio_in_->time_base;
    }
    return true;
  }

  // Starts the MP4 and writes the audio that waited for it.
  bool write_header() {
    if (int rc = avformat_write_header(muxer_.get(), nullptr); rc < 0) {
      return set_error("cannot start the MP4: " + av::error_text(rc));
    }
    out_.audio = audio_out_ != nullptr;
    for (av::PacketPtr& packet : pending_audio_) {
      if (packet) write_audio(packet.get());
    }
    pending_audio_.clear();
    return true;
  }

  bool start(const AVFrame* frame, AVRational time_base) {
    started_ = true;
    first_pts_ = frame->best_effort_timestamp;
    // libx264 wants even sizes for 4:2:0.
    width_ = frame->width & ~1;
    height_ = frame->height & ~1;
    out_.width = width_;
    out_.height = height_;
    const AVCodec* codec = avcodec_find_encoder_by_name(settings_.encoder.c_str());
    if (!codec) return set_error("no encoder named " + settings_.encoder);
    encoder_.reset(avcodec_alloc_context3(codec));
    encoder_->width = width_;
    encoder_->height = height_;
    encoder_->pix_fmt = AV_PIX_FMT_YUV420P;
    encoder_->time_base = time_base;
    encoder_->framerate = frame_rate_;
    encoder_->bit_rate = bit_rate_;
    encoder_->thread_count = settings_.threads;
    encoder_->flags |= AV_CODEC_FLAG_GLOBAL_HEADER | AV_CODEC_FLAG_BITEXACT;
    if (!settings_.preset.empty())
      av_opt_set(encoder_->priv_data, "preset", settings_.preset.c_str(), 0);
    if (settings_.encoder == "h264_nvenc") {
      // The anchor's NVENC settings: variable bit rate aiming at constant quality 21.
      av_opt_set(encoder_->priv_data, "rc", "vbr", 0);
      av_opt_set_int(encoder_->priv_data, "cq", 21, 0);
    }
    if (int rc = avcodec_open2(encoder_.get(), codec, nullptr); rc < 0) {
      return set_error("cannot open " + settings_.encoder + ": " + av::error_text(rc));
    }
    av::ParametersPtr parameters(avcodec_parameters_alloc());
    avcodec_parameters_from_context(parameters.get(), encoder_.get());
    return open_muxer(parameters.get(), time_base) && write_header();
  }

  // Shifted by the clip's first frame, so sound and picture keep their source alignment.
  void write_audio(const AVPacket* packet) {
    if (!audio_out_ || packet->pts == AV_NOPTS_VALUE) return;
    const int64_t offset = av_rescale_q(first_pts_, video_time_base_, audio_in_->time_base);
    if (packet->pts < offset) return;  // before the clip's first frame
    av::PacketPtr copy(av_packet_clone(packet));
    copy->pts -= offset;
    copy->dts = copy->dts == AV_NOPTS_VALUE ? copy->pts : copy->dts - offset;
    if (copy->dts < 0) copy->dts = 0;
    copy->pos = -1;
    copy->stream_index = audio_out_->index;
    av_packet_rescale_ts(copy.get(), audio_in_->time_base, audio_out_->time_base);
    // A packet the muxer refuses costs the clip that packet of sound, not the clip.
    av_interleaved_write_frame(muxer_.get(), copy.get());
  }

  bool write_packets() {
    av::PacketPtr packet(av_packet_alloc());
    for (;;) {
      int rc = avcodec_receive_packet(encoder_.get(), packet.get());
      if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return true;
      if (rc < 0) return fail_and_finish("encode failed: " + av::error_text(rc));
      packet->stream_index = stream_->index;
      av_packet_rescale_ts(packet.get(), encoder_->time_base, stream_->time_base);
      if (int w = av_interleaved_write_frame(muxer_.get(), packet.get()); w < 0) {
        return fail_and_finish("cannot write the MP4: " + av::error_text(w));
      }
    }
  }

  // The contact sheet: the first frame at or after each of preview_frames evenly spaced times.
  void add_to_preview(const AVFrame* frame, double time) {
    const int tiles = settings_.preview_frames;
    if (tiles <= 0 || next_tile_ >= tiles) return;
    const double step = (span_.end_s - span_.begin_s) / tiles;
    if (time + 1e-6 < span_.begin_s + step * next_tile_) return;
    if (preview_.empty()) {
      tile_w_ = std::max(2, settings_.preview_width & ~1);
      tile_h_ = std::max(
          2, static_cast<int>(std::lround(double(tile_w_) * frame->height / frame->width)) & ~1);
      preview_w_ = tile_w_ * tiles;
      preview_h_ = tile_h_;
      preview_.assign(size_t(preview_w_) * preview_h_ * 3, 0);
    }
    std::vector<uint8_t> tile(size_t(tile_w_) * tile_h_ * 3);
    if (tile_scaler_.scale(frame, tile_w_, tile_h_, tile.data())) {
      for (int y = 0; y < tile_h_; ++y) {
        std::copy_n(tile.begin() + std::ptrdiff_t(y) * tile_w_ * 3, tile_w_ * 3,
                    preview_.begin() + (std::ptrdiff_t(y) * preview_w_ + next_tile_ * tile_w_) * 3);
      }
    }
    ++next_tile_;
  }

  bool set_error(std::string why) {
    out_.error = std::move(why);
    return false;
  }
  bool fail_and_finish(std::string why = {}) {
    if (!why.empty()) out_.error = std::move(why);
    finished_ = true;
    out_.mp4.clear();
    return false;
  }

  ClipSpan span_;
  const EncodeSettings& settings_;
  int64_t bit_rate_;
  AVRational frame_rate_;
  int64_t frame_ticks_;  // one frame in the stream's time base
  const AVStream* audio_in_;
  const AVStream* copy_from_;
  EncodedClip& out_;
  AVStream* audio_out_ = nullptr;
  AVRational video_time_base_{1, 1};
  std::vector<av::PacketPtr> pending_audio_;
  bool started_ = false, finished_ = false;
  int width_ = 0, height_ = 0;
  int64_t first_pts_ = 0, last_pts_ = -1;
  av::CodecPtr encoder_;
  av::FormatPtr muxer_;
  AVStream* stream_ = nullptr;
  MemoryOutput output_;
  av::ScalePtr convert_;
  av::Scaler tile_scaler_;
  std::vector<uint8_t> preview_;
  int preview_w_ = 0, preview_h_ = 0, tile_w_ = 0, tile_h_ = 0, next_tile_ = 0;
};

}  // namespace

}  // namespace winnow

extern "C" __attribute__((visibility("default"))) bool winnow_video_transcode(
    const char* path, const std::vector<winnow::ClipSpan>* spans,
    const winnow::EncodeSettings* settings, std::vector<winnow::EncodedClip>* clips,
    std::string* error) {
  using namespace winnow;
  av_log_set_level(AV_LOG_FATAL);
  clips->assign(spans->size(), EncodedClip{});
  if (spans->empty()) return true;
  av::VideoInput in;
  if (!av::open_video(path, false, in, *error)) return false;
  int64_t bit_rate = settings->bit_rate;
  if (bit_rate <= 0) {
    bit_rate = in.video()->codecpar->bit_rate > 0 ? in.video()->codecpar->bit_rate
               : in.format->bit_rate > 0          ? in.format->bit_rate
                                                  : 4'000'000;
  }
  const AVStream* audio =
      settings->keep_audio && in.audio >= 0 ? in.format->streams[in.audio] : nullptr;
  std::vector<std::unique_ptr<ClipEncoder>> encoders;  // each owns a muxer's output: not movable
  double first = (*spans)[0].begin_s;
  AVRational frame_rate = in.video()->avg_frame_rate;
  if (frame_rate.num <= 0 || frame_rate.den <= 0) frame_rate = in.video()->r_frame_rate;
  const int64_t frame_ticks =
      std::max<int64_t>(1, av_rescale_q(1, av_inv_q(frame_rate), in.video()->time_base));
  const double slack = 0.5 / (in.fps() > 0 ? in.fps() : 25);
  // Which clips can be copied: a demux pass over the span of every clip, no decoding.
  std::vector<av::PacketTime> packets;
  if (settings->copy_when_possible && in.video()->codecpar->codec_id == AV_CODEC_ID_H264) {
    double from = (*spans)[0].begin_s, to = (*spans)[0].end_s;
    for (const ClipSpan& span : *spans) {
      from = std::min(from, span.begin_s);
      to = std::max(to, span.end_s);
    }
    std::string scan_error;
    if (!av::scan_packets(path, from - slack, to, packets, scan_error)) packets.clear();
  }
  for (size_t i = 0; i < spans->size(); ++i) {
    const bool copy = !packets.empty() && av::can_copy(packets, (*spans)[i], slack);
    encoders.push_back(std::make_unique<ClipEncoder>((*spans)[i], *settings, bit_rate, frame_rate,
                                                     frame_ticks, audio,
                                                     copy ? in.video() : nullptr, (*clips)[i]));
    first = std::min(first, (*spans)[i].begin_s);
  }
  const AVRational time_base = in.video()->time_base;
  const std::function<void(const AVPacket*)> on_audio = [&](const AVPacket* packet) {
    if (packet->pts == AV_NOPTS_VALUE) return;
    const double time = double(packet->pts) * av_q2d(audio->time_base) - in.start_s;
    for (auto& clip : encoders) clip->add_audio(packet, time);
  };
  const std::function<void(const AVPacket*)> on_video = [&](const AVPacket* packet) {
    if (packet->pts == AV_NOPTS_VALUE) return;
    const double time = in.seconds(packet->pts);
    for (auto& clip : encoders) clip->add_video(packet, time, slack);
  };
  bool ok = av::decode_from(
      in, first,
      [&](AVFrame* frame, double time) {
        bool open = false;
        for (size_t i = 0; i < encoders.size(); ++i) {
          ClipEncoder& clip = *encoders[i];
          if (clip.finished()) continue;
          const ClipSpan& span = (*spans)[i];
          if (time >= span.end_s - slack) {
            clip.finish();
            continue;
          }
          open = true;
          if (time >= span.begin_s - slack) clip.add(frame, time, time_base);
        }
        return open;  // every clip done: stop reading
      },
      *error, audio ? &on_audio : nullptr, packets.empty() ? nullptr : &on_video);
  for (auto& clip : encoders) clip->finish();
  return ok;
}
