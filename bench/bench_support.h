#pragma once
// What the in-process benchmarks share: a per-thread CPU clock (on a machine shared with other
// jobs wall time measures the neighbours, the thread's CPU seconds measure the code), batches
// built from plain texts as a reader would hand them over, and a stage built from parameter
// values the way `winnow run` builds it from YAML.
#include <time.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/doc_batch.h"
#include "core/reason_table.h"
#include "core/stage.h"
#include "core/stage_params.h"

namespace winnow::bench {

inline double thread_cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// The NUL-separated texts of bench/make_filter_corpus's DOCS.txt (real documents from this
// machine), built first with the script under `source_dir` where the file is missing. `blob`
// holds the bytes the views point into. Throws when the corpus cannot be made.
inline std::vector<std::string_view> load_filter_corpus(const std::string& docs_path,
                                                        const std::string& source_dir,
                                                        std::string& blob) {
  if (!std::filesystem::exists(docs_path)) {
    std::string dir = std::filesystem::path(docs_path).parent_path().string();
    std::string command = source_dir + "/bench/make_filter_corpus " + dir;
    if (std::system(command.c_str()) != 0) throw std::runtime_error(command + " failed");
  }
  std::ifstream in(docs_path, std::ios::binary);
  blob.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::vector<std::string_view> docs;
  for (size_t start = 0; start < blob.size();) {
    size_t end = std::min(blob.find('\0', start), blob.size());
    docs.emplace_back(blob.data() + start, end - start);
    start = end + 1;
  }
  return docs;
}

// Batches of `batch_size` documents whose texts are `docs` (which must outlive them); keys
// are (shard 0, position), so seeded stages decide the same way every run.
inline std::vector<std::unique_ptr<DocBatch>> make_doc_batches(
    const std::vector<std::string_view>& docs, size_t batch_size) {
  static const char kRecord[kRecordPadding + 2] = "{}";
  std::vector<std::unique_ptr<DocBatch>> batches;
  for (size_t start = 0; start < docs.size(); start += batch_size) {
    auto batch = std::make_unique<DocBatch>();
    size_t end = std::min(docs.size(), start + batch_size);
    batch->reserve(end - start);
    for (size_t i = start; i < end; ++i) {
      batch->add_document(DocKey::make(0, i), "id", false, docs[i], std::string_view(kRecord, 2),
                          i + 1);
    }
    batches.push_back(std::move(batch));
  }
  return batches;
}

// Throws with the stage's own message when a parameter or its model is wrong.
inline std::unique_ptr<Stage> build_stage(const StageSpec& spec,
                                          const std::map<std::string, StageParams::Value>& values,
                                          ReasonTable& reasons) {
  StageContext context(reasons, spec.name, 0, 42);
  auto params = StageParams::from_values(values, spec.params, spec.name);
  if (!params.is_ok()) throw std::runtime_error(params.status().message());
  auto stage = spec.make(params.value(), context);
  if (!stage.is_ok()) throw std::runtime_error(stage.status().message());
  return std::move(stage).value();
}

}  // namespace winnow::bench
