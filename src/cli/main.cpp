// The `winnow` command: run a pipeline, list the stages, print the configuration reference.
// Exit codes: 0 success, 1 the run failed (bad input under on_error: fail, an I/O error), 2 the
// command or pipeline is invalid, 130 stopped by SIGINT or SIGTERM.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "cli/job_ranks.h"
#include "cli/stop_watchdog.h"
#include "core/version.h"
#include "core/watched_call.h"
#include "dedup/blas_gemm.h"
#include "gpu/gpu_runtime.h"
#include "pipeline/config_reference.h"
#include "pipeline/executor.h"
#include "pipeline/pipeline_config.h"
#include "stages/builtin_stages.h"

namespace winnow {
namespace {

// Set by SIGINT / SIGTERM; the run stops cleanly (no half-written file under a final name).
// A second signal kills the process at once: the handler restores the default action.
std::atomic<bool> g_stop_requested{false};

extern "C" void on_stop_signal(int signal_number) {
  g_stop_requested.store(true);
  std::signal(signal_number, SIG_DFL);
}

// One line on stderr in one write: std::cerr flushes after every <<, and under mpirun the
// pieces of a line written in several writes can be interleaved with rank 0's stdout (the
// summary) when the launcher merges the two.
void print_error(const std::string& message) { std::cerr << ("winnow: " + message + "\n"); }

void install_stop_handlers() {
  static_assert(std::atomic<bool>::is_always_lock_free, "used from a signal handler");
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
}

StageRegistry make_registry() {
  StageRegistry registry;
  register_builtin_stages(registry);
  return registry;
}

int list_stages(const StageRegistry& registry) {
  for (const StageSpec* spec : registry.all()) {
    std::cout << spec->name << "\n  " << spec->summary << "\n";
    std::cout << "  takes " << spec->takes.names();
    if (spec->gives) std::cout << ", gives " << item_kind_plural(*spec->gives);
    std::cout << "\n";
    const StageResources& r = spec->resources;
    if (r.cpus != 1 || r.gpus > 0) {
      std::cout << fmt::format("  per worker: {} CPU thread(s), {} GPU{}\n", r.cpus, r.gpus,
                               r.cpu_fallback ? " (runs on the CPU without one)" : "");
    }
    for (const ParamSpec& param : spec->params) {
      std::string default_text = param.required                ? "required"
                                 : param.default_value.empty() ? "unset"
                                                               : "default " + param.default_value;
      std::cout << fmt::format("    {:<14} {:<16} {:<18} {}\n", param.name,
                               param_type_name(param.type), default_text, param.help);
    }
    std::cout << "\n";
  }
  std::cout << "Every stage also takes: name (instance name, default the type), "
               "workers (pin the worker count; then it is neither autoscaled nor fused).\n";
  return 0;
}

// `speaks`: this process prints the summary and the run's error (across ranks only rank 0 does:
// every rank gets the same agreed error, naming the rank it came from).
int run_command(const StageRegistry& registry, const std::string& pipeline_path, RunOptions options,
                bool quiet, bool speaks) {
  auto config = PipelineConfig::load_file(pipeline_path, registry);
  if (!config.is_ok()) {
    print_error(config.status().message());
    return 2;
  }
  install_stop_handlers();
  options.stop_requested = &g_stop_requested;
  RunReport report;
  {
    // A stop request ends the run within a few seconds, even with a stage stuck in a document.
    StopWatchdog watchdog(g_stop_requested,
                          options.output.empty() ? config->output_path : options.output,
                          std::chrono::seconds(3));
    report = run_pipeline(*config, options);
  }
  if (report.setup_failed) {  // nothing ran: a summary of zeros would only hide the message
    if (speaks) print_error(report.status.message());
    return 2;
  }
  // Flushed before an error line follows it on stderr, so the two come out in this order.
  if (speaks && (!quiet || !report.status.is_ok()))
    std::cout << format_summary(report) << std::flush;
  if (!report.status.is_ok()) {
    if (speaks) print_error(report.status.message());
    return g_stop_requested ? 130 : 1;  // 130: the shell's code for "stopped by Ctrl-C"
  }
  return 0;
}

// What the command line says, as CLI11 fills it in.
struct CommandLine {
  std::string pipeline_path;
  RunOptions options;
  std::string format, on_error;
  // Checked after parsing with the pipeline file's rules (pipeline/pipeline_config.h), so both
  // places refuse the same values with the same words.
  std::optional<int64_t> threads, batch_size;
  bool quiet = false, no_progress = false, no_autoscale = false, no_fuse = false;
  CLI::App* identify = nullptr;
  CLI::App* remove = nullptr;
};

// `run` and the two halves of a dedup run take the same options.
void add_run_options(CLI::App* command, CommandLine& line) {
  RunOptions& options = line.options;
  command->add_option("pipeline", line.pipeline_path, "pipeline YAML file")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("-i,--input", options.inputs,
                      "input files, folders or globs (replaces input.paths)");
  command->add_option("-o,--output", options.output, "output folder (replaces output.path)");
  command->add_option("-t,--threads", line.threads,
                      "CPU threads for all steps together (workers per step with "
                      "--no-autoscale); 0 = number of cores");
  command
      ->add_option("--gpus", options.gpus, "GPUs the run may use (replaces gpus; default detected)")
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--no-autoscale", line.no_autoscale,
                    "fixed worker counts: every unpinned step gets --threads workers");
  command->add_flag("--no-fuse", line.no_fuse,
                    "run every stage as its own step (replaces fuse: true; output is the same)");
  command
      ->add_option("--output-format", line.format,
                   "jsonl, jsonl.gz, jsonl.zst, parquet or megatron (with output.tokenizer)")
      ->check(CLI::IsMember({"jsonl", "jsonl.gz", "jsonl.zst", "parquet", "megatron"}));
  command->add_option("--on-error", line.on_error, "fail or skip (replaces on_error)")
      ->check(CLI::IsMember({"fail", "skip"}));
  command->add_option("--batch-size", line.batch_size, "documents per batch (replaces batch_size)");
  command->add_flag("--overwrite", options.overwrite,
                    "redo every shard, replacing what an earlier run wrote");
  command->add_flag("-q,--quiet", line.quiet, "print nothing when the run succeeds");
  command->add_flag("--no-progress", line.no_progress,
                    "no live progress (a block on a terminal, else a log line every 10 s)");
}

void add_commands(CLI::App& app, CommandLine& line) {
  app.set_version_flag("--version", std::string("winnow ") + kVersion);
  app.require_subcommand(1);
  add_run_options(
      app.add_subcommand("run",
                         "Run a pipeline YAML file (with dedup stages: identify, then remove)."),
      line);
  CLI::App* dedup =
      app.add_subcommand("dedup", "Run the two passes of a pipeline's dedup stages separately.");
  dedup->require_subcommand(1);
  line.identify = dedup->add_subcommand(
      "identify",
      "Find the duplicates and write OUT/global/<stage>/duplicates.jsonl; write no documents.");
  line.remove = dedup->add_subcommand(
      "remove", "Write the documents, dropping the duplicates `dedup identify` found.");
  add_run_options(line.identify, line);
  add_run_options(line.remove, line);
  app.add_subcommand("stages", "List every stage with its parameters and defaults.");
  app.add_subcommand("reference",
                     "Print the configuration reference (docs/reference.md) as Markdown: "
                     "every pipeline key and every stage.");
}

// The parsed flags into the run's options; a refused value's message, or nothing.
std::optional<std::string> apply_flags(CommandLine& line) {
  RunOptions& options = line.options;
  if (!line.format.empty()) options.output_format = line.format;
  if (line.on_error == "fail") options.on_error = OnError::kFail;
  if (line.on_error == "skip") options.on_error = OnError::kSkip;
  if (line.threads) {
    if (auto problem = threads_problem(*line.threads)) return "--threads: " + std::string(*problem);
    options.threads = static_cast<int>(*line.threads);
  }
  if (line.batch_size) {
    if (auto problem = batch_size_problem(*line.batch_size)) {
      return "--batch-size: " + std::string(*problem);
    }
    options.batch_size = static_cast<uint64_t>(*line.batch_size);
  }
  if (line.no_autoscale) options.autoscale = false;
  if (line.no_fuse) options.fuse = false;
  options.progress = !line.no_progress && !line.quiet;
  if (line.identify->parsed()) options.passes = PassMode::kIdentifyOnly;
  if (line.remove->parsed()) options.passes = PassMode::kRemoveOnly;
  return std::nullopt;
}

// The run as one of the job's ranks (alone: rank 0 of one), MPI ended before returning.
int run_as_rank(const StageRegistry& registry, CommandLine& line, int* argc, char*** argv) {
  auto ranks = join_job_ranks(argc, argv);
  if (!ranks.is_ok()) {
    print_error(ranks.status().message());
    return 2;
  }
  std::unique_ptr<dist::Comm> comm = std::move(ranks).value();
  line.options.comm = comm.get();
  take_rank_devices();
  // Across ranks, rank 0 speaks for the job: the progress, the summary and the (agreed) error.
  const bool speaks = !comm || comm->rank() == 0;
  if (!speaks) {
    line.options.progress = false;
    gpu::mute_cpu_fallback_note();  // every rank would fall back alike: rank 0 says it once
  }
  int rc = run_command(registry, line.pipeline_path, line.options, line.quiet, speaks);
  comm.reset();  // MPI ends here, on every rank, before any early exit
  return rc;
}

}  // namespace
}  // namespace winnow

int main(int argc, char** argv) {
  using namespace winnow;
  stop_blas_threads();
  StageRegistry registry = make_registry();
  CLI::App app{
      "winnow: curates training data — read, filter, deduplicate, write, with every "
      "document accounted for."};
  CommandLine line;
  add_commands(app, line);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (app.got_subcommand("stages")) return list_stages(registry);
  if (app.got_subcommand("reference")) {
    std::cout << config_reference_markdown(registry);
    return 0;
  }
  if (auto problem = apply_flags(line)) {
    print_error(*problem);
    return 2;
  }
  const int rc = run_as_rank(registry, line, &argc, &argv);
  if (WatchedCaller::abandoned_any()) {
    // A call left running past its time limit (core/watched_call.h) must not race the
    // process's exit through static destructors: everything is written; end here.
    std::cout.flush();
    std::fflush(nullptr);
    std::_Exit(rc);
  }
  return rc;
}
