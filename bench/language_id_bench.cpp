// Language ID and fastText quality throughput, one thread (documents/s per core), on real
// multilingual text gathered by scripts/make_langid_corpus, against a baseline measured in the
// same run: one pass over the same documents counting code points.
//
// Usage: build/bench/language_id_bench [SECONDS_PER_CASE=2] [ONLY=substring of case names]
// Runs from any folder; finds the corpus script and models/lid.176.ftz under the checkout
// (winnow_bench_source_dir()).
#include <fasttext/args.h>
#include <fasttext/fasttext.h>
#include <fmt/format.h>
#include <simdjson.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>

#include "bench_support.h"
#include "core/utf8.h"
#include "stages/builtin_stages.h"
#include "models/fasttext_model.h"
#include "bench/bench_source_dir.h"

namespace winnow {
namespace {

const std::string kSource = winnow_bench_source_dir();

struct Corpus {
  std::string name;
  std::vector<std::string> texts;
  size_t bytes = 0;
};

Corpus make_corpus(const std::string& dir, const std::string& name, int min_chars, int max_chars) {
  std::string path = fmt::format("{}/corpus-{}-{}.jsonl", dir, min_chars, max_chars);
  std::string command = fmt::format(
      "{}/scripts/make_langid_corpus {} --min-chars {} "
      "--max-chars {} --per-source 150 2>/dev/null",
      kSource, path, min_chars, max_chars);
  if (std::system(command.c_str()) != 0) throw std::runtime_error("make_langid_corpus failed");
  Corpus corpus{name, {}, 0};
  simdjson::dom::parser parser;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::string_view text = parser.parse(line)["text"];
    corpus.texts.emplace_back(text);
    corpus.bytes += text.size();
  }
  return corpus;
}

// A fastText quality classifier of the usual shape (dim 100, word bigrams): real prose (the
// corpus documents) against word salad drawn from the same words.
std::string train_quality_model(const std::string& dir, const Corpus& corpus) {
  std::mt19937 rng(5);
  std::vector<std::string> words;
  for (const auto& t : corpus.texts) {
    std::istringstream in(t);
    for (std::string w; in >> w;) words.push_back(w);
  }
  std::string train_path = dir + "/quality.train";
  std::ofstream train(train_path);
  for (const auto& t : corpus.texts) {
    std::string line = t;
    std::replace(line.begin(), line.end(), '\n', ' ');
    train << "__label__hq " << line << "\n__label__lq";
    for (int i = 0; i < 80; ++i) train << ' ' << words[rng() % words.size()];
    train << "\n";
  }
  train.close();
  fasttext::Args args;
  args.input = train_path;
  args.model = fasttext::model_name::sup;
  args.loss = fasttext::loss_name::softmax;
  args.minCount = 1;
  args.minn = 0;
  args.maxn = 0;
  args.lr = 0.5;
  args.dim = 100;
  args.wordNgrams = 2;
  args.bucket = 200000;
  args.epoch = 5;
  args.thread = 1;
  args.verbose = 0;
  fasttext::FastText model;
  model.train(args);
  std::string path = dir + "/quality.bin";
  model.saveModel(path);
  return path;
}

std::unique_ptr<DocBatch> make_batch(const Corpus& corpus) {
  // Records are "{}": stages here read only the text.
  std::string records;
  for (size_t i = 0; i < corpus.texts.size(); ++i) records += "{}\n";
  auto buffer = std::make_unique<char[]>(records.size() + kRecordPadding);
  std::memcpy(buffer.get(), records.data(), records.size());
  std::memset(buffer.get() + records.size(), 0, kRecordPadding);
  const char* base = buffer.get();
  auto batch = std::make_unique<DocBatch>();
  batch->set_raw_buffer(std::move(buffer), records.size());
  for (size_t i = 0; i < corpus.texts.size(); ++i) {
    batch->add_document(DocKey::make(0, i), std::to_string(i), false, corpus.texts[i],
                        std::string_view(base + 3 * i, 2), i + 1);
  }
  return batch;
}

// Best documents/s over repeated passes for about `seconds`; `setup` runs untimed before each.
double measure(
    const std::function<void()>& pass, size_t documents, double seconds,
    const std::function<void()>& setup = [] {}) {
  using clock = std::chrono::steady_clock;
  setup();
  pass();  // warm-up
  double best = 0;
  auto end = clock::now() + std::chrono::duration<double>(seconds);
  int runs = 0;
  while (clock::now() < end || runs < 3) {
    setup();
    auto start = clock::now();
    pass();
    double elapsed = std::chrono::duration<double>(clock::now() - start).count();
    best = std::max(best, documents / elapsed);
    ++runs;
  }
  return best;
}

}  // namespace
}  // namespace winnow

