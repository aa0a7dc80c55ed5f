#include "models/hf_tokenizer.h"

#include <simdjson.h>
#include <utf8proc.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>

#include "models/added_tokens.h"
#include "models/hf_text_pipeline.h"
#include "models/sentencepiece_tokenizer.h"
#include "models/shared_model_cache.h"
#include "models/subword_models.h"
#include "models/wordpiece_tokenizer.h"

namespace winnow {

namespace {

Status error(const std::string& origin, const std::string& what) {
  return Status::errorf("tokenizer '{}': {}", origin, what);
}

// `text` with each invalid UTF-8 byte replaced by U+FFFD; false (and `out` untouched) when the
// text is valid already, the usual case.
bool repair_utf8(std::string_view text, std::string& out) {
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  bool valid = true;
  for (size_t i = 0; i < text.size();) {
    utf8proc_int32_t c;
    utf8proc_ssize_t n =
        utf8proc_iterate(bytes + i, static_cast<utf8proc_ssize_t>(text.size() - i), &c);
    if (n <= 0) {
      valid = false;
      break;
    }
    i += static_cast<size_t>(n);
  }
  if (valid) return false;
  out.clear();
  for (size_t i = 0; i < text.size();) {
    utf8proc_int32_t c;
    utf8proc_ssize_t n =
        utf8proc_iterate(bytes + i, static_cast<utf8proc_ssize_t>(text.size() - i), &c);
    if (n <= 0) {
      out += "\xef\xbf\xbd";
      ++i;
    } else {
      out.append(text.substr(i, static_cast<size_t>(n)));
      i += static_cast<size_t>(n);
    }
  }
  return true;
}

}  // namespace

class HfTokenizer final : public TextTokenizer {
 public:
  void encode(std::string_view text, std::vector<int64_t>& ids,
              size_t max_length = 0) const override {
    if (max_length == 0) max_length = max_length_;
    thread_local std::string repaired;
    if (repair_utf8(text, repaired)) text = repaired;
    encode_between_specials(ids, prefix_, suffix_, max_length, [&](std::vector<int64_t>& out) {
      raw_added_.split(
          text, [&](std::string_view span, size_t offset) { encode_span(span, offset == 0, out); },
          [&](int64_t id) { out.push_back(id); });
    });
  }
  void encode_without_specials(std::string_view text, std::vector<int64_t>& ids) const override {
    thread_local std::string repaired;
    if (repair_utf8(text, repaired)) text = repaired;
    raw_added_.split(
        text, [&](std::string_view span, size_t offset) { encode_span(span, offset == 0, ids); },
        [&](int64_t id) { ids.push_back(id); });
  }
  size_t max_length() const override { return max_length_; }
  int64_t pad_id() const override { return pad_id_; }
  // HF's len(tokenizer): the model's ids and the added tokens beyond them.
  size_t vocabulary_size() const override { return vocabulary_size_; }

  Status parse(const simdjson::dom::element& root, const std::string& origin);

 private:
  // A stretch of raw text between added tokens: normalised, the normalised added tokens split
  // out, pre-tokenised, each word through the model.
  void encode_span(std::string_view span, bool at_start, std::vector<int64_t>& ids) const {
    std::string normalized(span);
    TextStart start{at_start, 0};
    pipeline_.normalize(normalized, start);
    auto words_of = [&](std::string_view text, TextStart text_start) {
      thread_local std::vector<std::string> words;
      words.clear();
      pipeline_.pre_tokenize(text, text_start, words);
      for (const std::string& word : words) {
        if (!word.empty()) model_->tokenize(word, ids);
      }
    };
    if (normalized_added_.empty()) {
      words_of(normalized, start);
      return;
    }
    normalized_added_.split(
        normalized,
        [&](std::string_view text, size_t offset) { words_of(text, start.from(offset)); },
        [&](int64_t id) { ids.push_back(id); });
  }

  Status parse_post_processor(const simdjson::dom::element& post, const std::string& origin);

