#pragma once
// InputReader: the reader for one input file, chosen by its format. JSONL files go through
// ShardReader (raw lines; the parse step makes documents); WARC files through WarcReader, whose
// batches already hold documents (the parse step finds no raw lines and leaves them alone);
// media files (`images`) through MediaFileReader, one item per file; WebDataset tars through
// WebDatasetReader, one image item per sample; Parquet files through
// ParquetReader, whose batches hold raw lines (one JSON object per row) that the parse step
// makes documents of as for JSONL; video files through VideoFileReader, one probed video item
// per file; MediaWiki XML dumps (`wikipedia`) through WikipediaReader, one document per
// article, already parsed like WARC's; arXiv's bulk source tars (`arxiv`) through ArxivReader,
// one document per paper, likewise; audio files through AudioFileReader and NeMo-style audio
// manifests through AudioManifestReader, one decoded audio item per file or line.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/doc_batch.h"
#include "core/item_kind.h"
#include "io/arxiv_reader.h"
#include "io/audio_file_reader.h"
#include "io/audio_manifest_reader.h"
#include "io/media_file_reader.h"
#include "io/parquet_reader.h"
#include "io/shard_reader.h"
#include "io/stored_batches.h"
#include "io/video_file_reader.h"
#include "io/warc_reader.h"
#include "io/webdataset_reader.h"
#include "io/wikipedia_reader.h"

namespace winnow {

// kStored: batches a pass stored for a later one (io/stored_batches.h); never named by users.
enum class InputFormat {
  kAuto,
  kJsonl,
  kWarc,
  kImages,
  kParquet,
  kWebdataset,
  kVideos,
  kStored,
  kWikipedia,
  kArxiv,
  kAudio,
  kAudioManifest,
};
// auto|jsonl|warc|images|parquet|webdataset|videos|wikipedia|arxiv|audio|audio_manifest
std::optional<InputFormat> input_format_from_name(std::string_view name);
std::string_view input_format_name(InputFormat format);
// The kind of item a format's reader makes: images for `images` and `webdataset`, videos for
// `videos`, audio items for `audio` and `audio_manifest`, documents otherwise.
ItemKind input_format_kind(InputFormat format);

struct InputOptions {
  // auto: WARC by extension (.warc[.gz|.zst]), MediaWiki dumps by extension
  // (.xml[.bz2|.gz|.zst]), arXiv bulk tars by name (arXiv_src_*.tar), Parquet by its first
  // bytes (PAR1), else JSONL.
  // WebDataset is named (`webdataset`): its items are images, which the stages' kind check
  // must know when the pipeline is loaded.
  InputFormat format = InputFormat::kAuto;
  ReaderOptions jsonl;
  WarcOptions warc;
  MediaFileOptions media;
  ParquetOptions parquet;
  WikipediaOptions wikipedia;
  ArxivOptions arxiv;
  size_t batch_records = 1024;  // WebDataset samples per batch
  size_t batch_bytes = 8 << 20;
};

class InputReader {
 public:
  InputReader(const std::string& path, uint32_t shard_index, const InputOptions& options);
  // A shard: a whole file, or a range of a split Parquet file's rows (io/parquet_ranges.h).
  InputReader(const InputFile& shard, uint32_t shard_index, const InputOptions& options);

  // The next batch; the last one is empty and marked end_of_shard; null after it (or when the
  // file cannot be read on at all: then failure() says why and the run fails).
  std::unique_ptr<DocBatch> next();
  std::string failure() const;
  uint64_t compressed_bytes_read() const;

  static InputFormat format_of(const std::string& path, InputFormat configured);

 private:
  std::unique_ptr<ShardReader> jsonl_;
  std::unique_ptr<WarcReader> warc_;
  std::unique_ptr<MediaFileReader> media_;
  std::unique_ptr<ParquetReader> parquet_;
  std::unique_ptr<WebDatasetReader> webdataset_;
  std::unique_ptr<VideoFileReader> video_;
  std::unique_ptr<StoredBatchReader> stored_;
  std::unique_ptr<WikipediaReader> wikipedia_;
  std::unique_ptr<ArxivReader> arxiv_;
  std::unique_ptr<AudioFileReader> audio_;
  std::unique_ptr<AudioManifestReader> audio_manifest_;
};

}  // namespace winnow
