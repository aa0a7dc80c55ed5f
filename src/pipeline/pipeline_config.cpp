#include "pipeline/pipeline_config.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <set>
#include <sstream>
#include <type_traits>

#include "core/ascii.h"
#include "core/hash.h"
#include "core/number_text.h"
#include "pipeline/config_keys.h"

namespace winnow {

namespace {

class ConfigReader {
 public:
  explicit ConfigReader(std::string source) : source_(std::move(source)) {}

  Status error(const YAML::Node& node, const std::string& message) const {
    return Status::errorf("{}:{}: {}", source_, node.Mark().line + 1, message);
  }

  Status check_keys(const YAML::Node& map, const std::string& section,
                    const std::set<std::string>& known) const {
    if (!map.IsMap()) return error(map, "'" + section + "' must be a map");
    std::set<std::string> seen;
    for (const auto& item : map) {
      const std::string& key = item.first.Scalar();
      if (!seen.insert(key).second) {
        return error(item.first, fmt::format("key '{}' appears twice in {}", key, section));
      }
      if (!known.count(key)) {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        return error(item.first,
                     fmt::format("unknown key '{}' in {} (known: {})", key, section, list));
      }
    }
    return Status::ok();
  }

  template <typename T>
  Status read(const YAML::Node& map, const char* key, T& out, const char* type_name) const {
    YAML::Node node = map[key];
    if (!node) return Status::ok();
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
      // Not yaml-cpp's as<T>: it reads numbers through an iostream, which follows the global
      // C++ locale (core/number_text.h).
      auto value = node.IsScalar() ? parse_number<T>(node.Scalar()) : std::nullopt;
      if (!value) return error(node, fmt::format("'{}' must be {}", key, type_name));
      out = *value;
      return Status::ok();
    }
    try {
      out = node.as<T>();
    } catch (const YAML::Exception&) {
      return error(node, fmt::format("'{}' must be {}", key, type_name));
    }
    return Status::ok();
  }

  Status read_string_list(const YAML::Node& map, const char* key,
                          std::vector<std::string>& out) const {
    YAML::Node node = map[key];
    if (!node) return Status::ok();
    if (node.IsScalar()) {
      out = {node.Scalar()};
      return Status::ok();
    }
    if (!node.IsSequence()) return error(node, fmt::format("'{}' must be a list of strings", key));
    for (const auto& item : node) {
      if (!item.IsScalar()) return error(item, fmt::format("'{}' must hold strings", key));
      out.push_back(item.Scalar());
    }
    return Status::ok();
  }

 private:
  std::string source_;
};

}  // namespace

std::optional<std::string> threads_problem(int64_t threads) {
  if (threads >= 0 && threads <= kMaxThreads) return std::nullopt;
  return fmt::format("threads must be 0 (as many as the machine has cores) to {}; got {}",
                     kMaxThreads, threads);
}

std::optional<std::string> batch_size_problem(int64_t batch_size) {
  if (batch_size >= 1) return std::nullopt;
  return fmt::format("batch_size must be at least 1; got {}", batch_size);
}

std::optional<std::string> gpus_problem(double gpus) {
  if (gpus >= 0) return std::nullopt;
  return fmt::format("gpus must be 'auto' or 0 or more; got {}", gpus);
}