  std::unique_ptr<SubwordModel> model_;
  HfTextPipeline pipeline_;
  AddedTokens raw_added_;         // matched in the raw text
  AddedTokens normalized_added_;  // matched in the normalised text
  std::vector<int64_t> prefix_, suffix_;
  size_t max_length_ = 0;
  int64_t pad_id_ = 0;
  size_t vocabulary_size_ = 0;
};

Status HfTokenizer::parse_post_processor(const simdjson::dom::element& post,
                                         const std::string& origin) {
  if (post.is_null()) return Status::ok();
  std::string_view type;
  if (post["type"].get(type)) return error(origin, "post_processor has no type");
  if (type == "Sequence") {
    simdjson::dom::array processors;
    if (post["processors"].get(processors)) return error(origin, "Sequence has no processors");
    for (simdjson::dom::element p : processors) {
      WINNOW_RETURN_IF_ERROR(parse_post_processor(p, origin));
    }
  } else if (type == "ByteLevel") {
    // Offsets only; no tokens.
  } else if (type == "BertProcessing" || type == "RobertaProcessing") {
    int64_t cls, sep;
    if (post["cls"].at(1).get(cls) || post["sep"].at(1).get(sep)) {
      return error(origin, std::string(type) + " needs cls and sep as [token, id]");
    }
    prefix_.push_back(cls);
    suffix_.insert(suffix_.begin(), sep);
  } else if (type == "TemplateProcessing") {
    simdjson::dom::array single;
    if (post["single"].get(single)) return error(origin, "TemplateProcessing has no single");
    bool seen_sequence = false;
    std::vector<int64_t> before, after;
    for (simdjson::dom::object piece : single) {
      simdjson::dom::object special;
      if (piece["SpecialToken"].get(special)) {
        seen_sequence = true;
        continue;
      }
      std::string_view name;
      if (special["id"].get(name)) return error(origin, "a SpecialToken without id");
      std::vector<int64_t>& side = seen_sequence ? after : before;
      simdjson::dom::array token_ids;
      int64_t id;
      if (!post["special_tokens"][name]["ids"].get(token_ids)) {
        for (int64_t t : token_ids) side.push_back(t);
      } else if (model_->id_of(name, id)) {
        side.push_back(id);
      } else {
        return error(origin, "special token '" + std::string(name) + "' has no id");
      }
    }
    prefix_.insert(prefix_.end(), before.begin(), before.end());
    suffix_.insert(suffix_.begin(), after.begin(), after.end());
  } else {
    return error(origin, "post_processor '" + std::string(type) + "' is not supported");
  }
  return Status::ok();
}

Status HfTokenizer::parse(const simdjson::dom::element& root, const std::string& origin) {
  simdjson::dom::element model;
  if (root["model"].get(model)) return error(origin, "has no \"model\" object");
  std::string_view type;
  if (model["type"].get(type)) return error(origin, "the model has no type");
  auto parsed = type == "BPE"       ? parse_bpe_model(model)
                : type == "Unigram" ? parse_unigram_model(model)
                                    : Result<std::unique_ptr<SubwordModel>>(Status::errorf(
                                          "model type '{}' is not supported", std::string(type)));
  if (!parsed.is_ok()) return error(origin, parsed.status().message());
  model_ = std::move(parsed).value();

  simdjson::dom::element normalizer, pre_tokenizer, post_processor;
  bool has_normalizer = !root["normalizer"].get(normalizer);
  bool has_pre_tokenizer = !root["pre_tokenizer"].get(pre_tokenizer);
  if (auto status = pipeline_.parse(has_normalizer ? &normalizer : nullptr,
                                    has_pre_tokenizer ? &pre_tokenizer : nullptr);
      !status.is_ok()) {
    return error(origin, status.message());
  }
  if (!root["post_processor"].get(post_processor)) {
    WINNOW_RETURN_IF_ERROR(parse_post_processor(post_processor, origin));
  }

  auto normalize = [&](std::string& content) {
    TextStart start;
    pipeline_.normalize(content, start);
  };
  if (auto status = parse_added_tokens(root, normalize, raw_added_, normalized_added_);
      !status.is_ok()) {
    return error(origin, status.message());
  }
  vocabulary_size_ = model_->vocabulary_size();
  simdjson::dom::array added;
  if (!root["added_tokens"].get(added)) {
    for (simdjson::dom::element entry : added) {
      int64_t id;
      if (!entry["id"].get(id) && id >= 0) {
        vocabulary_size_ = std::max(vocabulary_size_, static_cast<size_t>(id) + 1);
      }
    }
  }
  uint64_t number;
  simdjson::dom::object truncation;
  if (!root["truncation"].get(truncation) && !truncation["max_length"].get(number)) {
    max_length_ = number;
  }
  int64_t id;
  if (root["padding"]["pad_id"].get(id) == simdjson::SUCCESS) {
    pad_id_ = id;
  } else {
    for (const char* name : {"<pad>", "[PAD]", "<|endoftext|>"}) {
      if (model_->id_of(name, id)) {
        pad_id_ = id;
        break;
      }
    }
  }
  return Status::ok();
}

Result<std::shared_ptr<TextTokenizer>> parse_hf_tokenizer(std::string_view json,
                                                          const std::string& origin) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(json.data(), json.size()).get(root)) return error(origin, "is not valid JSON");
  auto tokenizer = std::make_shared<HfTokenizer>();
  WINNOW_RETURN_IF_ERROR(tokenizer->parse(root, origin));
  return std::shared_ptr<TextTokenizer>(std::move(tokenizer));
}

size_t TextTokenizer::count(std::string_view text) const {
  thread_local std::vector<int64_t> ids;
  ids.clear();
  encode(text, ids, std::numeric_limits<size_t>::max());
  return ids.size();
}

