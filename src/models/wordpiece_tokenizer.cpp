#include "models/wordpiece_tokenizer.h"

#include <simdjson.h>
#include <utf8proc.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <limits>

#include "models/shared_model_cache.h"

namespace winnow {

namespace {

// Rust's char::is_whitespace (Unicode White_Space), which HF's Bert code uses.
bool is_whitespace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

utf8proc_category_t category(char32_t c) {
  return static_cast<utf8proc_category_t>(utf8proc_category(static_cast<utf8proc_int32_t>(c)));
}

// Control, format, surrogate or private-use (not unassigned: HF keeps those, checked); tab,
// newline and return count as whitespace instead.
bool is_control(char32_t c) {
  if (c == '\t' || c == '\n' || c == '\r') return false;
  switch (category(c)) {
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO:
      return true;
    default:
      return false;
  }
}

// ASCII punctuation (which includes symbols such as $ + < = > ^ ` |) or Unicode P*.
bool is_punctuation(char32_t c) {
  if (c < 0x80) {
    return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) ||
           (c >= 123 && c <= 126);
  }
  switch (category(c)) {
    case UTF8PROC_CATEGORY_PC:
    case UTF8PROC_CATEGORY_PD:
    case UTF8PROC_CATEGORY_PS:
    case UTF8PROC_CATEGORY_PE:
    case UTF8PROC_CATEGORY_PI:
    case UTF8PROC_CATEGORY_PF:
    case UTF8PROC_CATEGORY_PO:
      return true;
    default:
      return false;
  }
}

// The CJK ideograph blocks BERT puts spaces around (not Hangul, kana or CJK punctuation).
bool is_chinese_char(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
         (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

// Decodes UTF-8; an invalid byte becomes U+FFFD.
void decode(std::string_view text, std::u32string& out) {
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  for (size_t i = 0; i < text.size();) {
    utf8proc_int32_t c = 0;
    utf8proc_ssize_t n =
        utf8proc_iterate(bytes + i, static_cast<utf8proc_ssize_t>(text.size() - i), &c);
    if (n <= 0) {
      out.push_back(0xFFFD);
      ++i;
    } else {
      out.push_back(static_cast<char32_t>(c));
      i += static_cast<size_t>(n);
    }
  }
}

void append_utf8(std::string& out, char32_t c) {
  utf8proc_uint8_t buffer[4];
  utf8proc_ssize_t n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(c), buffer);
  out.append(reinterpret_cast<const char*>(buffer), static_cast<size_t>(n));
}

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
    if (!normalizer["clean_text"].get(flag)) t.clean_text_ = flag;
    if (!normalizer["handle_chinese_chars"].get(flag)) t.handle_chinese_chars_ = flag;
    if (!normalizer["lowercase"].get(flag)) t.lowercase_ = flag;
    // strip_accents: null (or absent) follows lowercase.
    t.strip_accents_ = normalizer["strip_accents"].get(flag) ? t.lowercase_ : flag;
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
  simdjson::dom::array added;
  if (!root["added_tokens"].get(added)) {
    for (simdjson::dom::object token : added) {
      bool normalized = false;
      std::string_view content;
      if (token["content"].get(content) || token["id"].get(id) || content.empty()) continue;
      // Normalised added tokens would be matched after normalisation; BERT's are all raw.
      if (!token["normalized"].get(normalized) && normalized) continue;
      t.added_.push_back({std::string(content), id});
    }
    // Longest first, so the longest of the tokens starting at a position wins.
    std::stable_sort(t.added_.begin(), t.added_.end(), [](const auto& a, const auto& b) {
      return a.content.size() > b.content.size();
    });
  }
  return tokenizer;
}

void WordPieceTokenizer::normalize(std::string_view text, std::u32string& out) const {
  thread_local std::u32string decoded;
  decoded.clear();
  decode(text, decoded);
  out.clear();
  for (char32_t c : decoded) {
    if (clean_text_) {
      if (c == 0 || c == 0xFFFD || is_control(c)) continue;
      if (is_whitespace(c)) c = ' ';
    }
    auto emit = [&](char32_t x) {
      if (lowercase_) {
        // Rust's char::to_lowercase: the simple mapping, but İ becomes i + combining dot.
        if (x == 0x130) {
          out.push_back('i');
          out.push_back(0x307);
          return;
        }
        x = static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(x)));
      }
      out.push_back(x);
    };
    auto accents = [&](char32_t x) {
      if (!strip_accents_ || x < 0x80) {
        emit(x);
        return;
      }
      utf8proc_int32_t parts[8];
      int options = UTF8PROC_DECOMPOSE;
      utf8proc_ssize_t n =
          utf8proc_decompose_char(static_cast<utf8proc_int32_t>(x), parts, 8,
                                  static_cast<utf8proc_option_t>(options), nullptr);
      if (n < 0 || n > 8) {
        emit(x);
        return;
      }
      for (utf8proc_ssize_t k = 0; k < n; ++k) {
        if (category(static_cast<char32_t>(parts[k])) != UTF8PROC_CATEGORY_MN) {
          emit(static_cast<char32_t>(parts[k]));
        }
      }
    };
    if (handle_chinese_chars_ && is_chinese_char(c)) {
      out.push_back(' ');
      accents(c);
      out.push_back(' ');
    } else {
      accents(c);
    }
  }
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
  normalize(text, normalized);
  size_t word_start = 0;
  auto flush = [&](size_t end) {
    if (end > word_start) {
      encode_word(std::u32string_view(normalized).substr(word_start, end - word_start), ids);
    }
  };
  for (size_t i = 0; i < normalized.size(); ++i) {
    char32_t c = normalized[i];
    if (is_whitespace(c)) {
      flush(i);
      word_start = i + 1;
    } else if (is_punctuation(c)) {
      flush(i);
      encode_word(std::u32string_view(normalized).substr(i, 1), ids);
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
  ids.insert(ids.end(), prefix_.begin(), prefix_.end());
  size_t sequence_start = ids.size();
  // Added tokens are matched in the raw text; what lies between them is tokenised normally.
  size_t span_start = 0;
  for (size_t i = 0; i < text.size();) {
    const AddedToken* match = nullptr;
    for (const AddedToken& token : added_) {
      if (text.compare(i, token.content.size(), token.content) == 0) {
        match = &token;
        break;
      }
    }
    if (match == nullptr) {
      ++i;
      continue;
    }
    encode_normalized_span(text.substr(span_start, i - span_start), ids);
    ids.push_back(match->id);
    i += match->content.size();
    span_start = i;
  }
  encode_normalized_span(text.substr(span_start), ids);
  if (max_length > 0) {
    size_t specials = prefix_.size() + suffix_.size();
    size_t room = max_length > specials ? max_length - specials : 0;
    if (ids.size() - sequence_start > room) ids.resize(sequence_start + room);
  }
  ids.insert(ids.end(), suffix_.begin(), suffix_.end());
}

}  // namespace winnow
