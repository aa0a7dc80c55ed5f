#include "models/fasttext_model.h"

#include <fasttext/dictionary.h>
#include <fasttext/fasttext.h>

#include <cmath>
#include <filesystem>
#include <istream>
#include <map>
#include <mutex>
#include <streambuf>

namespace winnow {

namespace {

// An input stream over bytes we already hold, so a document is not copied a second time.
class ViewStreambuf final : public std::streambuf {
 public:
  ViewStreambuf(char* begin, char* end) { setg(begin, begin, end); }
};

std::mutex& cache_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::map<std::string, std::weak_ptr<const FastTextModel>>& cache() {
  static std::map<std::string, std::weak_ptr<const FastTextModel>> models;
  return models;
}

}  // namespace

FastTextModel::~FastTextModel() = default;

Result<std::shared_ptr<const FastTextModel>> FastTextModel::load(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return Status::errorf("fastText model '{}' does not exist or is not a file", path);
  }
  std::string key = std::filesystem::canonical(path, ec).string();
  if (ec) key = path;

  std::lock_guard<std::mutex> lock(cache_mutex());
  if (auto shared = cache()[key].lock()) return shared;

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
  model->path_ = path;
  cache()[key] = model;
  return std::shared_ptr<const FastTextModel>(std::move(model));
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

void FastTextModel::predict(std::string_view text, int k,
                            std::vector<FastTextPrediction>& out) const {
  thread_local std::string line;
  thread_local std::vector<int32_t> words, labels;
  thread_local fasttext::Predictions predictions;
  out.clear();
  // fastText ends a line at '\n'; the whole document is one line, closed by one '\n' so the
  // end-of-sentence token is counted as Python's predict() counts it.
  line.assign(text);
  for (char& c : line) {
    if (c == '\n') c = ' ';
  }
  line += '\n';
  ViewStreambuf buffer(line.data(), line.data() + line.size());
  std::istream in(&buffer);
  dictionary_->getLine(in, words, labels);
  predictions.clear();
  if (words.empty()) return;
  model_->predict(k, words, predictions, 0.0f);
  for (const auto& [log_probability, label] : predictions) {
    out.push_back({label, std::exp(log_probability)});
  }
}

}  // namespace winnow
