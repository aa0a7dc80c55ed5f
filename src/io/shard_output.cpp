#include "io/shard_output.h"

#include <simdjson.h>

#include "core/json_text.h"

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

ShardOutput::ShardOutput(ShardPaths paths, Compression compression, int level, int zstd_threads)
    : paths_(std::move(paths)),
      compression_(compression),
      level_(level),
      zstd_threads_(zstd_threads) {}

Status ShardOutput::append(std::unique_ptr<ByteSink>& sink, const std::string& path,
                           Compression compression, std::string_view bytes) {
  if (!sink) {
    auto created = ByteSink::create(path, compression, level_, zstd_threads_);
    if (!created.is_ok()) return created.status();
    sink = std::move(created).value();
  }
  return sink->write(bytes);
}

Status ShardOutput::write(const DocBatch& batch) {
  // The kept file exists for every shard, even when nothing was kept.
  WINNOW_RETURN_IF_ERROR(append(kept_, paths_.kept, compression_, batch.encoded_kept));
  if (!batch.encoded_rejected.empty()) {
    WINNOW_RETURN_IF_ERROR(
        append(rejected_, paths_.rejected, compression_, batch.encoded_rejected));
  }
  if (!batch.encoded_errors.empty()) {
    // Error records stay plain text: they are few and meant to be read by people.
    WINNOW_RETURN_IF_ERROR(
        append(errors_, paths_.errors, Compression::kNone, batch.encoded_errors));
  }
  return Status::ok();
}

Status ShardOutput::commit(const CompletionMarker& marker) {
  WINNOW_RETURN_IF_ERROR(append(kept_, paths_.kept, compression_, {}));
  for (auto* sink : {&kept_, &rejected_, &errors_}) {
    if (*sink) WINNOW_RETURN_IF_ERROR((*sink)->finish());
  }
  return AtomicFile::write_whole(paths_.marker, marker.to_json());
}

}  // namespace winnow
