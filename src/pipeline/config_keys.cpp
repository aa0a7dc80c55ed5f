#include "pipeline/config_keys.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>

#include "pipeline/pipeline_config.h"

namespace winnow {
namespace {

std::string yes_no(bool value) { return value ? "true" : "false"; }

template <typename T>
std::string yaml_list(const std::vector<T>& items) {
  return fmt::format("[{}]", fmt::join(items, ", "));
}

using C = const PipelineConfig&;

// One key per entry; the formatter's wrapping would only scatter them.
// clang-format off
const ConfigKey kKeys[] = {
    // --- the top level ------------------------------------------------------------------
    {"", "input", "a map (below)", nullptr, "", "what to read", ""},
    {"", "output", "a map (below)", nullptr, "", "where and how to write", ""},
    {"", "report", "a map (below)", nullptr, "the values below",
     "what report.html shows of a picture or clip run, and how large it may get; never changes "
     "the output", ""},
    {"", "on_error", "fail | skip",
     [](C c) -> std::string { return c.on_error == OnError::kFail ? "fail" : "skip"; }, "",
     "a record that cannot be read (malformed JSON, a missing field, invalid UTF-8, a damaged "
     "WARC record, a truncated file's tail): fail ends the run and names the file and line; "
     "skip writes it to errors/ with its kind and goes on",
     "--on-error"},
    {"", "threads", "an integer, 0 to 1024",
     [](C c) { return std::to_string(c.threads); }, "",
     "the CPU budget of the whole process: worker threads of every step, the reader and the "
     "compression threads together; 0 = the machine's cores. With autoscale off: workers per "
     "unpinned step",
     "--threads"},
    {"", "gpus", "auto or a number, 0 or more",
     [](C c) { return c.gpus < 0 ? std::string("auto") : fmt::format("{}", c.gpus); }, "",
     "the GPU budget: auto detects the devices; a GPU stage on a run with none falls back to "
     "the CPU where it can, else the run refuses to start",
     "--gpus"},
    {"", "autoscale", "true, false or a map (below)", nullptr, "enabled, with the values below",
     "whether workers move to the bottleneck step while the run goes; false: every unpinned "
     "step gets `threads` workers",
     "--no-autoscale"},
    {"", "fuse", "true or false", [](C c) { return yes_no(c.fuse); }, "",
     "run consecutive ordinary CPU stages as one step (fewer queues and hand-overs); never "
     "changes the output",
     "--no-fuse"},
    {"", "materialize", "auto | always | never",
     [](C c) -> std::string {
       switch (c.materialize) {
         case MaterializeMode::kAlways: return "always";
         case MaterializeMode::kNever: return "never";
         default: return "auto";
       }
     }, "",
     "whether a dedup identify pass stores the batches it saw (in OUT/_work/) so the stages "
     "before the dedup step run once, not once per pass; auto measures those stages' cost over "
     "the first batches and stops storing where storing and reading back would cost more. "
     "Never changes the output",
     ""},
    {"", "batch_size", "an integer, 1 or more",
     [](C c) { return std::to_string(c.batch_size); }, "",
     "items per batch, the unit steps hand each other; never changes the output", "--batch-size"},
    {"", "batch_bytes", "an integer, 1 or more",
     [](C c) { return std::to_string(c.batch_bytes); }, "",
     "and at most about this many input bytes per batch, so a shard of long documents does not "
     "make batches of hundreds of megabytes; never changes the output",
     ""},
    {"", "seed", "an integer, 0 or more", [](C c) { return std::to_string(c.seed); }, "",
     "the seed of every random choice (sample, MinHash permutations): same input, pipeline and "
     "seed give the same bytes",
     ""},
    {"", "stages", "a list of stage entries", nullptr, "none: the input is copied",
     "the stages, in order; each entry names its type with `stage` and sets that stage's "
     "parameters (see Stages)",
     ""},

    // --- input ----------------------------------------------------------------------------
    {"input", "paths", "a path, glob or folder, or a list of them",
     [](C c) { return yaml_list(c.input_paths); }, "",
     "files, folders (walked recursively, in name order) or globs; a glob or folder skips an "
     "earlier run's bookkeeping (rejected/, errors/, _done/, _work/, global/, stats and "
     "metrics files)",
     "-i, --input"},
    {"input", "format",
     "auto | jsonl | warc | images | parquet | webdataset | videos | audio | audio_manifest | "
     "wikipedia | arxiv",
     [](C c) { return std::string(input_format_name(c.input_format)); }, "",
     "auto reads .warc, .warc.gz and .warc.zst as WARC, files that start with PAR1 as Parquet "
     "(one document per row, other columns as JSON fields) and everything else as JSON Lines; "
     "images makes one image item per file; webdataset reads tar shards (.tar, .tar.gz, "
     ".tar.zst...) as one image item per sample, its members grouped by key; videos makes one "
     "video item per file (.mp4, .mkv, .mov, .webm, .avi, .m4v), probed with libavformat; "
     "audio makes one audio item per file (.wav, .flac, .mp3, .ogg, .opus, .m4a), decoded "
     "whole with FFmpeg's libraries; audio_manifest reads NeMo-style JSON Lines manifests, one "
     "audio item per line (audio_filepath relative to the manifest, text, other fields kept); "
     "wikipedia (auto for .xml, .xml.bz2, .xml.gz, .xml.zst) reads MediaWiki XML dumps, one "
     "document per article, its wikitext made plain text as NeMo's WikipediaExtractor does; "
     "arxiv (auto for arXiv_src_*.tar) reads arXiv's bulk source tars, one document per paper, "
     "its LaTeX made text as NeMo's ArxivExtractor does",
     ""},
    {"input", "text_field", "a string", [](C c) { return c.text_field; }, "",
     "the JSON field (Parquet: the string column) holding the text", ""},
    {"input", "id_field", "a string", [](C c) { return c.id_field; }, "",
     "the JSON field (Parquet: the column) holding the id; generated from the document key "
     "where a record has none",
     ""},
    {"input", "max_line_bytes", "an integer, 1 or more",
     [](C c) { return std::to_string(c.max_line_bytes); }, "",
     "a longer JSON line is an error (line_too_long) and is never buffered whole", ""},
    {"input", "max_file_bytes", "an integer, 1 or more",
     [](C c) { return std::to_string(c.media.max_bytes); }, "",
     "images: a larger file, webdataset: a larger tar member, arxiv: a larger paper (or .tex "
     "file in it), is an error (record_too_large)",
     ""},
    {"input", "max_image_pixels", "an integer, 1 or more",
     [](C c) { return std::to_string(c.media.max_pixels); }, "",
     "images and webdataset: an image with more pixels (width x height from its header) is an "
     "error (image_too_large) before it is decoded: a decompression bomb",
     ""},
    {"input", "follow_links", "true or false", [](C c) { return yes_no(c.follow_links); }, "",
     "follow symbolic links met inside input folders (a link named on the command line or in "
     "paths is always followed; a dangling one is an error)",
     ""},
    {"input", "union_schemas", "true or false", [](C c) { return yes_no(c.union_schemas); }, "",
     "Parquet inputs whose columns differ: false fails the run at setup naming both files; true "
     "reads every file as the union of their columns (missing ones null)",
     ""},
    {"input", "parquet_split_mb", "a number, 0 or more",
     [](C c) { return fmt::format("{}", c.parquet_split_mb); }, "",
     "Parquet: a file with at least twice this many MiB of compressed row groups is read as "
     "several shards of consecutive row groups (outputs <name>-r00000...), in parallel and "
     "over ranks; 0: every file is one shard",
     ""},
    {"input", "project_columns", "true or false",
     [](C c) { return yes_no(c.project_columns); }, "",
     "Parquet: a pass that writes nothing (a dedup identify pass) reads only the text, the id "
     "and the columns its stages read by name; false reads every column (the same decisions, "
     "more bytes)",
     ""},
    {"input", "warc", "a map (below)", nullptr, "the values below", "WARC input", ""},
    {"input", "wikipedia", "a map (below)", nullptr, "the values below",
     "MediaWiki XML dump input", ""},

    // --- input.warc -----------------------------------------------------------------------
    {"input.warc", "record_types", "a list of response, resource, conversion",
     [](C c) { return yaml_list(c.warc.record_types); }, "",
     "the WARC record types read (conversion: WET text)", ""},
    {"input.warc", "content_types", "a list of type/subtype, type/* or *",
     [](C c) { return yaml_list(c.warc.content_types); }, "",
     "media types read: a response's HTTP Content-Type, else the record's WARC Content-Type",
     ""},
    {"input.warc", "status_codes", "a list of HTTP statuses (100-599)",
     [](C c) { return yaml_list(c.warc.status_codes); }, "",
     "HTTP statuses read from response records; empty: any", ""},
    {"input.warc", "max_record_bytes", "an integer, 1 or more",
     [](C c) { return std::to_string(c.warc.max_record_bytes); }, "",
     "a larger payload is an error (record_too_large)", ""},
    {"input.warc", "verify_digests", "true or false",
     [](C c) { return yes_no(c.warc.verify_digests); }, "",
     "check a record's sha1 WARC-Block-Digest (else its WARC-Payload-Digest): a mismatch makes "
     "the record an error (corrupt_warc); false saves the hashing",
     ""},

    // --- input.wikipedia ------------------------------------------------------------------
    {"input.wikipedia", "namespaces", "a list of integers",
     [](C c) { return yaml_list(c.wikipedia.namespaces); }, "",
     "the page namespaces read (0: articles); pages of others are skipped and counted", ""},
    {"input.wikipedia", "language", "a language code",
     [](C c) { return c.wikipedia.language; }, "",
     "the wiki's language: the url's host (https://<language>.wikipedia.org/wiki/...) and the "
     "language field",
     ""},

    // --- output ---------------------------------------------------------------------------
    {"output", "path", "a folder", [](C c) { return c.output_path; }, "",
     "the output folder; a run resumes in it, shard by shard", "-o, --output"},
    {"output", "format", "jsonl | jsonl.gz | jsonl.zst | parquet | megatron",
     [](C c) { return std::string(c.output_format.name()); },
     "", "the kept and rejected tables' format (error records are always plain JSON Lines); "
     "parquet keeps a Parquet input's columns and types and adds typed annotation columns; "
     "megatron writes the kept documents' token ids as Megatron-LM indexed datasets "
     "(<name>.bin + <name>.idx, uint16 for a vocabulary under 65,500 ids, else int32; one "
     "document per sequence) and the rejected ones as jsonl.zst",
     "--output-format"},
    {"output", "compression_level", "an integer, 0 to 9 (gzip) or 19 (zstd); parquet: 0 to 22 (zstd)",
     [](C c) { return std::to_string(c.compression_level); }, "", "0: the codec's default", ""},
    {"output", "parquet_compression", "zstd | snappy | gzip | lz4 | none",
     [](C c) { return std::string(parquet_codec_name(c.output_format.parquet_codec)); }, "",
     "Parquet output's page compression", ""},
    {"output", "row_group_rows", "an integer, 1 or more",
     [](C c) { return std::to_string(c.output_format.row_group_rows); }, "",
     "rows per Parquet row group (memory while writing grows with it)", ""},
    {"output", "write_rejected", "true or false", [](C c) { return yes_no(c.write_rejected); },
     "", "write dropped items to rejected/, each with the stage, reason and score that dropped it",
     ""},
    {"output", "max_file_bytes", "an integer, 0 or more",
     [](C c) { return std::to_string(c.max_file_bytes); }, "",
     "more than 0: kept output in parts of at most about this much JSONL each (megatron: "
     ".bin bytes), cut between items",
     ""},
    {"output", "tokenizer", "a path", [](C c) { return c.output_format.megatron.tokenizer; }, "",
     "megatron: the tokenizer.json (or a model folder holding one, or spm.model / "
     "tokenizer.model) the token ids come from: Hugging Face's encode(text), never truncated",
     ""},
    {"output", "add_special_tokens", "true or false",
     [](C c) { return yes_no(c.output_format.megatron.add_special_tokens); }, "",
     "megatron: put the tokenizer's post-processor tokens (BOS, [CLS]...) around each document; "
     "false, as NeMo's MegatronTokenizerWriter: only the text's own tokens",
     ""},
    {"output", "append_eod", "true or false",
     [](C c) { return yes_no(c.output_format.megatron.append_eod); }, "",
     "megatron: append eod_id after each document that has tokens (Megatron's --append-eod)",
     ""},
    {"output", "eod_id", "an integer",
     [](C c) { return std::to_string(c.output_format.megatron.eod_id); }, "",
     "megatron: the end-of-document token's id (e.g. the tokenizer's eos), needed by append_eod",
     ""},
    {"output", "max_tar_bytes", "an integer, 0 or more",
     [](C c) { return std::to_string(c.max_tar_bytes); }, "",
     "webdataset input: kept samples go to tar shards OUT/files/<name>-NNNNN.tar of at most "
     "about this many bytes each, cut between samples (a shard holds at least one); 0: one tar "
     "per input shard",
     ""},

    // --- report ---------------------------------------------------------------------------
    {"report", "pictures_per_reason", "an integer, 0 or more",
     [](C c) { return std::to_string(c.report_pictures_per_reason); }, "",
     "image and video runs: report.html shows this many kept items and this many per drop "
     "reason as 128 px JPEG thumbnails with their score, a sample chosen by the seed's hash of "
     "each item's key while the run streams (the same for any thread count); also, for every "
     "run, this many near-duplicate pairs per dedup step (kept item beside the one it removed, "
     "the differing words marked, or thumbnails for pictures), chosen by the seed's hash of the "
     "removed item's key; 0: none",
     ""},
    {"report", "max_bytes", "an integer, 0 or more",
     [](C c) { return std::to_string(c.report_max_bytes); }, "",
     "the most bytes report.html takes: near-duplicate pairs may take half the room the rest of "
     "the page leaves, thumbnails the remainder; pairs and thumbnails are left out (the largest "
     "thumbnails first; the page says how many) to stay under it",
     ""},

    // --- autoscale ------------------------------------------------------------------------
    {"autoscale", "enabled", "true or false", [](C c) { return yes_no(c.autoscale.enabled); },
     "", "false is the same as `autoscale: false`", "--no-autoscale"},
    {"autoscale", "interval_ms", "an integer, 10 or more",
     [](C c) { return std::to_string(c.autoscale.interval_ms); }, "",
     "how often the workers are re-planned", ""},
    {"autoscale", "headroom", "a number, 1.0 or more",
     [](C c) { return fmt::format("{}", c.autoscale.headroom); }, "",
     "steps that are not the bottleneck may grow to this many times its speed", ""},
    {"autoscale", "min_samples", "an integer, 1 or more",
     [](C c) { return std::to_string(c.autoscale.min_samples); }, "",
     "batches a step must have finished before its speed is trusted", ""},
    {"autoscale", "shrink_cycles", "an integer, 1 or more",
     [](C c) { return std::to_string(c.autoscale.shrink_cycles); }, "",
     "intervals in a row a shrink must be proposed before a worker is taken away", ""},
    {"autoscale", "grace_ms", "an integer, 0 or more",
     [](C c) { return std::to_string(c.autoscale.grace_ms); }, "",
     "a worker ready for less than this is never taken away (it may still be loading a model)",
     ""},
    {"autoscale", "window", "an integer, 1 or more",
     [](C c) { return std::to_string(c.autoscale.window); }, "",
     "service times kept per step to estimate its speed", ""},
    {"autoscale", "starved_busy", "a number, 0 to 1",
     [](C c) { return fmt::format("{}", c.autoscale.starved_busy); }, "",
     "a step with an empty input queue and workers busy less than this share of the time is "
     "starved: it waits for input and does not grow",
     ""},

    // --- every stage entry ----------------------------------------------------------------
    {"stages[]", "stage", "a stage type", nullptr, "required",
     "the stage's type: one of the stages listed below", ""},
    {"stages[]", "name", "a string", nullptr, "the type",
     "the instance name: reasons read `<name>/<reason>` and stats.json lists the step under it; "
     "two entries of one type need distinct names",
     ""},
    {"stages[]", "workers", "an integer, 0 or more", nullptr, "0 (not pinned)",
     "pin the stage's worker count: it is then neither autoscaled nor fused", ""},
};
// clang-format on

const std::string_view kSections[] = {"",       "input",     "input.warc", "input.wikipedia",
                                      "output", "report",    "autoscale", "stages[]"};

}  // namespace

std::span<const ConfigKey> config_keys() { return kKeys; }

std::span<const std::string_view> config_sections() { return kSections; }

std::set<std::string> config_keys_in(std::string_view section) {
  std::set<std::string> names;
  for (const ConfigKey& key : kKeys) {
    if (key.section == section) names.emplace(key.name);
  }
  return names;
}

}  // namespace winnow
