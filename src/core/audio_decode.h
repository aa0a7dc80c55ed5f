#pragma once
// Audio decode through libavformat, libavcodec and libswresample (in libwinnow_video_codecs.so,
// the FFmpeg module, loaded on the first call: core/codec_module.h). Readers decode each audio
// file whole to refuse what cannot be read through (empty, damaged, cut short, no samples)
// before any stage sees it, and hand the samples on in the batch (core/decoded_audio_cache.h)
// so that stages do not decode again. Safe to call from several threads at once.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/input_error.h"

namespace winnow {

// Decoded audio as 32-bit floats in [-1, 1], channels interleaved.
struct AudioSamples {
  std::vector<float> samples;
  int sample_rate = 0;
  int channels = 0;
  std::string codec;      // the source's codec ("pcm_s16le", "flac", "mp3", "opus", ...)
  std::string container;  // libavformat's name for the source's container ("wav", "ogg", ...)

  int64_t frames() const { return channels > 0 ? int64_t(samples.size()) / channels : 0; }
  double duration_s() const { return sample_rate > 0 ? double(frames()) / sample_rate : 0; }
};

struct AudioRequest {
  int sample_rate = 0;  // resampled to this rate (libswresample); 0: the source's
  bool mono = false;    // channels averaged into one
};

// The samples, or why there are none: `error` and a message naming neither the file (the
// caller does) nor FFmpeg's internals only.
struct AudioDecode {
  std::optional<AudioSamples> audio;
  InputError error = InputError::kUndecodableAudio;
  std::string message;
};

// Decodes the best audio stream of `path` whole. Refused: a file libavformat cannot open (not
// audio: unknown_media; damaged: undecodable_audio), no audio stream (no_audio_stream), a
// decode error, fewer samples than the container declares (cut short: undecodable_audio), no
// samples at all (empty_audio).
AudioDecode decode_audio_file(const std::string& path, const AudioRequest& request);
// The same for an audio file held in memory (a FLAC a stage made).
AudioDecode decode_audio_bytes(std::string_view bytes, const AudioRequest& request);

// Samples already decoded, resampled by libswresample as a decode with `request` would
// (float samples in, float out) and averaged to mono when asked; an error names the reason.
AudioDecode resample_audio(const AudioSamples& audio, const AudioRequest& request);

}  // namespace winnow
