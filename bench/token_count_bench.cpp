// token_count / tokenizer_fertility throughput on one core (documents per CPU second) on real
// English documents of 2-5 KB (bench/make_filter_corpus: the Python manual and the Debian
// Reference), against a baseline measured in the same run on the same documents: one pass that
// counts code points (what text_length does).
//
//   build/bench/token_count_bench [DOCS.txt=build/bench/filters/docs.txt] [REPEATS=3]
//
// No published tokenizer.model can be had offline, so the SentencePiece models are trained
// here, on the first documents of the corpus (8,000 pieces: a unigram model as T5 uses, and a
// BPE model with byte fallback as Llama 2 uses); the timed documents are the others. Times are
// the thread's CPU time, best of REPEATS, fresh batches of 1,024 documents each repeat.
#include <fmt/format.h>
#include <sentencepiece_trainer.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.h"
#include "core/doc_batch.h"
#include "core/reason_table.h"
#include "core/utf8.h"
#include "stages/builtin_stages.h"
#include "models/sentencepiece_tokenizer.h"
#include "bench/bench_source_dir.h"

namespace winnow {
namespace {

const std::string kSource = winnow_bench_source_dir();
constexpr size_t kTrainDocs = 1000;
constexpr size_t kTimedDocs = 4000;

// Best documents per CPU second of `pass` over fresh batches.
double measure(const std::vector<std::string_view>& docs, int repeats,
               const std::function<void(std::vector<std::unique_ptr<DocBatch>>&)>& pass) {
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    auto batches = bench::make_doc_batches(docs, 1024);
    double start = bench::thread_cpu_seconds();
    pass(batches);
    best = std::min(best, bench::thread_cpu_seconds() - start);
  }
  return static_cast<double>(docs.size()) / best;
}

std::string train(const std::string& dir, const std::string& corpus, const std::string& type,
                  const std::string& extra) {
  std::string prefix = dir + "/bench-" + type;
  auto start = std::chrono::steady_clock::now();
  auto status = sentencepiece::SentencePieceTrainer::Train(
      "--input=" + corpus + " --model_prefix=" + prefix + " --model_type=" + type +
      " --vocab_size=8000 --num_threads=1 --shuffle_input_sentence=false --minloglevel=2 " + extra);
  if (!status.ok()) throw std::runtime_error(status.ToString());
  fmt::print("  trained {} model (8000 pieces) in {:.1f} s\n", type,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return prefix + ".model";
}

}  // namespace
}  // namespace winnow

int main(int argc, char** argv) {
  using namespace winnow;
  std::string docs_path = argc > 1 ? argv[1] : kSource + "/build/bench/filters/docs.txt";
  int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  std::string blob;
  std::vector<std::string_view> docs;
  try {
    docs = bench::load_filter_corpus(docs_path, kSource, blob);
  } catch (const std::exception& e) {
    fmt::print(stderr, "token_count_bench: {}\n", e.what());
    return 1;
  }
  if (docs.size() < kTrainDocs + 100) {
    fmt::print(stderr, "token_count_bench: {} holds only {} documents\n", docs_path, docs.size());
    return 1;
  }

  std::string dir =
      (std::filesystem::temp_directory_path() / ("winnow-token-bench-" + std::to_string(getpid())))
          .string();
  std::filesystem::create_directories(dir);
  {
    std::ofstream corpus(dir + "/train.txt");
    for (size_t i = 0; i < kTrainDocs; ++i) corpus << docs[i] << "\n";
  }
  std::string unigram = train(dir, dir + "/train.txt", "unigram", "");
  std::string bpe = train(dir, dir + "/train.txt", "bpe", "--byte_fallback=true");

  std::vector<std::string_view> timed(
      docs.begin() + kTrainDocs, docs.begin() + std::min(docs.size(), kTrainDocs + kTimedDocs));
  size_t bytes = 0;
  for (auto d : timed) bytes += d.size();
  fmt::print(
      "\n{} documents (not in the training text), mean {:.0f} bytes; 1 thread, CPU time, "
      "best of {}\n",
      timed.size(), double(bytes) / timed.size(), repeats);
  fmt::print("  {:<44} {:>10} {:>8} {:>10} {:>12}\n", "case", "docs/s", "MB/s", "vs base",
             "tokens/doc");

  size_t sink = 0;
  double base = measure(timed, repeats, [&](auto& batches) {
    for (auto& b : batches)
      for (size_t i = 0; i < b->size(); ++i) sink += count_code_points(b->text(i));
  });
  auto row = [&](const std::string& name, double rate, double tokens) {
    fmt::print("  {:<44} {:>10.0f} {:>8.2f} {:>9.4f}x {:>12.0f}\n", name, rate,
               rate * bytes / timed.size() / 1e6, rate / base, tokens);
  };
  row("baseline: count code points", base, 0);

  ReasonTable reasons;
  for (const auto& [label, model] : {std::pair{"unigram", unigram}, std::pair{"bpe", bpe}}) {
    auto tokenizer = SentencePieceTokenizer::load(model).value();
    size_t tokens = 0;
    for (auto d : timed) tokens += tokenizer->count(d);
    double per_doc = double(tokens) / timed.size();
    row(fmt::format("SentencePieceTokenizer::count ({})", label),
        measure(timed, repeats,
                [&](auto& batches) {
                  for (auto& b : batches)
                    for (size_t i = 0; i < b->size(); ++i) sink += tokenizer->count(b->text(i));
                }),
        per_doc);
    auto count_stage = bench::build_stage(token_count_spec(), {{"model", model}}, reasons);
    row(fmt::format("token_count stage ({})", label),
        measure(timed, repeats,
                [&](auto& batches) {
                  for (auto& b : batches) (void)count_stage->process(*b);
                }),
        per_doc);
    auto fertility = bench::build_stage(tokenizer_fertility_spec(), {{"model", model}}, reasons);
    row(fmt::format("tokenizer_fertility stage ({})", label),
        measure(timed, repeats,
                [&](auto& batches) {
                  for (auto& b : batches) (void)fertility->process(*b);
                }),
        per_doc);
  }
  std::filesystem::remove_all(dir);
  return sink == 42 ? 3 : 0;  // keeps the baseline's work
}
