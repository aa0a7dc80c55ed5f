#include "io/input_reader.h"

namespace winnow {

std::optional<InputFormat> input_format_from_name(std::string_view name) {
  if (name == "auto") return InputFormat::kAuto;
  if (name == "jsonl") return InputFormat::kJsonl;
  if (name == "warc") return InputFormat::kWarc;
  if (name == "images") return InputFormat::kImages;
  if (name == "parquet") return InputFormat::kParquet;
  if (name == "webdataset") return InputFormat::kWebdataset;
  if (name == "videos") return InputFormat::kVideos;
  if (name == "wikipedia") return InputFormat::kWikipedia;
  if (name == "arxiv") return InputFormat::kArxiv;
  if (name == "audio") return InputFormat::kAudio;
  if (name == "audio_manifest") return InputFormat::kAudioManifest;
  return std::nullopt;
}

std::string_view input_format_name(InputFormat format) {
  switch (format) {
    case InputFormat::kAuto:
      return "auto";
    case InputFormat::kJsonl:
      return "jsonl";
    case InputFormat::kWarc:
      return "warc";
    case InputFormat::kImages:
      return "images";
    case InputFormat::kParquet:
      return "parquet";
    case InputFormat::kWebdataset:
      return "webdataset";
    case InputFormat::kVideos:
      return "videos";
    case InputFormat::kWikipedia:
      return "wikipedia";
    case InputFormat::kArxiv:
      return "arxiv";
    case InputFormat::kAudio:
      return "audio";
    case InputFormat::kAudioManifest:
      return "audio_manifest";
    case InputFormat::kStored:
      return "stored";  // batches a pass stored for the next; never written in a pipeline
  }
  return "?";
}

ItemKind input_format_kind(InputFormat format) {
  if (format == InputFormat::kVideos) return ItemKind::kVideo;
  if (format == InputFormat::kAudio || format == InputFormat::kAudioManifest) {
    return ItemKind::kAudio;
  }
  return format == InputFormat::kImages || format == InputFormat::kWebdataset ? ItemKind::kImage
                                                                              : ItemKind::kDocument;
}

InputFormat InputReader::format_of(const std::string& path, InputFormat configured) {
  if (configured != InputFormat::kAuto) return configured;
  if (WarcReader::is_warc_path(path)) return InputFormat::kWarc;
  if (WikipediaReader::is_wikipedia_path(path)) return InputFormat::kWikipedia;
  if (ArxivReader::is_arxiv_path(path)) return InputFormat::kArxiv;
  // By content, not name: Parquet files are often named without .parquet (part-0, data.pq).
  return ParquetReader::has_parquet_magic(path) ? InputFormat::kParquet : InputFormat::kJsonl;
}

InputReader::InputReader(const std::string& path, uint32_t shard_index,
                         const InputOptions& options) {
  switch (format_of(path, options.format)) {
    case InputFormat::kWarc:
      warc_ = std::make_unique<WarcReader>(path, shard_index, options.warc);
      break;
    case InputFormat::kImages:
      media_ = std::make_unique<MediaFileReader>(path, shard_index, options.media);
      break;
    case InputFormat::kParquet:
      parquet_ = std::make_unique<ParquetReader>(path, shard_index, options.parquet);
      break;
    case InputFormat::kWebdataset:
      webdataset_ = std::make_unique<WebDatasetReader>(
          path, shard_index,
          WebDatasetOptions{options.media, options.batch_records, options.batch_bytes});
      break;
    case InputFormat::kVideos:
      video_ = std::make_unique<VideoFileReader>(path, shard_index);
      break;
    case InputFormat::kStored:
      stored_ = std::make_unique<StoredBatchReader>(path, shard_index);
      break;
    case InputFormat::kWikipedia:
      wikipedia_ = std::make_unique<WikipediaReader>(path, shard_index, options.wikipedia);
      break;
    case InputFormat::kArxiv:
      arxiv_ = std::make_unique<ArxivReader>(path, shard_index, options.arxiv);
      break;
    case InputFormat::kAudio:
      audio_ = std::make_unique<AudioFileReader>(path, shard_index);
      break;
    case InputFormat::kAudioManifest:
      audio_manifest_ =
          std::make_unique<AudioManifestReader>(path, shard_index, options.batch_records);
      break;
    default:
      jsonl_ = std::make_unique<ShardReader>(path, shard_index, options.jsonl);
  }
}

namespace {

// A range of a split file is read as Parquet, with its rows.
InputOptions options_for(const InputFile& shard, InputOptions options) {
  if (shard.rows) {
    options.format = InputFormat::kParquet;
    options.parquet.rows = shard.rows;
    options.parquet.range_bytes = shard.size;
  }
  return options;
}

}  // namespace

InputReader::InputReader(const InputFile& shard, uint32_t shard_index, const InputOptions& options)
    : InputReader(shard.path, shard_index, options_for(shard, options)) {}

std::unique_ptr<DocBatch> InputReader::next() {
  if (warc_) return warc_->next();
  if (media_) return media_->next();
  if (parquet_) return parquet_->next();
  if (webdataset_) return webdataset_->next();
  if (video_) return video_->next();
  if (stored_) return stored_->next();
  if (wikipedia_) return wikipedia_->next();
  if (arxiv_) return arxiv_->next();
  if (audio_) return audio_->next();
  if (audio_manifest_) return audio_manifest_->next();
  return jsonl_->next();
}

std::string InputReader::failure() const { return stored_ ? stored_->failure() : std::string(); }

uint64_t InputReader::compressed_bytes_read() const {
  if (warc_) return warc_->compressed_bytes_read();
  if (media_) return media_->compressed_bytes_read();
  if (parquet_) return parquet_->compressed_bytes_read();
  if (webdataset_) return webdataset_->compressed_bytes_read();
  if (video_) return video_->compressed_bytes_read();
  if (stored_) return stored_->compressed_bytes_read();
  if (wikipedia_) return wikipedia_->compressed_bytes_read();
  if (arxiv_) return arxiv_->compressed_bytes_read();
  if (audio_) return audio_->compressed_bytes_read();
  if (audio_manifest_) return audio_manifest_->compressed_bytes_read();
  return jsonl_->compressed_bytes_read();
}

}  // namespace winnow
