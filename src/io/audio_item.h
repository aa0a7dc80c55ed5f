#pragma once
// What the audio readers share (io/audio_file_reader.h, io/audio_manifest_reader.h): an audio
// file decoded whole (core/audio_decode.h), refused as an error record naming where it was met
// when it cannot be read through, else added to a batch as one audio item.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/audio_decode.h"
#include "core/doc_batch.h"

namespace winnow {

// "audio/flac", "audio/mpeg", ... from a file's name ("audio/wav" when it is none of them).
std::string audio_media_type(std::string_view path);

// Decodes `path` at its own rate and channels. On failure, an error record is added to
// `batch` (line `line`; its message starts with `where`, then the path) and nullopt returned.
// Counts the file's bytes into `bytes_read`.
std::optional<AudioSamples> read_audio_file(DocBatch& batch, const std::string& path,
                                            const std::string& where, uint64_t line,
                                            uint64_t& bytes_read);

// Adds an audio item: a reference to `path`, its decoded facts as fields (duration in seconds,
// sample_rate, channels, audio_codec) and its samples in the batch's DecodedAudioCache, so
// stages do not decode it again. `text` (a manifest's transcript) is the item's text, which the
// text filters read. Returns its row.
size_t add_audio_item(DocBatch& batch, DocKey key, std::string_view id, const std::string& path,
                      uint64_t line, AudioSamples audio, std::string_view text = {});

}  // namespace winnow
