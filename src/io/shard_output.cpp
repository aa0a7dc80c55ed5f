#include "io/shard_output.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <filesystem>

#include "core/json_text.h"
#include "io/clip_meta.h"
#include "io/output_names.h"

namespace winnow {

std::string CompletionMarker::to_json() const {
  JsonWriter out(true);
  out.begin_object();
  out.key("fingerprint").value(fingerprint);
  out.key("input").value(input);
  out.key("counts");
  counts.write_json(out);
  out.end_object();
  return out.take() + "\n";
}

Result<CompletionMarker> CompletionMarker::read(const std::string& path) {
  simdjson::padded_string text;
  if (simdjson::padded_string::load(path).get(text)) {
    return Status::errorf("cannot read completion marker {}", path);
  }
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  CompletionMarker marker;
  std::string_view fingerprint, input;
  simdjson::dom::element counts;
  if (parser.parse(text).get(root) || root["fingerprint"].get(fingerprint) ||
      root["input"].get(input) || root["counts"].get(counts)) {
    return Status::errorf("completion marker {} is damaged; rerun with --overwrite", path);
  }
  marker.fingerprint = fingerprint;
  marker.input = input;
  auto parsed = RunCounts::parse_json(simdjson::minify(counts));
  if (!parsed.is_ok()) {
    return Status::errorf("completion marker {}: {}", path, parsed.status().message());
  }
  marker.counts = std::move(parsed).value();
  return marker;
}

ShardOutput::ShardOutput(ShardPaths paths, ShardOutputOptions options)
    : paths_(std::move(paths)), options_(std::move(options)) {
  if (options_.format.parquet()) {
    ParquetTableOptions table = options_.parquet;
    table.codec = options_.format.parquet_codec;
    table.row_group_rows = options_.format.row_group_rows;
    table.level = options_.level;
    kept_table_ = std::make_unique<ParquetTable>(table);
    table.rejected = true;
    rejected_table_ = std::make_unique<ParquetTable>(table);
  }
}

std::string ShardOutput::part_path(const std::string& kept, std::string_view ext, uint64_t index) {
  return fmt::format("{}-p{:05}{}", std::string_view(kept).substr(0, kept.size() - ext.size()),
                     index, ext);
}

std::string ShardOutput::kept_path() const {
  return options_.max_file_bytes == 0 ? paths_.kept
                                      : part_path(paths_.kept, options_.format.extension(), part_);
}

Status ShardOutput::write_kept_tokens(const DocBatch& batch) {
  std::string_view bytes = batch.encoded_kept;
  std::vector<uint64_t> run_sizes;  // the documents of `bytes` from run_start on, for one pair
  size_t run_start = 0;
  size_t doc_start = 0;
  auto flush_run = [&](size_t run_end) -> Status {
    if (!tokens_) {
      auto created = MegatronDatasetWriter::create(kept_path(), options_.format.megatron.dtype);
      if (!created.is_ok()) return created.status();
      tokens_ = std::move(created).value();
    }
    Status status = tokens_->add_documents(bytes.substr(run_start, run_end - run_start), run_sizes);
    run_sizes.clear();
    run_start = run_end;
    return status;
  };
  for (size_t doc_end : batch.encoded_kept_ends) {
    const uint64_t size = doc_end - doc_start;
    if (options_.max_file_bytes > 0 && part_bytes_ > 0 &&
        part_bytes_ + size > options_.max_file_bytes) {
      WINNOW_RETURN_IF_ERROR(flush_run(doc_start));
      WINNOW_RETURN_IF_ERROR(tokens_->commit());
      tokens_.reset();
      ++part_;
      part_bytes_ = 0;
    }
    run_sizes.push_back(size);
    part_bytes_ += size;
    doc_start = doc_end;
  }
  return flush_run(bytes.size());
}

Status ShardOutput::write_kept(const DocBatch& batch) {
  if (options_.format.megatron_tokens()) return write_kept_tokens(batch);
  const Compression compression = options_.format.compression;
  ParquetTable* table = kept_table_.get();
  if (options_.max_file_bytes == 0) {
    return append(kept_, paths_.kept, compression, batch.encoded_kept, table);
  }
  std::string_view bytes = batch.encoded_kept;
  size_t run_start = 0;  // documents [run_start, doc_start) go to the current part together
  size_t doc_start = 0;
  for (size_t doc_end : batch.encoded_kept_ends) {
    uint64_t size = doc_end - doc_start;
    if (part_bytes_ > 0 && part_bytes_ + size > options_.max_file_bytes) {
      WINNOW_RETURN_IF_ERROR(append(kept_, kept_path(), compression,
                                    bytes.substr(run_start, doc_start - run_start), table));
      WINNOW_RETURN_IF_ERROR(kept_->finish());
      kept_.reset();
      ++part_;
      part_bytes_ = 0;
      run_start = doc_start;
    }
    part_bytes_ += size;
    doc_start = doc_end;
  }
  return append(kept_, kept_path(), compression, bytes.substr(run_start), table);
}

Status ShardOutput::append(std::unique_ptr<ByteSink>& sink, const std::string& path,
                           Compression compression, std::string_view bytes, ParquetTable* table) {
  if (!sink) {
    // Error records stay plain and small: only the kept and rejected files compress in parallel.
    auto created = table ? table->open_part(path)
                         : ByteSink::create(path, compression, options_.level, options_.threads);
    if (!created.is_ok()) return created.status();
    sink = std::move(created).value();
  }
  return sink->write(bytes);
}

std::string ShardOutput::media_file_name(const std::string& shard_name, const DocBatch& batch,
                                         size_t row) {
  const Payload* payload = batch.payload(row);
  std::string_view type = payload ? std::string_view(payload->media_type) : std::string_view();
  // A manifest's audio items all come from one shard, so each is named by its key too.
  if (batch.lineage(row).depth == 0 && batch.kind(row) != ItemKind::kAudio) return shard_name;
  std::string_view ext = type == "audio/flac"   ? ".flac"
                         : type == "image/jpeg" ? ".jpg"
                         : type == "image/png"  ? ".png"
                         : type == "image/gif"  ? ".gif"
                         : type == "image/webp" ? ".webp"
                         : type == "image/bmp"  ? ".bmp"
                         : type == "image/tiff" ? ".tif"
                                                : ".bin";
  return fmt::format("{}-{:016x}{}", shard_name, batch.key(row).value(), ext);
}

std::string ShardOutput::tar_path(const std::string& dir, const std::string& shard_name,
                                  uint64_t index) {
  std::string_view base = shard_name;
  if (base.ends_with(".tar")) base.remove_suffix(4);
  return fmt::format("{}/{}-{:05}.tar", dir, base, index);
}

Status ShardOutput::write_sample(const Payload& payload) {
  uint64_t size = 0;
  for (const PayloadMember& m : payload.members) size += TarWriter::member_bytes(m.name, m.size);
  if (tar_ && options_.max_tar_bytes > 0 && tar_->bytes_written() > 0 &&
      tar_->bytes_written() + size > options_.max_tar_bytes) {
    WINNOW_RETURN_IF_ERROR(tar_->commit());
    tar_.reset();
    ++tar_index_;
  }
  if (!tar_) {
    std::error_code ec;
    std::filesystem::create_directories(paths_.files_dir, ec);
    if (ec) return Status::errorf("cannot create {}: {}", paths_.files_dir, ec.message());
    auto created = TarWriter::create(tar_path(paths_.files_dir, paths_.name, tar_index_));
    if (!created.is_ok()) return created.status();
    tar_ = std::move(created).value();
  }
  for (const PayloadMember& m : payload.members) {
    WINNOW_RETURN_IF_ERROR(tar_->add(m, payload.member_bytes(m)));
  }
  return Status::ok();
}

std::string ShardOutput::clip_stem(const DocBatch& batch, size_t row) {
  std::string_view id = batch.id(row);
  bool plain = !id.empty() && id.size() <= 128 && id[0] != '.';
  for (char c : id) {
    plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.');
  }
  return plain ? std::string(id) : fmt::format("{:016x}", batch.key(row).value());
}

Status ShardOutput::write_clip(const DocBatch& batch, size_t row) {
  const Payload& payload = *batch.payload(row);
  const std::string stem = clip_stem(batch, row);
  auto write = [&](std::string_view dir, std::string_view ext, std::string_view bytes) {
    std::string folder = paths_.out_dir + "/" + std::string(dir);
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) return Status::errorf("cannot create {}: {}", folder, ec.message());
    return AtomicFile::write_whole(folder + "/" + stem + std::string(ext), bytes);
  };
  WINNOW_RETURN_IF_ERROR(write(output_names::kClipsDir, ".mp4", payload.bytes()));
  if (payload.members.size() > 1) {
    WINNOW_RETURN_IF_ERROR(
        write(output_names::kPreviewsDir, ".jpg", payload.member_bytes(payload.members[1])));
  }
  return write(output_names::kMetasDir, ".json", clip_meta_json(batch, row));
}

