// embed (hashed embedder) throughput on one core, in documents per CPU second, on real English
// documents of 2-5 KB (bench/make_filter_corpus: the Python manual and the Debian Reference),
// whole and cut to 3 KB, against a baseline measured in the same run on the same documents:
// XXH3 over each document's bytes (the least any per-document hash of the text costs).
//
//   build/bench/embed_bench [DOCS.txt=build/bench/filters/docs.txt] [REPEATS=3]
//
// Target (issue #13): 20,000 documents/s per core on 3 KB documents at 384 dimensions. Times are
// the thread's CPU time, best of REPEATS, fresh batches of 1,024 documents each repeat.
#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "bench_support.h"
#include "core/utf8.h"
#include "stages/builtin_stages.h"
#include "bench/bench_source_dir.h"

namespace winnow {
namespace {

const std::string kSource = winnow_bench_source_dir();

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

// The longest prefix of `text` of at most `bytes` bytes that ends on a code point boundary.
std::string_view cut(std::string_view text, size_t bytes) {
  if (text.size() <= bytes) return text;
  while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;
  return text.substr(0, bytes);
}

void compare(const char* title, const std::vector<std::string_view>& docs, int repeats) {
  size_t bytes = 0;
  for (auto d : docs) bytes += d.size();
  fmt::print("\n{}: {} documents, mean {:.0f} bytes; 1 thread, CPU time, best of {}\n", title,
             docs.size(), double(bytes) / docs.size(), repeats);
  fmt::print("  {:<40} {:>10} {:>8} {:>10}\n", "case", "docs/s", "MB/s", "vs XXH3");
  uint64_t sink = 0;
  double base = measure(docs, repeats, [&](auto& batches) {
    for (auto& batch : batches) {
      for (size_t i = 0; i < batch->size(); ++i) {
        sink += XXH3_64bits(batch->text(i).data(), batch->text(i).size());
      }
    }
  });
  auto row = [&](const std::string& name, double rate) {
    fmt::print("  {:<40} {:>10.0f} {:>8.1f} {:>9.3f}x\n", name, rate,
               rate * bytes / docs.size() / 1e6, rate / base);
  };
  row("baseline: XXH3 of each document", base);
  for (int64_t dimensions : {384, 768}) {
    ReasonTable reasons;
    auto stage = bench::build_stage(embed_spec(), {{"dimensions", dimensions}}, reasons);
    double rate = measure(docs, repeats, [&](auto& batches) {
      for (auto& batch : batches) {
        if (!stage->process(*batch).is_ok()) std::abort();
        sink += batch->find_annotation("embedding")->vector_at(0).size();
      }
    });
    row(fmt::format("embed hashed, {} dimensions", dimensions), rate);
  }
  if (sink == 42) fmt::print(" ");
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
    fmt::print(stderr, "embed_bench: {}\n", e.what());
    return 1;
  }
  std::vector<std::string_view> cut_docs;
  if (docs.size() > 8000) docs.resize(8000);
  for (auto d : docs) {
    if (d.size() >= 3000) cut_docs.push_back(cut(d, 3000));
  }
  compare("Whole documents", docs, repeats);
  compare("Documents cut to 3 KB (those of 3 KB or more)", cut_docs, repeats);
  return 0;
}
