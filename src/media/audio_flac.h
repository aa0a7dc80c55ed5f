#pragma once
// Audio as FLAC bytes, through the FFmpeg module (libwinnow_video_codecs.so, loaded on the first
// call): what `resample` makes of an item's audio, written by the shard writer as the item's
// file (16-bit samples, bit-exact: no encoder version in the tags).
#include <string>

#include "core/audio_decode.h"
#include "core/status.h"

namespace winnow {

Result<std::string> encode_flac(const AudioSamples& audio);

}  // namespace winnow
