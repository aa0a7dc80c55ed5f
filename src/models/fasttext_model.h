#pragma once
// FastTextModel: a supervised fastText model (libfasttext), loaded once and shared by every
// worker. Prediction reads a document as one line, as NeMo Curator and datatrove do: newlines
// become spaces and the line ends with the end-of-sentence token, like Python's
// `model.predict(text.replace("\n", " "))`, so scores match theirs.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "models/fasttext_vocabulary.h"

namespace fasttext {
class DenseMatrix;
class Dictionary;
class FastText;
}  // namespace fasttext

namespace winnow {

struct FastTextPrediction {
  int32_t label = 0;         // index into FastTextModel::labels()
  float probability = 0.0f;  // as fastText reports it: softmax / tree probability + 1e-5
};

class FastTextModel {
 public:
  // Loads the model at `path`; a model already loaded from the same file is shared. Errors
  // say what is wrong with the file (missing, not a fastText model, not supervised).
  static Result<std::shared_ptr<const FastTextModel>> load(const std::string& path);

  ~FastTextModel();
  FastTextModel(const FastTextModel&) = delete;
  FastTextModel& operator=(const FastTextModel&) = delete;

  // The k most probable labels, best first (k = -1: every label fastText reports, which leaves
  // out those below about 1e-5). Even an empty text has the end-of-line token; the result is
  // empty only when the model knows none of the tokens. Thread-safe (thread_local scratch).
  void predict(std::string_view text, int k, std::vector<FastTextPrediction>& out) const;
  // The same through libfasttext's own Model::predict, for tests of the fast path.
  void predict_reference(std::string_view text, int k, std::vector<FastTextPrediction>& out) const;

  // Labels without the model's prefix ("__label__en" -> "en").
  const std::vector<std::string>& labels() const { return labels_; }
  const std::string& label_prefix() const { return label_prefix_; }
  // The index of a label given with or without the prefix, or -1.
  int32_t find_label(std::string_view label) const;
  // The labels as a comma-separated list, for error messages.
  std::string labels_text() const;
  const std::string& path() const { return path_; }

 private:
  FastTextModel() = default;
  // Reads and checks the file (no sharing: load() shares).
  static Result<std::shared_ptr<FastTextModel>> read_file(const std::string& path);

  std::unique_ptr<fasttext::FastText> model_;
  std::shared_ptr<const fasttext::Dictionary> dictionary_;  // held to avoid a refcount per call
  // Softmax models with dense matrices (quality classifiers) take predict_softmax(): fastText's
  // own arithmetic in its own order, with the next rows prefetched (the pass is memory-bound).
  std::shared_ptr<const fasttext::DenseMatrix> input_, output_;
  // Models without subwords or pruning read their tokens through our compact vocabulary.
  std::unique_ptr<FastTextVocabulary> vocabulary_;

  void predict_softmax(const std::vector<int32_t>& words, int k,
                       std::vector<FastTextPrediction>& out) const;
  std::vector<std::string> labels_;
  std::string label_prefix_;
  std::string path_;
};

}  // namespace winnow