namespace {

// report: — what report.html shows and how large it gets; never changes output bytes.
Status parse_report(const YAML::Node& root, ConfigReader& r, PipelineConfig& config) {
  YAML::Node report = root["report"];
  if (!report) return Status::ok();
  WINNOW_RETURN_IF_ERROR(r.check_keys(report, "report", config_keys_in("report")));
  WINNOW_RETURN_IF_ERROR(r.read(report, "pictures_per_reason", config.report_pictures_per_reason,
                                "a non-negative integer"));
  return r.read(report, "max_bytes", config.report_max_bytes, "a non-negative integer");
}

// gpus: and autoscale: — how the run uses the machine; none of it changes output bytes.
Status parse_resources(const YAML::Node& root, ConfigReader& r, PipelineConfig& config) {
  if (YAML::Node gpus = root["gpus"]) {
    if (!(gpus.IsScalar() && gpus.Scalar() == "auto")) {
      WINNOW_RETURN_IF_ERROR(r.read(root, "gpus", config.gpus, "'auto' or a number"));
      if (auto problem = gpus_problem(config.gpus)) return r.error(gpus, *problem);
    }
  }
  YAML::Node node = root["autoscale"];
  if (!node) return Status::ok();
  AutoscaleSettings& a = config.autoscale;
  if (node.IsScalar()) {  // autoscale: false
    return r.read(root, "autoscale", a.enabled, "true, false or a map");
  }
  WINNOW_RETURN_IF_ERROR(r.check_keys(node, "autoscale", config_keys_in("autoscale")));
  WINNOW_RETURN_IF_ERROR(r.read(node, "enabled", a.enabled, "true or false"));
  WINNOW_RETURN_IF_ERROR(r.read(node, "interval_ms", a.interval_ms, "an integer"));
  WINNOW_RETURN_IF_ERROR(r.read(node, "headroom", a.headroom, "a number"));
  WINNOW_RETURN_IF_ERROR(r.read(node, "min_samples", a.min_samples, "an integer"));
  WINNOW_RETURN_IF_ERROR(r.read(node, "shrink_cycles", a.shrink_cycles, "an integer"));
  WINNOW_RETURN_IF_ERROR(r.read(node, "grace_ms", a.grace_ms, "an integer"));
  WINNOW_RETURN_IF_ERROR(r.read(node, "window", a.window, "an integer"));
  WINNOW_RETURN_IF_ERROR(r.read(node, "starved_busy", a.starved_busy, "a number"));
  auto bad = [&](const char* key, const char* rule) {
    return r.error(node[key], fmt::format("autoscale.{} must be {}", key, rule));
  };
  if (a.interval_ms < 10) return bad("interval_ms", "at least 10");
  if (a.headroom < 1) return bad("headroom", "at least 1.0");
  if (a.min_samples < 1) return bad("min_samples", "at least 1");
  if (a.shrink_cycles < 1) return bad("shrink_cycles", "at least 1");
  if (a.grace_ms < 0) return bad("grace_ms", "0 or more");
  if (a.window < 1) return bad("window", "at least 1");
  if (a.starved_busy < 0 || a.starved_busy > 1) return bad("starved_busy", "between 0 and 1");
  return Status::ok();
}

// input.wikipedia.
Status parse_wikipedia_options(const YAML::Node& input, ConfigReader& r, PipelineConfig& config) {
  YAML::Node wiki = input["wikipedia"];
  if (!wiki) return Status::ok();
  WINNOW_RETURN_IF_ERROR(
      r.check_keys(wiki, "input.wikipedia", config_keys_in("input.wikipedia")));
  WikipediaOptions& options = config.wikipedia;
  if (YAML::Node namespaces = wiki["namespaces"]) {
    std::vector<std::string> list;
    WINNOW_RETURN_IF_ERROR(r.read_string_list(wiki, "namespaces", list));
    options.namespaces.clear();
    for (const auto& text : list) {
      std::optional<int> value = parse_number<int>(text);
      if (!value) {
        return r.error(namespaces, fmt::format("namespace '{}' is not an integer", text));
      }
      options.namespaces.push_back(*value);
    }
    if (options.namespaces.empty()) {
      return r.error(namespaces, "namespaces must name at least one namespace");
    }
  }
  if (YAML::Node language = wiki["language"]) {
    std::string code = language.IsScalar() ? language.Scalar() : "";
    bool valid = !code.empty() && code.size() <= 32;
    for (char c : code) valid = valid && (is_ascii_alnum(c) || c == '-');
    if (!valid) return r.error(language, "language must be a code such as en, de or zh-min-nan");
    options.language = code;
  }
  return Status::ok();
}

// input.format, input.warc and input.wikipedia.
Status parse_input_format(const YAML::Node& input, ConfigReader& r, PipelineConfig& config) {
  if (YAML::Node format = input["format"]) {
    auto parsed = input_format_from_name(format.IsScalar() ? format.Scalar() : "");
    if (!parsed)
      return r.error(format,
                     "input format must be one of auto, jsonl, warc, images, parquet, "
                     "webdataset, videos, audio, audio_manifest, wikipedia, arxiv");
    config.input_format = *parsed;
    config.input_kind = input_format_kind(*parsed);
  }
  WINNOW_RETURN_IF_ERROR(parse_wikipedia_options(input, r, config));
  YAML::Node warc = input["warc"];
  if (!warc) return Status::ok();
  WINNOW_RETURN_IF_ERROR(r.check_keys(warc, "input.warc", config_keys_in("input.warc")));
  WarcOptions& options = config.warc;
  if (warc["record_types"]) {
    options.record_types.clear();
    WINNOW_RETURN_IF_ERROR(r.read_string_list(warc, "record_types", options.record_types));
    for (const auto& type : options.record_types) {
      if (type != "response" && type != "resource" && type != "conversion") {
        return r.error(warc["record_types"],
                       fmt::format("record type '{}' is not one of response, resource, "
                                   "conversion",
                                   type));
      }
    }
    if (options.record_types.empty()) {
      return r.error(warc["record_types"], "record_types must name at least one type");
    }
  }
  if (warc["content_types"]) {
    options.content_types.clear();
    WINNOW_RETURN_IF_ERROR(r.read_string_list(warc, "content_types", options.content_types));
    for (const auto& type : options.content_types) {
      if (type != "*" && type.find('/') == std::string::npos) {
        return r.error(warc["content_types"],
                       fmt::format("content type '{}' must be type/subtype, type/* or *", type));
      }
    }
    if (options.content_types.empty()) {
      return r.error(warc["content_types"], "content_types must name at least one type");
    }
  }
  if (YAML::Node codes = warc["status_codes"]) {
    std::vector<std::string> list;
    WINNOW_RETURN_IF_ERROR(r.read_string_list(warc, "status_codes", list));
    for (const auto& code : list) {
      int value = parse_number<int>(code).value_or(0);
      if (value < 100 || value > 599) {
        return r.error(codes,
                       fmt::format("status code '{}' is not an HTTP status (100-599)", code));
      }
      options.status_codes.push_back(value);
    }
  }
  uint64_t max_record = options.max_record_bytes;
  WINNOW_RETURN_IF_ERROR(r.read(warc, "max_record_bytes", max_record, "a positive integer"));
  if (max_record == 0) return r.error(warc["max_record_bytes"], "max_record_bytes must be >= 1");
  options.max_record_bytes = max_record;
  WINNOW_RETURN_IF_ERROR(r.read(warc, "verify_digests", options.verify_digests, "true or false"));
  return Status::ok();
}

Status parse_root(const YAML::Node& root, ConfigReader& r, const StageRegistry& registry,
                  PipelineConfig& config) {
  if (root.IsNull()) return Status::ok();  // an empty file: every default, paths from the CLI
  if (!root.IsMap()) return r.error(root, "a pipeline must be a YAML map");
  WINNOW_RETURN_IF_ERROR(r.check_keys(root, "the pipeline", config_keys_in("")));

  if (YAML::Node input = root["input"]) {
    WINNOW_RETURN_IF_ERROR(r.check_keys(input, "input", config_keys_in("input")));
    WINNOW_RETURN_IF_ERROR(r.read_string_list(input, "paths", config.input_paths));
    WINNOW_RETURN_IF_ERROR(r.read(input, "text_field", config.text_field, "a string"));
    WINNOW_RETURN_IF_ERROR(r.read(input, "id_field", config.id_field, "a string"));
    WINNOW_RETURN_IF_ERROR(
        r.read(input, "max_line_bytes", config.max_line_bytes, "a positive integer"));
    if (config.max_line_bytes == 0) {
      return r.error(input["max_line_bytes"], "max_line_bytes must be at least 1");
    }
    WINNOW_RETURN_IF_ERROR(parse_input_format(input, r, config));
    WINNOW_RETURN_IF_ERROR(
        r.read(input, "max_file_bytes", config.media.max_bytes, "a positive integer"));
    if (config.media.max_bytes == 0) {
      return r.error(input["max_file_bytes"], "max_file_bytes must be at least 1");
    }
    WINNOW_RETURN_IF_ERROR(
        r.read(input, "max_image_pixels", config.media.max_pixels, "a positive integer"));
    if (config.media.max_pixels == 0) {
      return r.error(input["max_image_pixels"], "max_image_pixels must be at least 1");
    }
    WINNOW_RETURN_IF_ERROR(r.read(input, "follow_links", config.follow_links, "true or false"));
    WINNOW_RETURN_IF_ERROR(r.read(input, "union_schemas", config.union_schemas, "true or false"));
    WINNOW_RETURN_IF_ERROR(
        r.read(input, "parquet_split_mb", config.parquet_split_mb, "a number, 0 or more"));
    if (!(config.parquet_split_mb >= 0)) {
      return r.error(input["parquet_split_mb"], "parquet_split_mb must be 0 or more");
    }
    WINNOW_RETURN_IF_ERROR(
        r.read(input, "project_columns", config.project_columns, "true or false"));
  }
  if (YAML::Node output = root["output"]) {
    WINNOW_RETURN_IF_ERROR(r.check_keys(output, "output", config_keys_in("output")));
    WINNOW_RETURN_IF_ERROR(r.read(output, "path", config.output_path, "a string"));
    std::string format;
    WINNOW_RETURN_IF_ERROR(r.read(output, "format", format, "a string"));
    if (!format.empty()) {
      auto chosen = config.output_format.with_name(format);
      if (!chosen) {
        return r.error(output["format"],
                       "output format must be one of jsonl, jsonl.gz, jsonl.zst, parquet, "
                       "megatron; got '" +
                           format + "'");
      }
      config.output_format = *chosen;
    }
    std::string codec;
    WINNOW_RETURN_IF_ERROR(r.read(output, "parquet_compression", codec, "a string"));
    if (!codec.empty()) {
      auto chosen = parquet_codec_from_name(codec);
      if (!chosen) {
        return r.error(output["parquet_compression"],
                       "parquet_compression must be one of zstd, snappy, gzip, lz4, none; got '" +
                           codec + "'");
      }
      config.output_format.parquet_codec = *chosen;
    }
    WINNOW_RETURN_IF_ERROR(r.read(output, "row_group_rows", config.output_format.row_group_rows,
                                  "a positive integer"));
    if (config.output_format.row_group_rows == 0) {
      return r.error(output["row_group_rows"], "row_group_rows must be at least 1");
    }
    WINNOW_RETURN_IF_ERROR(
        r.read(output, "compression_level", config.compression_level, "an integer"));
    // The level applies to the JSON Lines codec, or to Parquet's zstd pages.
    int max_level = config.output_format.parquet()
                        ? (config.output_format.parquet_codec == ParquetCodec::kZstd ? 22 : 0)
                        : (config.output_format.compression == Compression::kGzip ? 9 : 19);
    if (config.compression_level < 0 || config.compression_level > max_level) {
      return r.error(
          output["compression_level"],
          fmt::format("compression_level must be 0 (default) to {} for this format", max_level));
    }
    WINNOW_RETURN_IF_ERROR(
        r.read(output, "write_rejected", config.write_rejected, "true or false"));
    WINNOW_RETURN_IF_ERROR(
        r.read(output, "max_file_bytes", config.max_file_bytes, "a non-negative integer"));
    WINNOW_RETURN_IF_ERROR(
        r.read(output, "max_tar_bytes", config.max_tar_bytes, "a non-negative integer"));
    MegatronSettings& megatron = config.output_format.megatron;
    WINNOW_RETURN_IF_ERROR(r.read(output, "tokenizer", megatron.tokenizer, "a string"));
    WINNOW_RETURN_IF_ERROR(
        r.read(output, "add_special_tokens", megatron.add_special_tokens, "true or false"));
    WINNOW_RETURN_IF_ERROR(r.read(output, "append_eod", megatron.append_eod, "true or false"));
    WINNOW_RETURN_IF_ERROR(r.read(output, "eod_id", megatron.eod_id, "an integer"));
    if (megatron.append_eod && megatron.eod_id < 0) {
      return r.error(output["append_eod"],
                     "append_eod needs eod_id, the end-of-document token's id");
    }
  }
  if (YAML::Node on_error = root["on_error"]) {
    std::string policy = on_error.IsScalar() ? on_error.Scalar() : "";
    if (policy == "fail")
      config.on_error = OnError::kFail;
    else if (policy == "skip")
      config.on_error = OnError::kSkip;
    else
      return r.error(on_error, "on_error must be 'fail' or 'skip'");
  }
  WINNOW_RETURN_IF_ERROR(r.read(root, "threads", config.threads, "an integer"));
  WINNOW_RETURN_IF_ERROR(r.read(root, "fuse", config.fuse, "true or false"));
  if (YAML::Node materialize = root["materialize"]) {
    std::string mode = materialize.IsScalar() ? materialize.Scalar() : "";
    if (mode == "auto") {
      config.materialize = MaterializeMode::kAuto;
    } else if (mode == "always") {
      config.materialize = MaterializeMode::kAlways;
    } else if (mode == "never") {
      config.materialize = MaterializeMode::kNever;
    } else {
      return r.error(materialize, "materialize must be auto, always or never");
    }
  }
  int64_t batch_size = static_cast<int64_t>(config.batch_size);
  WINNOW_RETURN_IF_ERROR(r.read(root, "batch_size", batch_size, "a positive integer"));
  WINNOW_RETURN_IF_ERROR(r.read(root, "batch_bytes", config.batch_bytes, "a positive integer"));
  if (config.batch_bytes == 0)
    return r.error(root["batch_bytes"], "batch_bytes must be at least 1");
  WINNOW_RETURN_IF_ERROR(r.read(root, "seed", config.seed, "a non-negative integer"));
  if (auto problem = batch_size_problem(batch_size)) return r.error(root["batch_size"], *problem);
  config.batch_size = static_cast<uint64_t>(batch_size);
  if (auto problem = threads_problem(config.threads)) return r.error(root["threads"], *problem);
  WINNOW_RETURN_IF_ERROR(parse_resources(root, r, config));
  WINNOW_RETURN_IF_ERROR(parse_report(root, r, config));

  YAML::Node stages = root["stages"];
  if (!stages || stages.IsNull()) return Status::ok();
  if (!stages.IsSequence()) return r.error(stages, "'stages' must be a list");
  std::set<std::string> names;
  // The kind of item flowing at each point, and who gave it, for the kind check.
  ItemKind kind = config.input_kind;
  std::string giver =
      config.input_kind == ItemKind::kDocument
          ? "the input"
          : fmt::format("the input (input.format: {})", input_format_name(config.input_format));
  for (const auto& node : stages) {
    if (!node.IsMap() || !node["stage"]) {
      return r.error(node, "each stage must be a map with a 'stage' key naming its type");
    }
    std::string type = node["stage"].Scalar();
    const StageSpec* spec = registry.find(type);
    if (!spec) {
      std::string known;
      for (const auto* s : registry.all()) known += (known.empty() ? "" : ", ") + s->name;
      return r.error(node["stage"], fmt::format("unknown stage '{}' (known: {})", type, known));
    }
    StageConfig stage;
    stage.spec = spec;
    stage.name = node["name"] ? node["name"].Scalar() : type;
    if (!names.insert(stage.name).second) {
      return r.error(
          node, fmt::format("two stages are named '{}'; give one a distinct 'name'", stage.name));
    }
    WINNOW_RETURN_IF_ERROR(r.read(node, "workers", stage.workers, "an integer"));
    if (stage.workers < 0) {
      return r.error(node["workers"], "workers must be 0 (not pinned) or more");
    }
    std::set<std::string> entry_keys = config_keys_in("stages[]");
    auto params = StageParams::parse(node, spec->params, {entry_keys.begin(), entry_keys.end()},
                                     config.source, stage.name);
    if (!params.is_ok()) return params.status();
    stage.params = std::move(params).value();
    if (!spec->takes.has(kind)) {
      return r.error(node["stage"],
                     fmt::format("stage '{}' ({}) takes {}, but {} gives it {}", stage.name,
                                 spec->name, spec->takes.names(), giver, item_kind_plural(kind)));
    }
    stage.kind_in = kind;
    kind = spec->gives.value_or(kind);
    stage.kind_out = kind;
    giver = fmt::format("stage '{}'", stage.name);
    config.stages.push_back(std::move(stage));
  }
  return Status::ok();
}

// Appends a canonical form of `node`. Unlike YAML::Emitter it keeps each scalar's tag, so a
// quoted "1" (a string to select) and a plain 1 (a number) differ.
void append_canonical(const YAML::Node& node, std::string& out) {
  auto scalar = [&out](const std::string& text) {
    out += std::to_string(text.size()) + ':' + text;
  };
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      out += 's';
      scalar(node.Tag());
      scalar(node.Scalar());
      break;
    case YAML::NodeType::Sequence:
      out += '[';
      for (const auto& item : node) append_canonical(item, out);
      out += ']';
      break;
    case YAML::NodeType::Map:
      out += '{';
      for (const auto& item : node) {
        append_canonical(item.first, out);
        append_canonical(item.second, out);
      }
      out += '}';
      break;
    default:
      out += '~';
  }
}