namespace {

// A SentencePiece model (spm.model / tokenizer.model) as a TextTokenizer. The special tokens are
// the ones the folder's tokenizer_config.json implies, as the model's slow HF tokenizer adds
// them: cls_token ... sep_token where both are pieces of the model (DeBERTa-v2/v3, ALBERT,
// XLNet-style classifiers), else add_bos_token / add_eos_token (Llama, Gemma: BOS by default).
class SentencePieceTextTokenizer final : public TextTokenizer {
 public:
  std::shared_ptr<const SentencePieceTokenizer> spm;
  std::vector<int64_t> prefix, suffix;
  int64_t pad = 0;

  void encode(std::string_view text, std::vector<int64_t>& ids,
              size_t max_length = 0) const override {
    thread_local std::vector<int> pieces;
    spm->encode(text, pieces);
    ids.insert(ids.end(), prefix.begin(), prefix.end());
    size_t room = pieces.size();
    if (max_length > 0) {
      size_t specials = prefix.size() + suffix.size();
      room = std::min(room, max_length > specials ? max_length - specials : 0);
    }
    ids.insert(ids.end(), pieces.begin(), pieces.begin() + static_cast<std::ptrdiff_t>(room));
    ids.insert(ids.end(), suffix.begin(), suffix.end());
  }
  void encode_without_specials(std::string_view text, std::vector<int64_t>& ids) const override {
    thread_local std::vector<int> pieces;
    spm->encode(text, pieces);
    ids.insert(ids.end(), pieces.begin(), pieces.end());
  }
  size_t max_length() const override { return 0; }
  int64_t pad_id() const override { return pad; }
  size_t vocabulary_size() const override { return static_cast<size_t>(spm->vocab_size()); }
};

Result<std::shared_ptr<TextTokenizer>> load_sentencepiece(const std::string& path) {
  auto spm = SentencePieceTokenizer::load(path);
  if (!spm.is_ok()) return spm.status();
  auto tokenizer = std::make_shared<SentencePieceTextTokenizer>();
  tokenizer->spm = std::move(spm).value();
  const auto& model = *tokenizer->spm;
  std::string config_path = std::filesystem::path(path).parent_path() / "tokenizer_config.json";
  simdjson::dom::parser parser;
  simdjson::dom::element config;
  bool has_config = !parser.load(config_path).get(config);
  // A token in tokenizer_config.json is a string or {"content": ...}.
  auto token_of = [&](const char* key) -> int {
    if (!has_config) return -1;
    std::string_view name;
    if (config[key].get(name) && config[key]["content"].get(name)) return -1;
    return model.piece_id(name);
  };
  auto flag = [&](const char* key, bool fallback) {
    bool value;
    return has_config && !config[key].get(value) ? value : fallback;
  };
  int cls = token_of("cls_token"), sep = token_of("sep_token");
  if (cls >= 0 && sep >= 0) {
    tokenizer->prefix = {cls};
    tokenizer->suffix = {sep};
  } else {
    if (flag("add_bos_token", true) && model.bos_id() >= 0) tokenizer->prefix = {model.bos_id()};
    if (flag("add_eos_token", false) && model.eos_id() >= 0) tokenizer->suffix = {model.eos_id()};
  }
  int pad = token_of("pad_token");
  tokenizer->pad = pad >= 0 ? pad : 0;
  return std::shared_ptr<TextTokenizer>(std::move(tokenizer));
}

}  // namespace

Result<std::shared_ptr<const TextTokenizer>> load_text_tokenizer(const std::string& path) {
  namespace fs = std::filesystem;
  std::string file = path;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    file = path + "/tokenizer.json";
    for (const char* name : {"tokenizer.json", "spm.model", "tokenizer.model"}) {
      if (fs::is_regular_file(path + "/" + name, ec)) {
        file = path + "/" + name;
        break;
      }
    }
  }
  if (file.ends_with(".model")) {
    return load_shared_model<TextTokenizer>("tokenizer", file,
                                            [&] { return load_sentencepiece(file); });
  }
  return load_shared_model<TextTokenizer>(
      "tokenizer", file, [&]() -> Result<std::shared_ptr<TextTokenizer>> {
        std::ifstream in(file, std::ios::binary);
        std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) return error(file, "cannot be read");
        simdjson::dom::parser parser;
        simdjson::dom::element root;
        std::string_view type;
        if (parser.parse(json).get(root)) return error(file, "is not valid JSON");
        if (root["model"]["type"].get(type)) return error(file, "has no model type");
        if (type == "WordPiece") {
          auto wordpiece = WordPieceTokenizer::parse(json, file);
          if (!wordpiece.is_ok()) return wordpiece.status();
          return std::shared_ptr<TextTokenizer>(std::move(wordpiece).value());
        }
        return parse_hf_tokenizer(json, file);
      });
}

}  // namespace winnow
