#include "models/fasttext_model.h"

#include <fasttext/densematrix.h>
#include <fasttext/dictionary.h>
#include <fasttext/fasttext.h>
#include <math.h>
#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <istream>
#include <streambuf>

#include "models/shared_model_cache.h"

namespace winnow {

namespace {

// The forward pass reads one row per token from an input matrix far larger than the caches
// (a quality model's: 80 MB and more), each read a TLB miss too with 4 KB pages. Backing the
// matrix with 2 MB pages (the kernel's transparent huge pages, in place: MADV_COLLAPSE where
// the kernel has it, Linux 6.1 and later, else a hint for khugepaged) leaves the numbers as
// they are and removes most of those misses. Best effort: nothing fails without it.
void back_with_huge_pages(const float* data, int64_t count) {
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const auto begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const auto end = (reinterpret_cast<uintptr_t>(data + count)) & ~(kHuge - 1);
  if (end <= begin) return;
  void* start = reinterpret_cast<void*>(begin);
  madvise(start, end - begin, MADV_HUGEPAGE);
#ifndef MADV_COLLAPSE
  constexpr int MADV_COLLAPSE = 25;
#endif
  madvise(start, end - begin, MADV_COLLAPSE);
}

// An input stream over bytes we already hold, so a document is not copied a second time.
class ViewStreambuf final : public std::streambuf {
 public:
  ViewStreambuf(char* begin, char* end) { setg(begin, begin, end); }
};

}  // namespace

FastTextModel::~FastTextModel() = default;

Result<std::shared_ptr<const FastTextModel>> FastTextModel::load(const std::string& path) {
  return load_shared_model<FastTextModel>("fastText model", path, [&path] {
    return read_file(path);
  });
}

Result<std::shared_ptr<FastTextModel>> FastTextModel::read_file(const std::string& path) {
  std::shared_ptr<FastTextModel> model(new FastTextModel());
  model->model_ = std::make_unique<fasttext::FastText>();
  try {
    model->model_->loadModel(path);
  } catch (const std::exception& e) {
    return Status::errorf("cannot load fastText model '{}': {}", path, e.what());
  }
  const fasttext::Args args = model->model_->getArgs();
  if (args.model != fasttext::model_name::sup) {
    return Status::errorf(
        "fastText model '{}' is not a supervised (classification) model; it was trained as {}",
        path, args.model == fasttext::model_name::cbow ? "cbow" : "skipgram");
  }
  auto dict = model->model_->getDictionary();
  model->dictionary_ = dict;
  if (dict->nlabels() == 0) return Status::errorf("fastText model '{}' has no labels", path);
  model->label_prefix_ = args.label;
  for (int32_t i = 0; i < dict->nlabels(); ++i) {
    std::string label = dict->getLabel(i);
    if (label.compare(0, args.label.size(), args.label) == 0) label.erase(0, args.label.size());
    model->labels_.push_back(std::move(label));
  }
  if (args.loss == fasttext::loss_name::softmax && !model->model_->isQuant()) {
    model->input_ = model->model_->getInputMatrix();
    back_with_huge_pages(model->input_->data(), model->input_->size(0) * model->input_->size(1));
    model->output_ = model->model_->getOutputMatrix();
  }
  model->vocabulary_ = FastTextVocabulary::build(*model->model_);
  model->path_ = path;
  return model;
}

int32_t FastTextModel::find_label(std::string_view label) const {
  if (label.substr(0, label_prefix_.size()) == label_prefix_)
    label.remove_prefix(label_prefix_.size());
  for (size_t i = 0; i < labels_.size(); ++i) {
    if (labels_[i] == label) return static_cast<int32_t>(i);
  }
  return -1;
}

std::string FastTextModel::labels_text() const {
  std::string joined;
  for (const auto& label : labels_) joined += (joined.empty() ? "" : ", ") + label;
  return joined;
}

namespace {

// The document as fastText's word and n-gram ids: one line, newlines read as spaces, ended by
// '\n' so the end-of-sentence token is counted as Python's predict() counts it.
const std::vector<int32_t>& line_ids(const fasttext::Dictionary& dictionary,
                                     std::string_view text) {
  thread_local std::string line;
  thread_local std::vector<int32_t> words, labels;
  line.assign(text);
  for (char& c : line) {
    if (c == '\n') c = ' ';
  }
  line += '\n';
  ViewStreambuf buffer(line.data(), line.data() + line.size());
  std::istream in(&buffer);
  dictionary.getLine(in, words, labels);
  return words;
}

// fastText's ordering of predictions (Loss::findKBest's heap): higher log-probability first.
bool better(const std::pair<float, int32_t>& l, const std::pair<float, int32_t>& r) {
  return l.first > r.first;
}

}  // namespace

void FastTextModel::predict(std::string_view text, int k,
                            std::vector<FastTextPrediction>& out) const {
  out.clear();
  thread_local std::vector<int32_t> ids;
  const std::vector<int32_t>* line = &ids;
  if (vocabulary_) {
    vocabulary_->line_ids(text, ids);
  } else {
    line = &line_ids(*dictionary_, text);
  }
  const std::vector<int32_t>& words = *line;
  if (words.empty()) return;
  if (input_) {
    predict_softmax(words, k, out);
    return;
  }
  thread_local fasttext::Predictions predictions;
  predictions.clear();
  model_->predict(k, words, predictions, 0.0f);
  for (const auto& [log_probability, label] : predictions) {
    out.push_back({label, std::exp(log_probability)});
  }
}

void FastTextModel::predict_reference(std::string_view text, int k,
                                      std::vector<FastTextPrediction>& out) const {
  out.clear();
  const std::vector<int32_t>& words = line_ids(*dictionary_, text);
  if (words.empty()) return;
  fasttext::Predictions predictions;
  model_->predict(k, words, predictions, 0.0f);
  for (const auto& [log_probability, label] : predictions) {
    out.push_back({label, std::exp(log_probability)});
  }
}

void FastTextModel::predict_softmax(const std::vector<int32_t>& words, int k,
                                    std::vector<FastTextPrediction>& out) const {
  const int64_t dim = input_->cols();
  const int64_t labels = output_->rows();
  thread_local std::vector<float> hidden, output;
  hidden.assign(dim, 0.0f);
  output.resize(labels);
  const float* in = input_->data();
  // Model::computeHidden: the rows summed in order, then scaled by 1 / count. The row a few
  // tokens ahead is fetched while this one is added: the rows are scattered over a matrix far
  // larger than the caches.
  constexpr size_t kAhead = 16;
  const size_t n = words.size();
  auto prefetch = [&](size_t t) {
    const char* row = reinterpret_cast<const char*>(in + words[t] * dim);
    for (int64_t byte = 0; byte < dim * int64_t(sizeof(float)); byte += 64) {
      __builtin_prefetch(row + byte);
    }
  };
  for (size_t t = 0; t < std::min(n, kAhead); ++t) prefetch(t);
  for (size_t t = 0; t < n; ++t) {
    if (t + kAhead < n) prefetch(t + kAhead);
    const float* row = in + words[t] * dim;
    for (int64_t j = 0; j < dim; ++j) hidden[j] += row[j];
  }
  const float scale = static_cast<float>(1.0 / n);
  for (int64_t j = 0; j < dim; ++j) hidden[j] *= scale;
  // SoftmaxLoss::computeOutput: one dot product per label, then a softmax.
  const float* wo = output_->data();
  for (int64_t i = 0; i < labels; ++i) {
    float d = 0.0f;
    for (int64_t j = 0; j < dim; ++j) d += wo[i * dim + j] * hidden[j];
    output[i] = d;
  }
  float max = output[0], z = 0.0f;
  for (int64_t i = 0; i < labels; ++i) max = std::max(output[i], max);
  for (int64_t i = 0; i < labels; ++i) {
    // fastText calls the C library's double exp on a float (unqualified exp in its source).
    output[i] = static_cast<float>(::exp(static_cast<double>(output[i] - max)));
    z += output[i];
  }
  for (int64_t i = 0; i < labels; ++i) output[i] /= z;
  // Loss::findKBest with threshold 0: a heap of the k best log-probabilities (log(p + 1e-5)).
  const size_t best = k < 0 ? static_cast<size_t>(labels) : static_cast<size_t>(k);
  thread_local std::vector<std::pair<float, int32_t>> heap;
  heap.clear();
  for (int64_t i = 0; i < labels; ++i) {
    if (output[i] < 0.0f) continue;
    const float log_p = static_cast<float>(std::log(output[i] + 1e-5));
    if (heap.size() == best && log_p < heap.front().first) continue;
    heap.emplace_back(log_p, static_cast<int32_t>(i));
    std::push_heap(heap.begin(), heap.end(), better);
    if (heap.size() > best) {
      std::pop_heap(heap.begin(), heap.end(), better);
      heap.pop_back();
    }
  }
  std::sort_heap(heap.begin(), heap.end(), better);
  for (const auto& [log_probability, label] : heap) {
    out.push_back({label, std::exp(log_probability)});
  }
}

}  // namespace winnow
