#include "models/onnx_text_embedder.h"

#include <simdjson.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "models/split_on_oom.h"

namespace winnow {

namespace {

std::string describe(const std::vector<OnnxTensorInfo>& tensors) {
  std::string out;
  for (const auto& t : tensors) {
    if (!out.empty()) out += ", ";
    out += t.name + " " + t.element_type + "[";
    for (size_t i = 0; i < t.shape.size(); ++i) {
      out += (i ? "," : "") + (t.shape[i] < 0 ? std::string("?") : std::to_string(t.shape[i]));
    }
    out += "]";
  }
  return out;
}

bool integer_matrix(const OnnxTensorInfo& t) {
  return (t.element_type == "int64" || t.element_type == "int32") && t.shape.size() == 2;
}

}  // namespace

Result<std::unique_ptr<OnnxTextEmbedder>> OnnxTextEmbedder::load(
    const std::string& folder, const OnnxTextEmbedderOptions& options) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    return Status::errorf("model folder '{}' does not exist or is not a folder", folder);
  }
  auto embedder = std::make_unique<OnnxTextEmbedder>();
  embedder->options_ = options;
  // tokenizer.json (WordPiece, BPE or Unigram), else spm.model / tokenizer.model.
  auto tokenizer = load_text_tokenizer(folder);
  if (!tokenizer.is_ok()) return tokenizer.status();
  embedder->tokenizer_ = std::move(tokenizer).value();
  auto session = OnnxSession::load(folder + "/model.onnx", options.session);
  if (!session.is_ok()) return session.status();
  embedder->session_ = std::move(session).value();
  const OnnxSession& s = *embedder->session_;

  // Inputs: input_ids, and attention_mask and token_type_ids when the model has them; nothing
  // else can be fed.
  for (const OnnxTensorInfo& input : s.inputs()) {
    bool known = input.name == "input_ids" || input.name == "attention_mask" ||
                 input.name == "token_type_ids";
    if (!known || !integer_matrix(input)) {
      return Status::errorf(
          "ONNX model '{}/model.onnx': input {} is not one winnow can feed (input_ids, "
          "attention_mask, token_type_ids: int64 or int32 [batch, sequence]); its inputs are: {}",
          folder, input.name, describe(s.inputs()));
    }
  }
  if (!s.find_input("input_ids")) {
    return Status::errorf("ONNX model '{}/model.onnx' has no input_ids input; its inputs are: {}",
                          folder, describe(s.inputs()));
  }
  embedder->attention_mask_ = s.find_input("attention_mask") != nullptr;
  embedder->token_types_ = s.find_input("token_type_ids") != nullptr;

  // The output the pooling reads: a named one first, else the first of the right rank.
  const size_t rank = options.pooling == Pooling::kModel ? 2 : 3;
  if (!options.output.empty()) {
    const OnnxTensorInfo* t = s.find_output(options.output);
    if (t == nullptr || t->element_type != "float" || t->shape.size() != rank) {
      return Status::errorf(
          "ONNX model '{}/model.onnx' has no float output {} of rank {}; its outputs are: {}",
          folder, options.output, rank, describe(s.outputs()));
    }
    embedder->output_ = options.output;
  }
  // text_embeds: CLIP's text tower with its projection (CLIPTextModelWithProjection).
  const std::vector<const char*> preferred =
      rank == 3 ? std::vector<const char*>{"last_hidden_state", "token_embeddings"}
                : std::vector<const char*>{"sentence_embedding", "text_embeds", "pooler_output"};
  for (const char* name : preferred) {
    if (!embedder->output_.empty()) break;  // named by the caller
    const OnnxTensorInfo* t = s.find_output(name);
    if (t && t->element_type == "float" && t->shape.size() == rank) {
      embedder->output_ = name;
      break;
    }
  }
  for (const OnnxTensorInfo& t : s.outputs()) {
    if (embedder->output_.empty() && t.element_type == "float" && t.shape.size() == rank) {
      embedder->output_ = t.name;
    }
  }
  if (embedder->output_.empty()) {
    return Status::errorf(
        "ONNX model '{}/model.onnx' has no float {} output for pooling '{}'; its outputs are: {}",
        folder, rank == 3 ? "[batch, sequence, hidden]" : "[batch, hidden]",
        options.pooling == Pooling::kMean  ? "mean"
        : options.pooling == Pooling::kCls ? "cls"
                                           : "model",
        describe(s.outputs()));
  }

  auto max_tokens = resolve_max_tokens(folder, *embedder->tokenizer_, options.max_tokens);
  if (!max_tokens.is_ok()) return max_tokens.status();
  embedder->max_tokens_ = max_tokens.value();

  if (options.batch_memory > 0 && options.batching.by_length) {
    auto memory = text_model_memory(folder + "/model.onnx", options.session, embedder->output_,
                                    embedder->max_tokens_);
    if (!memory.is_ok()) return memory.status();
    const MemoryModel model = memory.value();
    const double budget = options.batch_memory;
    // One row of the longest length must fit, or every long document would fail at run time.
    if (model.max_rows(embedder->max_tokens_, budget) == 0) {
      return Status::errorf(
          "ONNX model '{}/model.onnx': a memory budget of {:.0f} MB holds no batch: one row of "
          "{} tokens needs about {:.0f} MB on the {} (memory model: {:.0f} + {:.1f}·rows·tokens "
          "+ {:.4f}·rows·tokens² bytes)",
          folder, budget / 1e6, embedder->max_tokens_,
          model.predict(1, embedder->max_tokens_) / 1e6, s.provider(), model.a, model.b, model.c);
    }
    // Said once per load, as the session's provider is: what the budget allows at the
    // longest length is what the user tunes batch_memory_mb by.
    std::fprintf(
        stderr,
        "winnow: model %s/model.onnx: memory model %.0f + %.1f*rows*tokens + "
        "%.4f*rows*tokens^2 bytes; a %.0f MB budget holds %zu rows of %zu tokens\n",
        folder.c_str(), model.a, model.b, model.c, budget / 1e6,
        std::min(model.max_rows(embedder->max_tokens_, budget), options.batching.max_batch_size),
        embedder->max_tokens_);
    embedder->memory_model_ = model;
    embedder->options_.batching.row_limit = [model, budget](size_t longest) {
      return model.max_rows(longest, budget);
    };
  }
  return embedder;
}

