#include "models/wordpiece_tokenizer.h"

#include <simdjson.h>

#include <fstream>
#include <iterator>
#include <limits>

#include "models/shared_model_cache.h"

namespace winnow {

namespace {

using hf_chars::append_utf8;
using hf_chars::is_punctuation;
using hf_chars::is_whitespace;

Status error(const std::string& origin, const std::string& what) {
  return Status::errorf("tokenizer '{}': {}", origin, what);
}

}  // namespace

Result<std::shared_ptr<const WordPieceTokenizer>> WordPieceTokenizer::load(
    const std::string& path) {
  return load_shared_model<WordPieceTokenizer>(
      "tokenizer", path, [&]() -> Result<std::shared_ptr<WordPieceTokenizer>> {
        std::ifstream in(path, std::ios::binary);
        std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) return error(path, "cannot be read");
        return parse(json, path);
      });
}

Result<std::shared_ptr<WordPieceTokenizer>> WordPieceTokenizer::parse(std::string_view json,
                                                                      const std::string& origin) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(json.data(), json.size()).get(root)) {
    return error(origin, "is not valid JSON");
  }
  auto tokenizer = std::make_shared<WordPieceTokenizer>();
  WordPieceTokenizer& t = *tokenizer;

  simdjson::dom::object model;
  if (root["model"].get(model)) return error(origin, "has no \"model\" object");
  std::string_view type;
  if (model["type"].get(type) || type != "WordPiece") {
    return error(
        origin,
        "model type '" + std::string(type) +
            "' is not supported by WordPieceTokenizer (load_text_tokenizer reads every type)");
  }
  simdjson::dom::object vocab;
  if (model["vocab"].get(vocab)) return error(origin, "model has no \"vocab\" object");
  for (auto [piece, id] : vocab) {
    int64_t value;
    if (id.get(value))
      return error(origin, "vocab id of '" + std::string(piece) + "' is not a number");
    t.vocabulary_.emplace(std::string(piece), value);
  }
  std::string_view text;
  if (!model["unk_token"].get(text)) {
    auto found = t.vocabulary_.find(text);
    if (found == t.vocabulary_.end()) {
      return error(origin, "unk_token '" + std::string(text) + "' is not in the vocabulary");
    }
    t.unk_id_ = found->second;
  }
  if (!model["continuing_subword_prefix"].get(text)) t.continuing_prefix_ = text;
  uint64_t number;
  if (!model["max_input_chars_per_word"].get(number)) t.max_input_chars_per_word_ = number;

  simdjson::dom::element normalizer;
  if (!root["normalizer"].get(normalizer) && !normalizer.is_null()) {
    if (normalizer["type"].get(type) || type != "BertNormalizer") {
      return error(origin, "normalizer '" + std::string(type) +
                               "' is not supported (BertNormalizer or none)");
    }
    bool flag;
    t.normalizer_ = {};
    if (!normalizer["clean_text"].get(flag)) t.normalizer_.clean_text = flag;
    if (!normalizer["handle_chinese_chars"].get(flag)) t.normalizer_.handle_chinese_chars = flag;
    if (!normalizer["lowercase"].get(flag)) t.normalizer_.lowercase = flag;
    // strip_accents: null (or absent) follows lowercase.
    t.normalizer_.strip_accents =
        normalizer["strip_accents"].get(flag) ? t.normalizer_.lowercase : flag;
  }
  simdjson::dom::element pre;
  if (root["pre_tokenizer"].get(pre) || pre.is_null() || pre["type"].get(type) ||
      type != "BertPreTokenizer") {
    return error(origin, "pre_tokenizer must be BertPreTokenizer");
  }

  auto id_of = [&](std::string_view token, int64_t& id) {
    auto found = t.vocabulary_.find(token);
    if (found == t.vocabulary_.end()) return false;
    id = found->second;
    return true;
  };
  simdjson::dom::element post;
  if (!root["post_processor"].get(post) && !post.is_null()) {
    if (post["type"].get(type)) return error(origin, "post_processor has no type");
    if (type == "BertProcessing") {
      int64_t cls, sep;
      if (post["cls"].at(1).get(cls) || post["sep"].at(1).get(sep)) {
        return error(origin, "BertProcessing needs cls and sep as [token, id]");
      }
      t.prefix_ = {cls};
      t.suffix_ = {sep};
    } else if (type == "TemplateProcessing") {
      simdjson::dom::array single;
      if (post["single"].get(single)) return error(origin, "TemplateProcessing has no single");
      bool seen_sequence = false;
      for (simdjson::dom::object piece : single) {
        simdjson::dom::object special;
        if (!piece["SpecialToken"].get(special)) {
          std::string_view name;
          if (special["id"].get(name)) return error(origin, "a SpecialToken without id");
          simdjson::dom::array ids;
          std::vector<int64_t>& side = seen_sequence ? t.suffix_ : t.prefix_;
          if (!post["special_tokens"][name]["ids"].get(ids)) {
            for (int64_t id : ids) side.push_back(id);
          } else {
            int64_t id;
            if (!id_of(name, id)) {
              return error(origin, "special token '" + std::string(name) + "' has no id");
            }
            side.push_back(id);
          }
        } else {
          seen_sequence = true;
        }
      }
    } else {
      return error(origin, "post_processor '" + std::string(type) +
                               "' is not supported (BertProcessing, TemplateProcessing or none)");
    }
  }
  simdjson::dom::object truncation;
  if (!root["truncation"].get(truncation) && !truncation["max_length"].get(number)) {
    t.max_length_ = number;
  }
  int64_t id;
  if (root["padding"]["pad_id"].get(id) == simdjson::SUCCESS) {
    t.pad_id_ = id;
  } else if (id_of("[PAD]", id)) {
    t.pad_id_ = id;
  }
  auto normalize = [&](std::string& content) {
    thread_local std::u32string normalized;
    hf_chars::bert_normalize(content, t.normalizer_, normalized);
    content = hf_chars::to_utf8(normalized);
  };
  if (auto status = parse_added_tokens(root, normalize, t.raw_added_, t.normalized_added_);
      !status.is_ok()) {
    return error(origin, status.message());
  }
  return tokenizer;
}

