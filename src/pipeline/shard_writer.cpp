#include "pipeline/shard_writer.h"

#include "io/input_reader.h"
#include "io/output_buffers.h"
#include "pipeline/picture_sampler.h"

namespace winnow {

ShardWriter::ShardWriter(const OutputLayout& layout, const std::vector<InputFile>& inputs,
                         const ReasonTable& reasons, ShardSource& source,
                         ShardWriterOptions options)
    : layout_(layout),
      inputs_(inputs),
      reasons_(reasons),
      source_(source),
      options_(std::move(options)),
      pictures_(options_.pictures_per_reason, options_.seed),
      timelines_(options_.pictures_per_reason, options_.seed) {}

ShardWriter::~ShardWriter() { abandon(); }

StageRunner::Part ShardWriter::write_part() {
  return {"write", {}, {}, [this](BatchPtr batch) { return consume(std::move(batch)); }};
}

ShardWriter::Shard& ShardWriter::shard(uint32_t index) {
  std::lock_guard lock(mutex_);
  auto& slot = shards_[index];
  if (!slot) slot = std::make_unique<Shard>();
  return *slot;  // stays put: only its own end marker's writer erases it
}

Status ShardWriter::consume(BatchPtr batch) {
  const uint32_t index = batch->shard;
  Shard& s = shard(index);
  {
    std::lock_guard lock(s.mutex);
    s.pending.emplace(batch->sequence, std::move(batch));
    if (s.draining) return Status::ok();  // the worker writing this shard will take it
    s.draining = true;
  }
  while (true) {
    BatchPtr next;
    {
      std::lock_guard lock(s.mutex);
      auto it = s.pending.find(s.next);
      if (it == s.pending.end()) {
        s.draining = false;
        return Status::ok();
      }
      next = std::move(it->second);
      s.pending.erase(it);
      ++s.next;
    }
    source_.batch_done();
    if (next->end_of_shard) return finish(index, s);  // the shard's last batch
    Status status = write(s, *next);
    if (!status.is_ok()) {
      std::lock_guard lock(s.mutex);
      s.draining = false;
      return status;
    }
  }
}

std::unique_ptr<ShardOutput> ShardWriter::make_output(uint32_t index) const {
  ShardOutputOptions options{options_.format,
                             options_.compression_level,
                             options_.max_file_bytes,
                             options_.compression_threads,
                             {},
                             options_.max_tar_bytes};
  if (options_.format.parquet()) {
    options.parquet.text_field = options_.text_field;
    options.parquet.id_field = options_.id_field;
    // A Parquet input's own columns and types are the table's (io/parquet_table.h).
    if (InputReader::format_of(inputs_[index].path, options_.input_format) ==
        InputFormat::kParquet) {
      options.parquet.source_columns = options_.parquet_columns;
    }
  }
  return std::make_unique<ShardOutput>(layout_.shard(index), std::move(options));
}

Status ShardWriter::write(Shard& s, DocBatch& batch) {
  if (!s.output) {
    s.output = make_output(batch.shard);
  }
  WINNOW_RETURN_IF_ERROR(s.output->write(batch));
  s.counts.add_batch(batch, reasons_, options_.input_kind);
  examples_.offer(batch, reasons_);
  offer_pictures(pictures_, batch, reasons_);
  timelines_.offer(batch, reasons_);
  s.counts.output_bytes += batch.encoded_kept.size();
  documents_ += batch.source_records();
  OutputBuffers::give_back(batch);  // its bytes are in the sinks: the next batches reuse them
  return Status::ok();
}

Status ShardWriter::finish(uint32_t index, Shard& s) {
  if (!s.output) {  // an input with no records
    s.output = make_output(index);
  }
  CompletionMarker marker{options_.fingerprint, inputs_[index].path, s.counts};
  WINNOW_RETURN_IF_ERROR(s.output->commit(marker));
  std::lock_guard lock(mutex_);
  completed_.merge(s.counts);
  ++completed_shards_;
  shards_.erase(index);
  return Status::ok();
}

RunCounts ShardWriter::completed_counts() const {
  std::lock_guard lock(mutex_);
  return completed_;
}

size_t ShardWriter::completed_shards() const {
  std::lock_guard lock(mutex_);
  return completed_shards_;
}

void ShardWriter::abandon() {
  std::lock_guard lock(mutex_);
  shards_.clear();  // ShardOutput's files were never committed: their temporaries go
}

}  // namespace winnow