// The stages as they decide output: everything but the pinned worker counts.
std::string canonical_stages(const YAML::Node& stages) {
  std::string out;
  if (!stages || !stages.IsSequence()) return out;
  for (const auto& stage : stages) {
    out += '{';
    for (const auto& item : stage) {
      if (item.first.Scalar() == "workers") continue;
      append_canonical(item.first, out);
      append_canonical(item.second, out);
    }
    out += '}';
  }
  return out;
}

}  // namespace

Result<PipelineConfig> PipelineConfig::load_string(const std::string& yaml,
                                                   const std::string& source,
                                                   const StageRegistry& registry) {
  PipelineConfig config;
  config.source = source;
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp's own words for this are "bad file".
    return Status::errorf("{}:{}: invalid YAML: nested {} levels deep, the most YAML's parser "
                          "takes",
                          source, e.mark.line + 1, e.depth());
  } catch (const YAML::Exception& e) {
    return Status::errorf("{}:{}: invalid YAML: {}", source, e.mark.line + 1, e.msg);
  }
  ConfigReader reader(source);
  WINNOW_RETURN_IF_ERROR(parse_root(root, reader, registry, config));

  // What decides the output bytes: everything but paths, threads, workers and batch sizes.
  std::string key = fmt::format(
      "{}|{}|{}|{}|{}|{}|{}|{}|{}", canonical_stages(root["stages"]), config.text_field,
      config.id_field, static_cast<int>(config.output_format.compression), config.compression_level,
      config.write_rejected, config.seed, config.max_line_bytes, config.max_file_bytes);
  if (config.max_tar_bytes > 0) key += fmt::format("|tar:{}", config.max_tar_bytes);
  if (config.output_format.megatron_tokens()) {
    const MegatronSettings& megatron = config.output_format.megatron;
    key += fmt::format("|megatron:{}|{}|{}|{}", megatron.tokenizer, megatron.add_special_tokens,
                       megatron.append_eod, megatron.append_eod ? megatron.eod_id : -1);
  }
  // Input format and WARC options (only when given, so JSONL fingerprints are unchanged).
  if (root.IsMap() && root["input"] && root["input"].IsMap()) {
    for (const char* name :
         {"format", "warc", "wikipedia", "max_file_bytes", "union_schemas", "max_image_pixels"}) {
      if (YAML::Node node = root["input"][name]) {
        key += fmt::format("|{}:", name);
        append_canonical(node, key);
      }
    }
  }
  config.fingerprint = fmt::format("{:016x}", hash64(key));
  return config;
}

