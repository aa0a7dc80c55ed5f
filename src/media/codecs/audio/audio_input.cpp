#include "media/codecs/audio/audio_input.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace winnow::av {

namespace {

constexpr int kIoBufferBytes = 64 << 10;

int read_memory(void* opaque, uint8_t* buffer, int size) {
  auto* file = static_cast<MemoryFile*>(opaque);
  const size_t n = std::min<size_t>(size, file->size - file->position);
  if (n == 0) return AVERROR_EOF;
  std::memcpy(buffer, file->data + file->position, n);
  file->position += n;
  return static_cast<int>(n);
}

int64_t seek_memory(void* opaque, int64_t offset, int whence) {
  auto* file = static_cast<MemoryFile*>(opaque);
  if (whence & AVSEEK_SIZE) return static_cast<int64_t>(file->size);
  int64_t base = (whence & 3) == SEEK_CUR ? int64_t(file->position)
                 : (whence & 3) == SEEK_END ? int64_t(file->size)
                                            : 0;
  const int64_t target = base + offset;
  if (target < 0 || target > int64_t(file->size)) return AVERROR(EINVAL);
  file->position = static_cast<size_t>(target);
  return target;
}

// Whether the first bytes look like a container libavformat knows: one it names but cannot
// open is damaged audio, one it cannot name is no audio at all.
bool looks_like_container(const char* path, std::string_view bytes) {
  unsigned char head[4096 + AVPROBE_PADDING_SIZE] = {};
  size_t n = 0;
  if (path) {
    std::FILE* f = std::fopen(path, "rb");
    if (!f) return false;
    n = std::fread(head, 1, 4096, f);
    std::fclose(f);
  } else {
    n = std::min<size_t>(bytes.size(), 4096);
    std::memcpy(head, bytes.data(), n);
  }
  AVProbeData probe{"", head, static_cast<int>(n), nullptr};  // by content alone
  int score = 0;
  return av_probe_input_format2(&probe, 1, &score) != nullptr && score > AVPROBE_SCORE_MAX / 4;
}

bool open_format(const char* path, std::string_view bytes, AudioInput& in, std::string& error) {
  AVFormatContext* raw = avformat_alloc_context();
  if (!path) {
    in.memory = {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), 0};
    auto* buffer = static_cast<uint8_t*>(av_malloc(kIoBufferBytes));
    in.io.reset(avio_alloc_context(buffer, kIoBufferBytes, 0, &in.memory, read_memory, nullptr,
                                   seek_memory));
    raw->pb = in.io.get();
  }
  if (int rc = avformat_open_input(&raw, path ? path : "", nullptr, nullptr); rc < 0) {
    error = "cannot open: " + error_text(rc);
    return false;
  }
  in.format.reset(raw);
  if (int rc = avformat_find_stream_info(raw, nullptr); rc < 0) {
    error = "cannot read its streams: " + error_text(rc);
    return false;
  }
  return true;
}

}  // namespace

void IoFree::operator()(AVIOContext* io) const {
  av_freep(&io->buffer);
  avio_context_free(&io);
}

double AudioInput::declared_s() const {
  if (format->duration_estimation_method == AVFMT_DURATION_FROM_BITRATE) return 0;
  const AVStream* s = audio();
  if (s->duration != AV_NOPTS_VALUE && s->duration > 0) {
    return static_cast<double>(s->duration) * av_q2d(s->time_base);
  }
  return format->duration > 0 ? static_cast<double>(format->duration) / AV_TIME_BASE : 0;
}

bool open_audio(const char* path, std::string_view bytes, AudioInput& in, InputError& kind,
                std::string& error) {
  if (!open_format(path, bytes, in, error)) {
    kind = looks_like_container(path, bytes) ? InputError::kUndecodableAudio
                                             : InputError::kUnknownMedia;
    if (kind == InputError::kUnknownMedia) error = "not audio libavformat can read: " + error;
    return false;
  }
  in.stream = av_find_best_stream(in.format.get(), AVMEDIA_TYPE_AUDIO, -1, -1, nullptr, 0);
  if (in.stream < 0) {
    kind = InputError::kNoAudioStream;
    error = "the file has no audio stream";
    return false;
  }
  const AVCodec* codec = avcodec_find_decoder(in.audio()->codecpar->codec_id);
  kind = InputError::kUnsupportedCodec;
  if (!codec) {
    error = std::string("no decoder for its audio codec (") +
            avcodec_get_name(in.audio()->codecpar->codec_id) + ")";
    return false;
  }
  in.decoder.reset(avcodec_alloc_context3(codec));
  avcodec_parameters_to_context(in.decoder.get(), in.audio()->codecpar);
  in.decoder->thread_count = 1;  // the executor's workers are the parallelism
  in.decoder->pkt_timebase = in.audio()->time_base;
  if (int rc = avcodec_open2(in.decoder.get(), codec, nullptr); rc < 0) {
    error = "cannot open its decoder: " + error_text(rc);
    return false;
  }
  return true;
}

void average_channels(AudioSamples& audio) {
  if (audio.channels <= 1) return;
  const int64_t frames = audio.frames();
  for (int64_t f = 0; f < frames; ++f) {
    float sum = 0;
    for (int c = 0; c < audio.channels; ++c) sum += audio.samples[f * audio.channels + c];
    audio.samples[f] = sum / float(audio.channels);
  }
  audio.samples.resize(frames);
  audio.channels = 1;
}

}  // namespace winnow::av
