#include "models/token_classifier.h"

#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/number_text.h"
#include "models/onnx_text_embedder.h"
#include "models/split_on_oom.h"

namespace winnow {

namespace {

// The specials around a text: encode(probe) is prefix + encode_without_specials(probe) + suffix.
void find_specials(const TextTokenizer& tokenizer, std::vector<int64_t>& prefix,
                   std::vector<int64_t>& suffix) {
  std::vector<int64_t> all, body;
  tokenizer.encode("a", all, 0);
  tokenizer.encode_without_specials("a", body);
  auto at = std::search(all.begin(), all.end(), body.begin(), body.end());
  if (body.empty() || at == all.end()) {
    // No probe to find: take the encoding of empty text as a prefix (a tokenizer whose only
    // special is a beginning-of-text token, the usual case without a body).
    all.clear();
    tokenizer.encode("", all, 0);
    prefix = all;
    suffix.clear();
    return;
  }
  prefix.assign(all.begin(), at);
  suffix.assign(at + static_cast<std::ptrdiff_t>(body.size()), all.end());
}

Status check_inputs(const std::string& folder, const OnnxSession& s) {
  for (const OnnxTensorInfo& input : s.inputs()) {
    const bool known = input.name == "input_ids" || input.name == "attention_mask" ||
                       input.name == "token_type_ids";
    const bool integer = input.element_type == "int64" || input.element_type == "int32";
    if (!known || !integer || input.shape.size() != 2) {
      return Status::errorf(
          "ONNX model '{}/model.onnx': input {} is not one winnow can feed (input_ids, "
          "attention_mask, token_type_ids: integer [batch, sequence])",
          folder, input.name);
    }
  }
  if (!s.find_input("input_ids")) {
    return Status::errorf("ONNX model '{}/model.onnx' has no input_ids input", folder);
  }
  const OnnxTensorInfo* logits = s.find_output("logits");
  if (logits == nullptr || logits->element_type != "float" || logits->shape.size() != 3) {
    return Status::errorf(
        "ONNX model '{}/model.onnx' has no float logits output [batch, sequence, labels]: not a "
        "token classifier",
        folder);
  }
  return Status::ok();
}

}  // namespace

Result<std::vector<std::string>> read_id2label(const std::string& folder) {
  const std::string path = folder + "/config.json";
  simdjson::dom::parser parser;
  simdjson::dom::element config;
  if (parser.load(path).get(config)) {
    return Status::errorf("'{}' is missing or not valid JSON", path);
  }
  simdjson::dom::object id2label;
  if (config["id2label"].get(id2label)) return Status::errorf("'{}' has no id2label", path);
  std::map<int64_t, std::string> by_id;
  for (auto [key, value] : id2label) {
    std::string_view label;
    const int64_t id = parse_number<int64_t>(key).value_or(-1);
    if (id < 0 || value.get(label)) {
      return Status::errorf("'{}': id2label entry '{}' is not \"<id>\": \"<label>\"", path, key);
    }
    by_id[id] = std::string(label);
  }
  std::vector<std::string> labels;
  for (const auto& [id, label] : by_id) {
    if (id != static_cast<int64_t>(labels.size())) {
      return Status::errorf("'{}': id2label ids must be 0 to n-1", path);
    }
    labels.push_back(label);
  }
  if (labels.empty()) return Status::errorf("'{}' has an empty id2label", path);
  return labels;
}

Result<std::unique_ptr<TokenClassifier>> TokenClassifier::load(
    const std::string& folder, const TokenClassifierOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec)) {
    return Status::errorf("model folder '{}' does not exist or is not a folder", folder);
  }
  auto model = std::make_unique<TokenClassifier>();
  model->options_ = options;
  auto tokenizer = load_text_tokenizer(folder);
  if (!tokenizer.is_ok()) return tokenizer.status();
  model->tokenizer_ = std::move(tokenizer).value();
  auto session = OnnxSession::load(folder + "/model.onnx", options.session);
  if (!session.is_ok()) return session.status();
  model->session_ = std::move(session).value();
  WINNOW_RETURN_IF_ERROR(check_inputs(folder, *model->session_));
  model->attention_mask_ = model->session_->find_input("attention_mask") != nullptr;
  model->token_types_ = model->session_->find_input("token_type_ids") != nullptr;
  auto labels = read_id2label(folder);
  if (!labels.is_ok()) return labels.status();
  model->labels_ = std::move(labels).value();
  auto max_tokens =
      OnnxTextEmbedder::resolve_max_tokens(folder, *model->tokenizer_, options.max_tokens);
  if (!max_tokens.is_ok()) return max_tokens.status();
  model->max_tokens_ = max_tokens.value();
  find_specials(*model->tokenizer_, model->prefix_, model->suffix_);
  if (model->prefix_.size() + model->suffix_.size() >= model->max_tokens_) {
    return Status::errorf("model '{}': {} tokens leave no room between the special tokens", folder,
                          model->max_tokens_);
  }
  return model;
}

