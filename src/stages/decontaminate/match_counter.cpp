#include "stages/decontaminate/match_counter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <vector>

#include "dist/comm.h"
#include "io/atomic_file.h"
#include "stages/decontaminate/contamination_splitter.h"

namespace winnow {

namespace {

constexpr const char* kResultFile = "too_common.txt";

// (fingerprint, count) pairs as raw bytes, for all_gather.
std::string encode_counts(const std::unordered_map<uint64_t, uint64_t>& counts) {
  std::string out(counts.size() * 16, '\0');
  size_t at = 0;
  for (const auto& [fp, n] : counts) {
    std::memcpy(out.data() + at, &fp, 8);
    std::memcpy(out.data() + at + 8, &n, 8);
    at += 16;
  }
  return out;
}

}  // namespace

Status TaskMatchCounter::begin_identify(const GlobalStepContext& context) {
  context_ = context;
  counts_.clear();
  too_common_.clear();
  found_ = 0;
  return Status::ok();
}

Status TaskMatchCounter::observe(const DocBatch& batch) {
  ContaminationSplitter splitter(*tasks_);
  std::unordered_map<uint64_t, uint64_t> local;
  for (size_t i = 0; i < batch.size(); ++i) {
    if (!batch.kept(i) || batch.kind(i) != ItemKind::kDocument) continue;
    const std::string_view text = batch.text(i);
    splitter.reset(text);
    size_t from = 0;
    while (from < text.size()) {
      std::optional<TaskMatch> match = splitter.first_match(from);
      if (!match) break;
      ++local[match->fingerprint];
      from = match->end;
    }
  }
  if (local.empty()) return Status::ok();
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [fp, n] : local) counts_[fp] += n;
  return Status::ok();
}

Status TaskMatchCounter::finish_identify() {
  std::unordered_map<uint64_t, uint64_t> total;
  if (context_.comm) {
    for (const std::string& part : context_.comm->all_gather(encode_counts(counts_))) {
      for (size_t at = 0; at + 16 <= part.size(); at += 16) {
        uint64_t fp = 0, n = 0;
        std::memcpy(&fp, part.data() + at, 8);
        std::memcpy(&n, part.data() + at + 8, 8);
        total[fp] += n;
      }
    }
  } else {
    total = counts_;
  }
  counts_.clear();
  found_ = total.size();
  std::vector<uint64_t> common;
  for (const auto& [fp, n] : total) {
    if (n > max_matches_) common.push_back(fp);
  }
  std::sort(common.begin(), common.end());
  too_common_.insert(common.begin(), common.end());
  if (context_.comm && context_.comm->rank() != 0) return Status::ok();
  std::string text = fmt::format("found {}\n", found_);
  for (uint64_t fp : common) text += fmt::format("{:016x}\n", fp);
  return AtomicFile::write_whole(context_.result_dir + "/" + kResultFile, text);
}

Status TaskMatchCounter::load_result(const std::string& result_dir) {
  const std::string path = result_dir + "/" + kResultFile;
  std::ifstream in(path);
  std::string word;
  if (!(in >> word >> found_) || word != "found") {
    return Status::errorf("{}: not a decontaminate result", path);
  }
  too_common_.clear();
  std::string hex;
  while (in >> hex) too_common_.insert(std::stoull(hex, nullptr, 16));
  return Status::ok();
}

std::string TaskMatchCounter::summary_json() const {
  return fmt::format(R"({{"task_ngrams_found":{},"too_common":{},"max_matches":{}}})", found_,
                     too_common_.size(), max_matches_);
}

std::string TaskMatchCounter::summary_text() const {
  return fmt::format(
      "{} task n-grams found in the corpus; {} found more than {} times are not removed", found_,
      too_common_.size(), max_matches_);
}

}  // namespace winnow