int main(int argc, char** argv) {
  using namespace winnow;
  double seconds = argc > 1 ? std::atof(argv[1]) : 2.0;
  std::string only = argc > 2 ? argv[2] : "";
  auto wanted = [&](const std::string& name) { return name.find(only) != std::string::npos; };
  std::string dir =
      (std::filesystem::temp_directory_path() / ("winnow-langid-bench-" + std::to_string(getpid())))
          .string();
  std::filesystem::create_directories(dir);
  std::vector<Corpus> corpora = {make_corpus(dir, "short (200-1200 chars)", 200, 1200),
                                 make_corpus(dir, "long (3000-6000 chars)", 3000, 6000)};
  std::string lid = kSource + "/models/lid.176.ftz";
  std::string quality = train_quality_model(dir, corpora[0]);

  fmt::print(
      "Language ID and fastText quality, 1 thread: documents per CPU-second (best pass of "
      "~{} s)\n",
      seconds);
  for (const Corpus& corpus : corpora) {
    auto batch = make_batch(corpus);
    size_t n = corpus.texts.size();
    fmt::print("\n{}: {} documents, mean {:.0f} bytes\n", corpus.name, n, double(corpus.bytes) / n);
    fmt::print("  {:<34} {:>12} {:>9} {:>10}\n", "case", "docs/s", "MB/s", "vs base");
    size_t sink = 0;
    double base = measure(
        [&] {
          for (size_t i = 0; i < n; ++i) sink += count_code_points(batch->text(i));
        },
        n, seconds);
    auto row = [&](const std::string& name, double rate) {
      fmt::print("  {:<34} {:>12.0f} {:>9.1f} {:>9.3f}x\n", name, rate,
                 rate * corpus.bytes / n / 1e6, rate / base);
    };
    row("baseline: count code points", base);
    ReasonTable reasons;
    // min_score 0 and no language list: nothing is dropped, so every pass does the same work.
    if (wanted("language_id cld2")) {
      auto cld2 = bench::build_stage(language_id_spec(), {{"min_score", 0.0}}, reasons);
      row("language_id cld2", measure([&] { (void)cld2->process(*batch); }, n, seconds));
      auto cld2_prefix =
          bench::build_stage(language_id_spec(), {{"min_score", 0.0}, {"max_chars", int64_t{2000}}}, reasons);
      row("language_id cld2, max_chars 2000",
          measure([&] { (void)cld2_prefix->process(*batch); }, n, seconds));
    }
    if (wanted("language_id fasttext")) {
      auto ft = bench::build_stage(language_id_spec(),
                      {{"backend", std::string("fasttext")}, {"model", lid}, {"min_score", 0.0}},
                      reasons);
      row("language_id fasttext lid.176.ftz",
          measure([&] { (void)ft->process(*batch); }, n, seconds));
    }
    // These stages drop or rewrite documents: each pass gets a fresh batch, made untimed.
    std::unique_ptr<DocBatch> fresh;
    auto refresh = [&] { fresh = make_batch(corpus); };
    if (wanted("fasttext_quality")) {
      auto q = bench::build_stage(fasttext_quality_spec(), {{"model", quality}}, reasons);
      row("fasttext_quality (dim 100, bigrams)",
          measure([&] { (void)q->process(*fresh); }, n, seconds, refresh));
    }
    if (wanted("predict")) {
      // Each model alone, both ways, to show what winnow's reading (and, for the dense quality
      // model, its forward pass) save over libfasttext's in the same run.
      for (const auto& [name, path] : {std::pair{"quality", quality}, std::pair{"lid.176", lid}}) {
        auto model = FastTextModel::load(path).value();
        std::vector<FastTextPrediction> out;
        auto all = [&](bool reference) {
          return [&, reference] {
            for (size_t i = 0; i < n; ++i) {
              if (reference) {
                model->predict_reference(batch->text(i), 1, out);
              } else {
                model->predict(batch->text(i), 1, out);
              }
            }
          };
        };
        row(fmt::format("  {} predict, libfasttext", name), measure(all(true), n, seconds));
        row(fmt::format("  {} predict, winnow", name), measure(all(false), n, seconds));
      }
    }
    if (wanted("unicode_fix")) {
      auto fix = bench::build_stage(unicode_fix_spec(), {}, reasons);
      row("unicode_fix (NFC)", measure([&] { (void)fix->process(*fresh); }, n, seconds, refresh));
    }
    if (sink == 0) fmt::print("(empty corpus)\n");
  }
  std::filesystem::remove_all(dir);
  return 0;
}