Result<PipelineConfig> PipelineConfig::load_file(const std::string& path,
                                                 const StageRegistry& registry) {
  std::ifstream in(path);
  if (!in) return Status::errorf("cannot read pipeline file '{}'", path);
  std::stringstream text;
  text << in.rdbuf();
  return load_string(text.str(), path, registry);
}

InputOptions PipelineConfig::input_options(size_t batch_size) const {
  InputOptions options{input_format, {batch_size, batch_bytes, max_line_bytes}, warc, media};
  options.wikipedia = wikipedia;
  options.warc.batch_records = batch_size;
  options.warc.batch_bytes = batch_bytes;
  options.warc.text_field = text_field;
  options.parquet.text_field = text_field;
  options.parquet.batch_records = batch_size;
  options.parquet.batch_bytes = batch_bytes;
  options.wikipedia.text_field = text_field;
  options.wikipedia.batch_records = batch_size;
  options.wikipedia.batch_bytes = batch_bytes;
  options.arxiv.text_field = text_field;
  options.arxiv.batch_records = batch_size;
  options.arxiv.batch_bytes = batch_bytes;
  options.arxiv.max_paper_bytes = media.max_bytes;
  options.batch_records = batch_size;
  options.batch_bytes = batch_bytes;
  return options;
}

}  // namespace winnow
