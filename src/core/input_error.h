#pragma once
// The kinds of bad input a reader can meet. Names are stable: they appear in stats.json and
// errors/ records, and users grep for them.
#include <cstdint>
#include <string_view>

namespace winnow {

enum class InputError : uint8_t {
  kMalformedJson,
  kNotAnObject,
  kMissingText,
  kTextNotString,
  kInvalidId,
  kInvalidUtf8,
  kLineTooLong,
  kEmptyFile,
  kUnreadableFile,
  kCorruptCompressed,
  kTruncatedCompressed,
  // WARC input
  kCorruptWarc,
  kTruncatedWarc,
  kRecordTooLarge,
  // media files
  kUnknownMedia,
  // Parquet input: a file without Parquet's magic bytes, one cut short (no footer), one whose
  // metadata or pages DuckDB cannot read
  kNotParquet,
  kTruncatedParquet,
  kCorruptParquet,
  // WebDataset tars and images: a damaged tar (header or stream), one cut short inside a
  // member, an image whose header cannot be read, one whose pixels are over the limit (a
  // decompression bomb, refused before decoding), a sample with no image member
  kCorruptTar,
  kTruncatedTar,
  kUndecodableImage,
  kImageTooLarge,
  kSampleWithoutImage,
  // Video files (io/video_file_reader.h): a file libavformat opens but cannot read through (cut
  // short, damaged), one with no video stream, one whose codec no decoder here supports, one
  // whose frame rate is missing or zero
  kUndecodableVideo,
  kNoVideoStream,
  kUnsupportedCodec,
  kBadFrameRate,
  // WebDataset tars: a sample key met again after its sample ended, or two members of one
  // sample with the same name (each would give a second item with the same id and a tar with
  // two members of one name). Last, so stored batches keep the numbers of the others.
  kDuplicateKey,
  // XML input (Wikipedia dumps): the XML parser stopped (not well-formed, or cut short). After
  // the others, so stored batches keep their numbers.
  kMalformedXml,
  // Audio (io/audio_file_reader.h, io/audio_manifest_reader.h): a file libavformat cannot read
  // through (damaged, cut short), one with no audio stream, one that decodes to no samples, a
  // manifest line without an audio_filepath string. Last, so stored batches keep the numbers
  // of the others.
  kUndecodableAudio,
  kNoAudioStream,
  kEmptyAudio,
  kMissingAudioPath,
};
inline constexpr int kInputErrorCount = 33;

constexpr std::string_view input_error_name(InputError e) {
  switch (e) {
    case InputError::kMalformedJson:
      return "malformed_json";
    case InputError::kNotAnObject:
      return "not_an_object";
    case InputError::kMissingText:
      return "missing_text";
    case InputError::kTextNotString:
      return "text_not_string";
    case InputError::kInvalidId:
      return "invalid_id";
    case InputError::kInvalidUtf8:
      return "invalid_utf8";
    case InputError::kLineTooLong:
      return "line_too_long";
    case InputError::kEmptyFile:
      return "empty_file";
    case InputError::kUnreadableFile:
      return "unreadable_file";
    case InputError::kCorruptCompressed:
      return "corrupt_compressed";
    case InputError::kTruncatedCompressed:
      return "truncated_compressed";
    case InputError::kCorruptWarc:
      return "corrupt_warc";
    case InputError::kTruncatedWarc:
      return "truncated_warc";
    case InputError::kRecordTooLarge:
      return "record_too_large";
    case InputError::kUnknownMedia:
      return "unknown_media";
    case InputError::kNotParquet:
      return "not_parquet";
    case InputError::kTruncatedParquet:
      return "truncated_parquet";
    case InputError::kCorruptParquet:
      return "corrupt_parquet";
    case InputError::kCorruptTar:
      return "corrupt_tar";
    case InputError::kTruncatedTar:
      return "truncated_tar";
    case InputError::kUndecodableImage:
      return "undecodable_image";
    case InputError::kImageTooLarge:
      return "image_too_large";
    case InputError::kSampleWithoutImage:
      return "sample_without_image";
    case InputError::kUndecodableVideo:
      return "undecodable_video";
    case InputError::kNoVideoStream:
      return "no_video_stream";
    case InputError::kUnsupportedCodec:
      return "unsupported_codec";
    case InputError::kBadFrameRate:
      return "bad_frame_rate";
    case InputError::kDuplicateKey:
      return "duplicate_key";
    case InputError::kMalformedXml:
      return "malformed_xml";
    case InputError::kUndecodableAudio:
      return "undecodable_audio";
    case InputError::kNoAudioStream:
      return "no_audio_stream";
    case InputError::kEmptyAudio:
      return "empty_audio";
    case InputError::kMissingAudioPath:
      return "missing_audio_filepath";
  }
  return "unknown";
}

}  // namespace winnow
