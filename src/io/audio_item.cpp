#include "io/audio_item.h"

#include <fmt/format.h>

#include <filesystem>

#include "core/ascii.h"
#include "core/decoded_audio_cache.h"

namespace winnow {

std::string audio_media_type(std::string_view path) {
  if (ascii_iends_with(path, ".flac")) return "audio/flac";
  if (ascii_iends_with(path, ".mp3")) return "audio/mpeg";
  if (ascii_iends_with(path, ".ogg")) return "audio/ogg";
  if (ascii_iends_with(path, ".opus")) return "audio/opus";
  if (ascii_iends_with(path, ".m4a")) return "audio/mp4";
  return "audio/wav";
}

std::optional<AudioSamples> read_audio_file(DocBatch& batch, const std::string& path,
                                            const std::string& where, uint64_t line,
                                            uint64_t& bytes_read) {
  auto error = [&](InputError kind, const std::string& message) {
    batch.errors.push_back({kind, line, 0, fmt::format("{}{}: {}", where, path, message), ""});
    return std::nullopt;
  };
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) return error(InputError::kUnreadableFile, "cannot read: " + ec.message());
  if (size == 0) return error(InputError::kEmptyFile, "empty file");
  bytes_read += size;
  batch.raw_input_bytes += size;
  AudioDecode decoded = decode_audio_file(path, {});
  if (!decoded.audio) return error(decoded.error, decoded.message);
  return std::move(decoded.audio);
}

size_t add_audio_item(DocBatch& batch, DocKey key, std::string_view id, const std::string& path,
                      uint64_t line, AudioSamples audio, std::string_view text) {
  batch.add_item(key, ItemKind::kAudio, id, Payload::of_file(path, audio_media_type(path)), line,
                 text);
  const size_t row = batch.size() - 1;
  batch.annotation("duration", AnnotationType::kFloat).set_float(row, audio.duration_s());
  batch.annotation("sample_rate", AnnotationType::kInt).set_int(row, audio.sample_rate);
  batch.annotation("channels", AnnotationType::kInt).set_int(row, audio.channels);
  batch.annotation("audio_codec", AnnotationType::kString).set_string(row, audio.codec);
  batch.cache<DecodedAudioCache>().put(key, std::move(audio));
  return row;
}

}  // namespace winnow