Status ShardOutput::write_media(const DocBatch& batch) {
  for (size_t i = 0; i < batch.size(); ++i) {
    const Payload* payload = batch.payload(i);
    if (!batch.kept(i) || !payload || !payload->in_memory()) continue;
    if (batch.kind(i) == ItemKind::kClip) {
      WINNOW_RETURN_IF_ERROR(write_clip(batch, i));
      continue;
    }
    if (!payload->members.empty()) {
      WINNOW_RETURN_IF_ERROR(write_sample(*payload));
      continue;
    }
    std::error_code ec;
    std::filesystem::create_directories(paths_.files_dir, ec);
    if (ec) return Status::errorf("cannot create {}: {}", paths_.files_dir, ec.message());
    std::string path = paths_.files_dir + "/" + media_file_name(paths_.name, batch, i);
    WINNOW_RETURN_IF_ERROR(AtomicFile::write_whole(path, payload->bytes()));
  }
  return Status::ok();
}

Status ShardOutput::write(const DocBatch& batch) {
  WINNOW_RETURN_IF_ERROR(write_media(batch));
  // The kept file exists for every shard, even when nothing was kept.
  if (kept_table_) {
    kept_table_->note_fields(batch, batch.encoded_kept_fields);
    rejected_table_->note_fields(batch, batch.encoded_rejected_fields);
  }
  WINNOW_RETURN_IF_ERROR(write_kept(batch));
  if (!batch.encoded_rejected.empty()) {
    WINNOW_RETURN_IF_ERROR(append(rejected_, paths_.rejected, options_.format.compression,
                                  batch.encoded_rejected, rejected_table_.get()));
  }
  if (!batch.encoded_errors.empty()) {
    // Error records stay plain text: they are few and meant to be read by people.
    WINNOW_RETURN_IF_ERROR(
        append(errors_, paths_.errors, Compression::kNone, batch.encoded_errors));
  }
  return Status::ok();
}

Status ShardOutput::commit(const CompletionMarker& marker) {
  if (options_.format.megatron_tokens()) {
    if (!tokens_) {  // a shard with no records: an empty pair
      auto created = MegatronDatasetWriter::create(kept_path(), options_.format.megatron.dtype);
      if (!created.is_ok()) return created.status();
      tokens_ = std::move(created).value();
    }
    WINNOW_RETURN_IF_ERROR(tokens_->commit());
  } else {
    WINNOW_RETURN_IF_ERROR(
        append(kept_, kept_path(), options_.format.compression, {}, kept_table_.get()));
  }
  for (auto* sink : {&kept_, &rejected_, &errors_}) {
    if (*sink) WINNOW_RETURN_IF_ERROR((*sink)->finish());
  }
  // Parquet parts become Parquet now, with the columns of the whole shard.
  for (ParquetTable* table : {kept_table_.get(), rejected_table_.get()}) {
    if (table) WINNOW_RETURN_IF_ERROR(table->commit());
  }
  if (tar_) WINNOW_RETURN_IF_ERROR(tar_->commit());
  return AtomicFile::write_whole(paths_.marker, marker.to_json());
}

}  // namespace winnow
