// Length-aware batching against fixed batches of 32 and 256: padded-token fraction and
// documents per second of `embed` with a random BERT-style model on the CPU (one intra-op
// thread), on real documents of mixed lengths: every /usr/share/doc/*/copyright of this machine
// (licence texts from a few lines to many pages), truncated at 512 tokens.
//
//   build/bench/batching_bench [minilm|bert-base] [DOCS=384]
//
// minilm: 6 layers, 384 wide, 12 heads (all-MiniLM-L6-v2's shape); bert-base: 12 layers, 768
// wide, 12 heads. Weights are seeded random (no real weights can be had here): the cost of a
// forward pass depends on the shapes only. The model is built once by
// tests/models/bert_test_model.py (/usr/bin/python3 with python3-onnx) under the system temp
// folder. The tokenizer is a WordPiece tokenizer.json built from the documents' own words, so
// token counts are realistic. The baseline, measured in the same run, is fixed batches of 32.
//
// Memory: the model's memory model (models/memory_model.h) is fitted as `embed` fits it (its
// setup time printed), then checked against the peak measured on a fresh session at held-out
// shapes beyond the fitted range; one more row batches under a memory budget set to what the
// model predicts for the token budget's worst batch (16 rows of 512 tokens), so long batches
// are as large as under the 8,192-token budget and short ones may grow.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench_support.h"
#include "core/json_text.h"
#include "models/memory_model.h"
#include "models/onnx_text_embedder.h"
#include "bench/bench_source_dir.h"

namespace winnow {
namespace {

const std::string kSource = winnow_bench_source_dir();

std::vector<std::string> copyright_texts(size_t count) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/share/doc")) {
    if (std::filesystem::is_regular_file(entry.path() / "copyright")) {
      files.push_back(entry.path() / "copyright");
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> texts;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    texts.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (texts.size() == count) break;
  }
  return texts;
}

// A BERT-style uncased WordPiece tokenizer.json: ASCII characters (alone and as continuations)
// and the most frequent lowercased words of the texts, up to `size` entries.
std::string tokenizer_json(const std::vector<std::string>& texts, size_t size) {
  std::map<std::string, int> counts;
  for (const auto& text : texts) {
    std::string word;
    for (char c : text) {
      if (std::isalnum(static_cast<unsigned char>(c))) {
        word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      } else if (!word.empty()) {
        ++counts[word];
        word.clear();
      }
    }
  }
  std::vector<std::string> vocab = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};
  std::set<std::string> seen(vocab.begin(), vocab.end());
  for (int c = 33; c < 127; ++c) {
    for (std::string piece : {std::string(1, char(c)), "##" + std::string(1, char(c))}) {
      if (seen.insert(piece).second) vocab.push_back(piece);
    }
  }
  std::vector<std::pair<int, std::string>> order;
  for (const auto& [w, n] : counts) order.emplace_back(-n, w);
  std::sort(order.begin(), order.end());
  for (const auto& [n, w] : order) {
    if (vocab.size() >= size) break;
    if (seen.insert(w).second) vocab.push_back(w);
  }
  std::string json =
      R"({"version":"1.0","truncation":{"max_length":512},"added_tokens":[],)"
      R"("normalizer":{"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,)"
      R"("strip_accents":null,"lowercase":true},"pre_tokenizer":{"type":"BertPreTokenizer"},)"
      R"("post_processor":{"type":"BertProcessing","sep":["[SEP]",3],"cls":["[CLS]",2]},)"
      R"("model":{"type":"WordPiece","unk_token":"[UNK]","continuing_subword_prefix":"##",)"
      R"("max_input_chars_per_word":100,"vocab":{)";
  for (size_t i = 0; i < vocab.size(); ++i) {
    if (i) json += ",";
    append_json_string(json, vocab[i]);
    json += ":" + std::to_string(i);
  }
  return json + "}}}";
}

}  // namespace
}  // namespace winnow

