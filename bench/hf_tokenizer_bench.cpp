// Tokenizer throughput on one core: winnow's TextTokenizer on a tokenizer.json (gemma3, llama3,
// qwen3...) encoding a JSON array of texts, in tokens per CPU second; bench/hf_tokenizer.sh runs
// it beside Hugging Face's tokenizers (bench/hf_tokenizer_bench.js) on the same texts.
//
//   build/bench/hf_tokenizer_bench TOKENIZER.json TEXTS.json [REPEATS=3]
//
// Prints one JSON object: tokens per pass, the first pass's rate (the word cache empty) and the
// best of REPEATS passes.
#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_support.h"
#include "models/text_tokenizer.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: hf_tokenizer_bench TOKENIZER.json TEXTS.json [REPEATS=3]\n");
    return 2;
  }
  auto tokenizer = winnow::load_text_tokenizer(argv[1]);
  if (!tokenizer.is_ok()) {
    fmt::print(stderr, "{}\n", tokenizer.status().message());
    return 2;
  }
  int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
  simdjson::dom::parser parser;
  std::vector<std::string> texts;
  for (std::string_view text : parser.load(argv[2]).get_array()) texts.emplace_back(text);
  size_t tokens = 0;
  double first = 0, best = 1e30;
  std::vector<int64_t> ids;
  for (int r = 0; r < std::max(repeats, 1); ++r) {
    double start = winnow::bench::thread_cpu_seconds();
    tokens = 0;
    for (const std::string& text : texts) {
      ids.clear();
      tokenizer.value()->encode(text, ids);
      tokens += ids.size();
    }
    double seconds = winnow::bench::thread_cpu_seconds() - start;
    if (r == 0) first = seconds;
    best = std::min(best, seconds);
  }
  fmt::print(
      "{{\"texts\": {}, \"tokens\": {}, \"first_tokens_per_s\": {:.0f}, "
      "\"best_tokens_per_s\": {:.0f}}}\n",
      texts.size(), tokens, tokens / first, tokens / best);
  return 0;
}