Result<size_t> OnnxTextEmbedder::resolve_max_tokens(const std::string& folder,
                                                    const TextTokenizer& tokenizer,
                                                    size_t requested) {
  namespace fs = std::filesystem;
  size_t max_tokens = requested;
  if (max_tokens == 0) max_tokens = tokenizer.max_length();
  if (max_tokens == 0 && fs::exists(folder + "/config.json")) {
    simdjson::dom::parser parser;
    simdjson::dom::element config;
    uint64_t positions = 0;
    if (parser.load(folder + "/config.json").get(config)) {
      return Status::errorf("'{}/config.json' is not valid JSON", folder);
    }
    if (!config["max_position_embeddings"].get(positions)) max_tokens = positions;
    // RoBERTa-family models number positions from padding_idx + 1 = 2: 514 positions hold 512
    // tokens.
    std::string_view type;
    if (!config["model_type"].get(type) && type.find("roberta") != std::string_view::npos &&
        max_tokens > 2) {
      max_tokens -= 2;
    }
  }
  return max_tokens == 0 ? size_t{512} : max_tokens;
}

void OnnxTextEmbedder::tokenize(std::string_view text, std::vector<int64_t>& ids) const {
  ids.clear();
  tokenizer_->encode(text, ids, max_tokens_);
}

Status OnnxTextEmbedder::embed(std::span<const std::string_view> texts,
                               std::vector<float>& out) const {
  std::vector<std::vector<int64_t>> tokens(texts.size());
  std::vector<std::span<const int64_t>> rows(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    tokenize(texts[i], tokens[i]);
    rows[i] = tokens[i];
  }
  return embed_tokens(rows, out);
}

Status OnnxTextEmbedder::embed_tokens(std::span<const std::span<const int64_t>> tokens,
                                      std::vector<float>& out) const {
  out.clear();
  std::vector<size_t> lengths(tokens.size());
  for (size_t i = 0; i < tokens.size(); ++i) {
    lengths[i] = tokens[i].size();
    if (lengths[i] > max_tokens_) {
      return Status::errorf("ONNX model '{}': a text of {} tokens was given, more than its {}",
                            session_->path(), lengths[i], max_tokens_);
    }
  }
  std::vector<std::vector<size_t>> batches = plan_batches(lengths, options_.batching);
  size_t dimensions = 0;
  for (const auto& batch : batches) {
    WINNOW_RETURN_IF_ERROR(embed_batch(batch, tokens, out, dimensions));
  }
  return Status::ok();
}