int main(int argc, char** argv) {
  using namespace winnow;
  std::string preset = argc > 1 ? argv[1] : "minilm";
  size_t count = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 384;
  std::string shape = preset == "bert-base" ? "--layers 12 --hidden 768 --heads 12"
                                            : "--layers 6 --hidden 384 --heads 12";
  std::string folder =
      (std::filesystem::temp_directory_path() / ("winnow-batching-bench-" + preset)).string();
  if (!std::filesystem::exists(folder + "/model.onnx")) {
    fmt::print("building the {} model ({}) in {}\n", preset, shape, folder);
    std::string command = "/usr/bin/python3 " + kSource +
                          "/tests/models/bert_test_model.py build " + folder + " " + shape +
                          " --vocab 30522 --max-positions 512 --seed 5";
    if (std::system(command.c_str()) != 0) return 1;
  }
  std::vector<std::string> texts = copyright_texts(count);
  {
    std::ofstream out(folder + "/tokenizer.json");
    out << tokenizer_json(copyright_texts(100000), 30522);
  }
  std::vector<std::string_view> views(texts.begin(), texts.end());

  // The memory model, fitted once as the embed stage fits it, and checked at held-out shapes.
  const std::string model_path = folder + "/model.onnx";
  double start = bench::thread_cpu_seconds();
  auto memory = text_model_memory(model_path, {}, "last_hidden_state", 512);
  const double fit_seconds = bench::thread_cpu_seconds() - start;
  if (!memory.is_ok()) {
    fmt::print(stderr, "{}\n", memory.status().message());
    return 1;
  }
  const MemoryModel& fit = memory.value();
  fmt::print("\nmemory model ({:.2f} CPU s to measure and fit, shapes", fit_seconds);
  for (auto [rows, columns] : memory_probe_shapes(512)) fmt::print(" {}x{}", rows, columns);
  fmt::print("):\n  bytes = {:.0f} + {:.1f} * rows * tokens + {:.3f} * rows * tokens^2\n", fit.a,
             fit.b, fit.c);
  fmt::print("  {:<14} {:>12} {:>12} {:>8}\n", "held out", "measured MB", "predicted MB", "error");
  for (auto [rows, columns] :
       std::vector<std::pair<size_t, size_t>>{{8, 256}, {16, 384}, {16, 512}, {64, 128}}) {
    const std::pair<size_t, size_t> shape[] = {{rows, columns}};
    auto measured = measure_text_model_memory(model_path, {}, "last_hidden_state", shape);
    if (!measured.is_ok()) {
      fmt::print(stderr, "{}\n", measured.status().message());
      return 1;
    }
    const double bytes = measured->front().bytes, predicted = fit.predict(rows, columns);
    fmt::print("  {:<14} {:>12.1f} {:>12.1f} {:>7.1f}%\n", fmt::format("{} x {}", rows, columns),
               bytes / 1e6, predicted / 1e6, 100.0 * (predicted - bytes) / bytes);
  }
  const double budget = fit.predict(16, 512);

  struct Config {
    std::string name;
    BatchPlanOptions batching;
    double batch_memory = 0;
  };
  const Config configs[] = {
      {"fixed, 32 per batch (baseline)", {.by_length = false, .max_batch_size = 32}},
      {"fixed, 256 per batch", {.by_length = false, .max_batch_size = 256}},
      {"length-aware, 8192-token budget",
       {.by_length = true, .max_batch_size = 256, .max_batch_tokens = 8192, .window = 4096}},
      {"length-aware, 16384-token budget",
       {.by_length = true, .max_batch_size = 256, .max_batch_tokens = 16384, .window = 4096}},
      {fmt::format("length-aware, {:.0f} MB memory budget", budget / 1e6),
       {.by_length = true, .max_batch_size = 256, .max_batch_tokens = SIZE_MAX, .window = 4096},
       budget},
  };
  std::vector<size_t> lengths;
  double base = 0;
  for (const Config& config : configs) {
    OnnxTextEmbedderOptions options;
    options.batching = config.batching;
    options.batch_memory = config.batch_memory;
    auto embedder = OnnxTextEmbedder::load(folder, options);
    if (!embedder.is_ok()) {
      fmt::print(stderr, "{}\n", embedder.status().message());
      return 1;
    }
    if (lengths.empty()) {
      std::vector<int64_t> ids;
      size_t real = 0, truncated = 0;
      for (auto text : views) {
        embedder.value()->tokenize(text, ids);
        lengths.push_back(ids.size());
        real += ids.size();
        truncated += ids.size() == 512;
      }
      std::vector<size_t> sorted = lengths;
      std::sort(sorted.begin(), sorted.end());
      fmt::print(
          "\n{} model, {} documents (/usr/share/doc/*/copyright): tokens per document min {}, "
          "median {}, mean {:.0f}, max {}; {} cut at 512\n",
          preset, views.size(), sorted.front(), sorted[sorted.size() / 2],
          double(real) / sorted.size(), sorted.back(), truncated);
      fmt::print("  {:<36} {:>9} {:>10} {:>13} {:>10} {:>9}\n", "batching", "batches", "padded %",
                 "largest MB", "docs/s", "vs base");
    }
    BatchPlanOptions plan = config.batching;
    if (config.batch_memory > 0) {
      plan.row_limit = [&](size_t longest) { return fit.max_rows(longest, config.batch_memory); };
    }
    auto batches = plan_batches(lengths, plan);
    size_t real = 0;
    for (size_t l : lengths) real += l;
    size_t padded = padded_tokens(lengths, batches);
    std::vector<float> out;
    // Peak memory of the whole run: a private session would be a different session from the
    // embedder's; the prediction for the plan's costliest batch is printed instead.
    double costliest = 0;
    for (const auto& batch : batches) {
      size_t longest = 0;
      for (size_t i : batch) longest = std::max(longest, lengths[i]);
      costliest = std::max(costliest, fit.predict(batch.size(), longest));
    }
    start = bench::thread_cpu_seconds();
    if (!embedder.value()->embed(views, out).is_ok()) return 1;
    double seconds = bench::thread_cpu_seconds() - start;
    double rate = views.size() / seconds;
    if (base == 0) base = rate;
    fmt::print("  {:<36} {:>9} {:>9.1f}% {:>13.0f} {:>10.1f} {:>8.2f}x\n", config.name,
               batches.size(), 100.0 * (padded - real) / padded, costliest / 1e6, rate,
               rate / base);
  }
  return 0;
}
