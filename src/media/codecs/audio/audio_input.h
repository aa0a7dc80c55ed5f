#pragma once
// What the FFmpeg module's audio entry points share: an input opened on its best audio stream
// with a decoder, from a file or from bytes in memory. Only the module's .cpp files include
// this (and so FFmpeg's headers).
#include <memory>
#include <string>
#include <string_view>

#include "core/audio_decode.h"
#include "core/input_error.h"
#include "media/codecs/video/av_support.h"

namespace winnow::av {

// Reads a byte range in memory as libavformat reads a file.
struct MemoryFile {
  const uint8_t* data = nullptr;
  size_t size = 0;
  size_t position = 0;
};

struct IoFree {
  void operator()(AVIOContext* io) const;
};
using IoPtr = std::unique_ptr<AVIOContext, IoFree>;

struct AudioInput {
  // Declared before `format`, which reads through it, so that it is freed after it.
  MemoryFile memory;
  IoPtr io;
  FormatPtr format;
  CodecPtr decoder;
  int stream = -1;

  AVStream* audio() const { return format->streams[stream]; }
  // What the container says the stream lasts (0: unknown, or a guess from the bit rate).
  double declared_s() const;
};

// Opens `path` (or `bytes` when path is null) on its best audio stream with its decoder open.
// False with `kind` and `error` set when it cannot.
bool open_audio(const char* path, std::string_view bytes, AudioInput& in, InputError& kind,
                std::string& error);

// The channels averaged into one, in place (NeMo's mono conversion takes their mean).
void average_channels(AudioSamples& audio);

}  // namespace winnow::av
