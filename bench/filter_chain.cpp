// filter_chain: the cost of a heuristic filter chain per document, in process, on one core.
//
//   filter_chain_bench PIPELINE.yaml DOCS.txt [REPEATS=5]
//
// DOCS.txt holds NUL-separated texts (bench/make_filter_corpus). The program builds the
// pipeline's stages exactly as `winnow run` does, feeds them batches of 1024 documents (fresh
// batches each repeat, built outside the timer, so no split is reused across repeats) and
// times every stage. In the same run it times the floor: one pass per document that only
// counts its code points and its white-space separated words. Times are the thread's CPU time
// (so a busy machine slows the figures less). It prints documents/s on one core for the chain
// and the floor, the chain's cost as a multiple of the floor, and each
// stage's share. Best of REPEATS for each.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.h"
#include "core/doc_batch.h"
#include "core/reason_table.h"
#include "stages/builtin_stages.h"
#include "pipeline/pipeline_config.h"

using namespace winnow;

// Thread CPU time: "per core" throughput, not inflated when other processes share the cores.
struct CpuClock {
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<CpuClock>;
  static time_point now() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return time_point(duration(static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec));
  }
};

namespace {

const size_t kBatch =
    getenv("BENCH_BATCH") ? std::strtoul(getenv("BENCH_BATCH"), nullptr, 10) : 1024;

// The floor: code points and words (runs of ASCII white space or the other Python spaces
// between non-space code points) in one pass, one table lookup per byte.
size_t floor_pass(std::string_view text, size_t& words) {
  static const auto table = [] {
    std::array<uint8_t, 256> t{};
    for (int c : {0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x0c, 0x1c, 0x1d, 0x1e, 0x1f}) t[c] = 1;
    return t;
  }();
  size_t chars = 0;
  bool in_word = false;
  for (unsigned char b : text) {
    chars += (b & 0xC0) != 0x80;
    bool space = table[b];
    words += !space && !in_word;
    in_word = !space;
  }
  return chars;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s PIPELINE.yaml DOCS.txt [REPEATS]\n", argv[0]);
    return 2;
  }
  int repeats = argc > 3 ? std::atoi(argv[3]) : 5;
  StageRegistry registry;
  register_builtin_stages(registry);
  auto config = PipelineConfig::load_file(argv[1], registry);
  if (!config.is_ok()) {
    std::fprintf(stderr, "%s\n", config.status().message().c_str());
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  std::string blob((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string_view> docs;
  for (size_t start = 0; start <= blob.size();) {
    size_t end = blob.find('\0', start);
    if (end == std::string::npos) end = blob.size();
    docs.emplace_back(blob.data() + start, end - start);
    start = end + 1;
  }
  if (docs.empty() || blob.empty()) {
    std::fprintf(stderr, "no documents in %s\n", argv[2]);
    return 2;
  }

  ReasonTable reasons;
  std::vector<std::unique_ptr<Stage>> stages;
  std::vector<std::string> names;
  int index = 0;
  for (const StageConfig& sc : config->stages) {
    StageContext context(reasons, sc.name, index++, config->seed);
    auto stage = sc.spec->make(sc.params, context);
    if (!stage.is_ok()) {
      std::fprintf(stderr, "%s\n", stage.status().message().c_str());
      return 2;
    }
    stages.push_back(std::move(stage).value());
    names.push_back(sc.name);
  }

  double best_chain = 1e30, best_floor = 1e30;
  std::vector<double> best_stage(stages.size(), 1e30);
  size_t kept = 0, checksum = 0;
  for (int r = 0; r < repeats; ++r) {
    auto batches = bench::make_doc_batches(docs, kBatch);
    std::vector<double> stage_s(stages.size(), 0.0);
    auto t0 = CpuClock::now();
    for (auto& batch : batches) {
      for (size_t s = 0; s < stages.size(); ++s) {
        auto a = CpuClock::now();
        Status st = stages[s]->process(*batch);
        stage_s[s] += std::chrono::duration<double>(CpuClock::now() - a).count();
        if (!st.is_ok()) {
          std::fprintf(stderr, "%s\n", st.message().c_str());
          return 1;
        }
      }
    }
    double chain = std::chrono::duration<double>(CpuClock::now() - t0).count();
    kept = 0;
    for (auto& batch : batches) kept += batch->kept_count();
    best_chain = std::min(best_chain, chain);
    for (size_t s = 0; s < stages.size(); ++s) best_stage[s] = std::min(best_stage[s], stage_s[s]);

    auto f0 = CpuClock::now();
    size_t words = 0, chars = 0;
    for (std::string_view d : docs) chars += floor_pass(d, words);
    double floor = std::chrono::duration<double>(CpuClock::now() - f0).count();
    checksum = chars + words;
    best_floor = std::min(best_floor, floor);
  }

  size_t bytes = blob.size() - (docs.size() - 1);
  double n = static_cast<double>(docs.size());
  std::printf(
      "filter_chain: %s, %zu documents (%.0f bytes on average), %zu stages, %d repeats, "
      "best of each, one core\n",
      argv[1], docs.size(), bytes / n, stages.size(), repeats);
  std::printf("  chain: %10.0f docs/s  (%.1f us/doc, %.0f MB/s); kept %zu of %zu\n", n / best_chain,
              best_chain / n * 1e6, bytes / best_chain / 1e6, kept, docs.size());
  std::printf("  floor: %10.0f docs/s  (count code points and words; checksum %zu)\n",
              n / best_floor, checksum);
  std::printf("  chain cost = %.1f x floor; vs NeMo's ~150 docs/s/core floor: %.0f x\n",
              best_chain / best_floor, n / best_chain / 150.0);
  std::printf("  per stage (us/doc over the documents it saw; later stages see fewer):\n");
  for (size_t s = 0; s < stages.size(); ++s)
    std::printf("    %-30s %7.2f\n", names[s].c_str(), best_stage[s] / n * 1e6);
  return 0;
}