Status OnnxTextEmbedder::embed_batch(std::span<const size_t> batch,
                                     std::span<const std::span<const int64_t>> tokens,
                                     std::vector<float>& out, size_t& dimensions) const {
  return run_split_on_oom(
      batch, [&](std::span<const size_t> rows) { return run_batch(rows, tokens, out, dimensions); },
      [&](size_t row, const Status& status) {
        return Status::errorf(
            "ONNX model '{}': one document of {} tokens alone does not fit in memory on the {}: "
            "{}",
            session_->path(), tokens[row].size(), session_->provider(), status.message());
      });
}

Status OnnxTextEmbedder::run_batch(std::span<const size_t> batch,
                                   std::span<const std::span<const int64_t>> tokens,
                                   std::vector<float>& out, size_t& dimensions) const {
  std::vector<int64_t> ids, mask, types;
  std::vector<OnnxFloatTensor> outputs;
  const std::string names[] = {output_};
  size_t rows = batch.size(), columns = 0;
  for (size_t i : batch) columns = std::max(columns, tokens[i].size());
  columns = std::max<size_t>(columns, 1);  // a tokenizer without special tokens, empty texts
  // Padding trimmed to this batch's longest row.
  ids.assign(rows * columns, tokenizer_->pad_id());
  mask.assign(rows * columns, 0);
  types.assign(rows * columns, 0);
  for (size_t r = 0; r < rows; ++r) {
    const std::span<const int64_t> row = tokens[batch[r]];
    std::copy(row.begin(), row.end(), ids.begin() + r * columns);
    std::fill(mask.begin() + r * columns, mask.begin() + r * columns + row.size(), 1);
  }
  std::vector<OnnxIdMatrix> inputs = {{"input_ids", ids, int64_t(rows), int64_t(columns)}};
  if (attention_mask_) inputs.push_back({"attention_mask", mask, int64_t(rows), int64_t(columns)});
  if (token_types_) inputs.push_back({"token_type_ids", types, int64_t(rows), int64_t(columns)});
  WINNOW_RETURN_IF_ERROR(session_->run(inputs, names, outputs));
  const OnnxFloatTensor& result = outputs[0];
  size_t hidden = result.shape.empty() ? 0 : static_cast<size_t>(result.shape.back());
  if (dimensions == 0) {
    dimensions = hidden;
    out.assign(tokens.size() * dimensions, 0.0f);
  }
  if (hidden != dimensions || hidden == 0) {
    return Status::errorf("ONNX model '{}': output {} has {} values per row, not {}",
                          session_->path(), output_, hidden, dimensions);
  }
  for (size_t r = 0; r < rows; ++r) {
    float* target = out.data() + batch[r] * dimensions;
    const size_t real = tokens[batch[r]].size();
    if (options_.pooling == Pooling::kMean) {
      // Sum in double: the mean must not depend on the padding around it.
      std::vector<double> sum(dimensions, 0.0);
      for (size_t c = 0; c < real; ++c) {
        const float* state = result.values.data() + (r * columns + c) * dimensions;
        for (size_t h = 0; h < dimensions; ++h) sum[h] += state[h];
      }
      for (size_t h = 0; h < dimensions; ++h) {
        target[h] = real > 0 ? static_cast<float>(sum[h] / real) : 0.0f;
      }
    } else {
      const float* source = options_.pooling == Pooling::kCls
                                ? result.values.data() + r * columns * dimensions
                                : result.values.data() + r * dimensions;
      std::copy(source, source + dimensions, target);
    }
    double norm = 0;
    for (size_t h = 0; h < dimensions; ++h) norm += double(target[h]) * target[h];
    if (options_.normalize && norm > 0) {
      const double inverse = 1.0 / std::sqrt(norm);
      for (size_t h = 0; h < dimensions; ++h) target[h] = static_cast<float>(target[h] * inverse);
    }
  }
  return Status::ok();
}

}  // namespace winnow