Status TokenClassifier::logits(std::span<const std::span<const int64_t>> rows,
                               std::vector<std::vector<float>>& out) const {
  out.assign(rows.size(), {});
  std::vector<size_t> lengths(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    lengths[i] = rows[i].size();
    if (lengths[i] > max_tokens_) {
      return Status::errorf("ONNX model '{}': a row of {} tokens was given, more than its {}",
                            session_->path(), lengths[i], max_tokens_);
    }
  }
  for (const auto& batch : plan_batches(lengths, options_.batching)) {
    WINNOW_RETURN_IF_ERROR(run_split_on_oom(
        batch, [&](std::span<const size_t> part) { return run_batch(part, rows, out); },
        [&](size_t row, const Status& status) {
          return Status::errorf(
              "ONNX model '{}': one row of {} tokens alone does not fit in "
              "memory on the {}: {}",
              session_->path(), rows[row].size(), session_->provider(), status.message());
        }));
  }
  return Status::ok();
}

Status TokenClassifier::run_batch(std::span<const size_t> batch,
                                  std::span<const std::span<const int64_t>> rows,
                                  std::vector<std::vector<float>>& out) const {
  size_t columns = 1;
  for (size_t i : batch) columns = std::max(columns, rows[i].size());
  const size_t n = batch.size();
  std::vector<int64_t> ids(n * columns, tokenizer_->pad_id()), mask(n * columns, 0),
      types(n * columns, 0);
  for (size_t r = 0; r < n; ++r) {
    const std::span<const int64_t> row = rows[batch[r]];
    std::copy(row.begin(), row.end(), ids.begin() + static_cast<std::ptrdiff_t>(r * columns));
    std::fill_n(mask.begin() + static_cast<std::ptrdiff_t>(r * columns), row.size(), 1);
  }
  std::vector<OnnxIdMatrix> inputs = {{"input_ids", ids, int64_t(n), int64_t(columns)}};
  if (attention_mask_) inputs.push_back({"attention_mask", mask, int64_t(n), int64_t(columns)});
  if (token_types_) inputs.push_back({"token_type_ids", types, int64_t(n), int64_t(columns)});
  static const std::string kNames[] = {"logits"};
  std::vector<OnnxFloatTensor> outputs;
  WINNOW_RETURN_IF_ERROR(session_->run(inputs, kNames, outputs));
  const OnnxFloatTensor& result = outputs[0];
  const size_t labels = labels_.size();
  if (result.shape.size() != 3 || size_t(result.shape[2]) != labels ||
      size_t(result.shape[1]) != columns) {
    return Status::errorf(
        "ONNX model '{}': logits of shape {}, not [{}, {}, {}] (config.json's "
        "{} labels)",
        session_->path(), shape_text(result.shape), n, columns, labels, labels);
  }
  for (size_t r = 0; r < n; ++r) {
    const float* from = result.values.data() + r * columns * labels;
    out[batch[r]].assign(from, from + rows[batch[r]].size() * labels);
  }
  return Status::ok();
}

}  // namespace winnow