void WordPieceTokenizer::encode_word(std::u32string_view word, std::vector<int64_t>& ids) const {
  if (word.size() > max_input_chars_per_word_) {
    ids.push_back(unk_id_);
    return;
  }
  thread_local std::string utf8;
  thread_local std::vector<size_t> ends;  // byte offset after each code point
  thread_local std::string candidate;
  utf8.clear();
  ends.clear();
  for (char32_t c : word) {
    append_utf8(utf8, c);
    ends.push_back(utf8.size());
  }
  size_t first = ids.size();
  size_t start = 0;  // in code points
  while (start < word.size()) {
    size_t start_byte = start == 0 ? 0 : ends[start - 1];
    int64_t found_id = -1;
    size_t end = word.size();
    for (; end > start; --end) {
      candidate.clear();
      if (start > 0) candidate += continuing_prefix_;
      candidate.append(utf8, start_byte, ends[end - 1] - start_byte);
      auto found = vocabulary_.find(std::string_view(candidate));
      if (found != vocabulary_.end()) {
        found_id = found->second;
        break;
      }
    }
    if (found_id < 0) {
      ids.resize(first);
      ids.push_back(unk_id_);
      return;
    }
    ids.push_back(found_id);
    start = end;
  }
}

void WordPieceTokenizer::encode_normalized_span(std::string_view text,
                                                std::vector<int64_t>& ids) const {
  thread_local std::u32string normalized;
  hf_chars::bert_normalize(text, normalizer_, normalized);
  if (normalized_added_.empty()) {
    encode_words(normalized, ids);
    return;
  }
  // Normalised added tokens are matched in the normalised text (as UTF-8).
  normalized_added_.split(
      hf_chars::to_utf8(normalized),
      [&](std::string_view stretch, size_t) { encode_words(hf_chars::to_utf32(stretch), ids); },
      [&](int64_t id) { ids.push_back(id); });
}

void WordPieceTokenizer::encode_words(std::u32string_view normalized,
                                      std::vector<int64_t>& ids) const {
  size_t word_start = 0;
  auto flush = [&](size_t end) {
    if (end > word_start) encode_word(normalized.substr(word_start, end - word_start), ids);
  };
  for (size_t i = 0; i < normalized.size(); ++i) {
    char32_t c = normalized[i];
    if (is_whitespace(c)) {
      flush(i);
      word_start = i + 1;
    } else if (is_punctuation(c)) {
      flush(i);
      encode_word(normalized.substr(i, 1), ids);
      word_start = i + 1;
    }
  }
  flush(normalized.size());
}

size_t WordPieceTokenizer::count(std::string_view text) const {
  thread_local std::vector<int64_t> ids;
  ids.clear();
  encode(text, ids, std::numeric_limits<size_t>::max());
  return ids.size();
}

void WordPieceTokenizer::encode(std::string_view text, std::vector<int64_t>& ids,
                                size_t max_length) const {
  if (max_length == 0) max_length = max_length_;
  encode_between_specials(ids, prefix_, suffix_, max_length, [&](std::vector<int64_t>& out) {
    // Added tokens are matched in the raw text; what lies between them is tokenised normally.
    raw_added_.split(
        text, [&](std::string_view span, size_t) { encode_normalized_span(span, out); },
        [&](int64_t id) { out.push_back(id); });
  });
}

void WordPieceTokenizer::encode_without_specials(std::string_view text,
                                                 std::vector<int64_t>& ids) const {
  raw_added_.split(
      text, [&](std::string_view span, size_t) { encode_normalized_span(span, ids); },
      [&](int64_t id) { ids.push_back(id); });
}

}  // namespace winnow
