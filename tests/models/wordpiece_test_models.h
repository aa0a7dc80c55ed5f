#pragma once
// WordPiece tokenizer.json files built from a vocabulary at test time, real multilingual text
// from the machine, and reference ids from Hugging Face's tokenizers (under node).
#include <simdjson.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/json_text.h"
#include "test_support.h"

namespace winnow::testing {

inline std::string hf_tokenizers_dir() {
  const char* cache = std::getenv("WINNOW_CACHE");
  std::string root = cache ? cache : std::string(std::getenv("HOME")) + "/.cache/winnow";
  return root + "/hf-tokenizers-0.23.2";
}

struct WordPieceConfig {
  bool lowercase = true;
  bool template_processing = true;  // else BertProcessing
  size_t truncation = 0;            // 0: none
  // Added tokens with HF's flags after the five special ones: "<mask>" with lstrip (as MPNet's),
  // "the" single_word, and normalised ones ("Debian" single_word, "Paket", " und ").
  bool flagged_added_tokens = false;
};

// A BERT-style tokenizer.json: [PAD] [UNK] [CLS] [SEP] [MASK] at 0-4, then `pieces` in order.
inline std::string wordpiece_json(const std::vector<std::string>& pieces,
                                  const WordPieceConfig& config) {
  std::vector<std::string> vocab = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};
  vocab.insert(vocab.end(), pieces.begin(), pieces.end());
  std::string json = R"({"version":"1.0","truncation":)";
  json += config.truncation
              ? R"({"direction":"Right","max_length":)" + std::to_string(config.truncation) +
                    R"(,"strategy":"LongestFirst","stride":0})"
              : "null";
  json += R"(,"padding":null,"added_tokens":[)";
  for (int i = 0; i < 5; ++i) {
    json +=
        (i ? "," : "") + std::string(R"({"id":)") + std::to_string(i) + R"(,"content":")" +
        vocab[i] +
        R"(","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true})";
  }
  if (config.flagged_added_tokens) {
    // HF gives a token its vocabulary id, or else the next id after the vocabulary.
    size_t next = vocab.size();
    auto id_of = [&](const std::string& content) {
      auto found = std::find(vocab.begin(), vocab.end(), content);
      return found != vocab.end() ? static_cast<size_t>(found - vocab.begin()) : next++;
    };
    struct Flagged {
      std::string content;
      bool lstrip, single_word, normalized;
    };
    for (const Flagged& f :
         {Flagged{"<mask>", true, false, false}, Flagged{"the", false, true, false},
          Flagged{"Debian", false, true, true}, Flagged{"Paket", false, false, true},
          Flagged{" und ", false, false, true}}) {
      json += R"(,{"id":)" + std::to_string(id_of(f.content)) + R"(,"content":)";
      append_json_string(json, f.content);
      json += std::string(R"(,"single_word":)") + (f.single_word ? "true" : "false") +
              R"(,"lstrip":)" + (f.lstrip ? "true" : "false") + R"(,"rstrip":false,"normalized":)" +
              (f.normalized ? "true" : "false") + R"(,"special":false})";
    }
  }
  json +=
      R"(],"normalizer":{"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,"strip_accents":null,"lowercase":)";
  json += config.lowercase ? "true" : "false";
  json += R"(},"pre_tokenizer":{"type":"BertPreTokenizer"},"post_processor":)";
  if (config.template_processing) {
    json +=
        R"({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"[CLS]","type_id":0}},{"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"[SEP]","type_id":0}}],"pair":[{"SpecialToken":{"id":"[CLS]","type_id":0}},{"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"[SEP]","type_id":0}},{"Sequence":{"id":"B","type_id":1}},{"SpecialToken":{"id":"[SEP]","type_id":1}}],"special_tokens":{"[CLS]":{"id":"[CLS]","ids":[2],"tokens":["[CLS]"]},"[SEP]":{"id":"[SEP]","ids":[3],"tokens":["[SEP]"]}}})";
  } else {
    json += R"({"type":"BertProcessing","sep":["[SEP]",3],"cls":["[CLS]",2]})";
  }
  json +=
      R"(,"decoder":{"type":"WordPiece","prefix":"##","cleanup":true},"model":{"type":"WordPiece","unk_token":"[UNK]","continuing_subword_prefix":"##","max_input_chars_per_word":100,"vocab":{)";
  for (size_t i = 0; i < vocab.size(); ++i) {
    if (i) json += ",";
    append_json_string(json, vocab[i]);
    json += ":" + std::to_string(i);
  }
  json += "}}}";
  return json;
}

// Paragraphs of real text: the Debian Reference in eight languages, German fortunes, German,
// French and Russian manual pages (roff source; a fixed slice of each, the same every run).
inline std::vector<std::string> multilingual_paragraphs(size_t per_source) {
  std::vector<std::string> sources;
  for (const char* language : {"en", "de", "fr", "es", "it", "pt", "ja", "zh-cn"}) {
    sources.push_back(read_decompressed(
        std::string("/usr/share/doc/debian-reference-common/docs/debian-reference.") + language +
        ".txt.gz"));
  }
  if (std::filesystem::exists("/usr/share/games/fortunes/de/anekdoten")) {
    sources.push_back(read_file("/usr/share/games/fortunes/de/anekdoten"));
  }
  for (const char* page : {"/usr/share/man/de/man1/ls.1.gz", "/usr/share/man/fr/man1/ls.1.gz",
                           "/usr/share/man/ru/man1/ls.1.gz", "/usr/share/man/de/man1/tar.1.gz"}) {
    if (std::filesystem::exists(page)) sources.push_back(read_decompressed(page));
  }
  std::vector<std::string> paragraphs;
  for (const std::string& all : sources) {
    size_t taken = 0;
    // From the first paragraph after a quarter of the text (never inside a character).
    size_t from = all.find("\n\n", all.size() / 4);
    for (size_t start = from == std::string::npos ? all.size() : from + 2;
         start < all.size() && taken < per_source;) {
      size_t end = all.find("\n\n", start);
      if (end == std::string::npos) end = all.size();
      std::string paragraph = all.substr(start, end - start);
      start = end + 2;
      if (paragraph.size() < 40) continue;
      paragraphs.push_back(std::move(paragraph));
      ++taken;
    }
  }
  return paragraphs;
}

// Every code point from U+00A0 to U+1FAFF but surrogates and private use, 400 to a text, each
// between two x: what a step's character test (punctuation, digits, controls, marks, scripts,
// normalisation) says of each shows in the tokens.
inline std::vector<std::string> every_character_texts() {
  auto utf8 = [](char32_t c) {
    std::string out;
    if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    }
    out += static_cast<char>(0x80 | (c & 0x3F));
    return out;
  };
  std::vector<std::string> texts;
  std::string text;
  size_t in_text = 0;
  for (char32_t c = 0xA0; c < 0x1FB00; ++c) {
    if ((c >= 0xD800 && c <= 0xDFFF) || (c >= 0xE000 && c <= 0xF8FF)) continue;
    text += "x" + utf8(c);
    if (++in_text == 400) {
      texts.push_back(text + "x");
      text.clear();
      in_text = 0;
    }
  }
  if (!text.empty()) texts.push_back(text + "x");
  return texts;
}

// A vocabulary with whole words, continuation pieces and gaps (so [UNK] happens too): every
// character seen (alone and as a continuation), the most frequent lowercased words and the
// most frequent 2-4 character word endings as continuations.
inline std::vector<std::string> vocabulary_from(const std::vector<std::string>& texts) {
  std::map<std::string, int> words, endings;
  std::set<std::string> characters;
  for (const std::string& text : texts) {
    std::string word;
    auto flush = [&] {
      if (word.empty()) return;
      ++words[word];
      // Endings in whole code points.
      std::vector<size_t> starts;
      for (size_t i = 0; i < word.size(); ++i) {
        if ((static_cast<unsigned char>(word[i]) & 0xC0) != 0x80) starts.push_back(i);
      }
      for (size_t k = 2; k <= 4 && k < starts.size(); ++k) {
        ++endings["##" + word.substr(starts[starts.size() - k])];
      }
      word.clear();
    };
    for (size_t i = 0; i < text.size();) {
      size_t length = 1;
      while (i + length < text.size() &&
             (static_cast<unsigned char>(text[i + length]) & 0xC0) == 0x80) {
        ++length;
      }
      std::string c = text.substr(i, length);
      i += length;
      if (c.size() == 1 && !std::isalnum(static_cast<unsigned char>(c[0]))) {
        flush();
        if (c[0] > ' ') characters.insert(c);
        continue;
      }
      if (c.size() == 1) c[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(c[0])));
      characters.insert(c);
      word += c;
    }
    flush();
  }
  auto top = [](const std::map<std::string, int>& counts, size_t n) {
    std::vector<std::pair<int, std::string>> order;
    for (const auto& [k, v] : counts) order.emplace_back(-v, k);
    std::sort(order.begin(), order.end());
    std::vector<std::string> out;
    for (size_t i = 0; i < std::min(n, order.size()); ++i) out.push_back(order[i].second);
    return out;
  };
  std::vector<std::string> vocab;
  std::set<std::string> seen;
  auto add = [&](const std::string& piece) {
    if (seen.insert(piece).second) vocab.push_back(piece);
  };
  // Every other character only, so some words fall back to [UNK].
  int k = 0;
  for (const std::string& c : characters) {
    if (k++ % 5 == 4) continue;
    add(c);
    add("##" + c);
  }
  for (const std::string& w : top(words, 3000)) add(w);
  for (const std::string& e : top(endings, 800)) add(e);
  return vocab;
}

// HF's ids for each text (special tokens added unless `add_special_tokens` is false, the
// file's truncation applied).
inline std::vector<std::vector<int64_t>> hf_reference_ids(const std::string& dir,
                                                          const std::string& tokenizer_json_path,
                                                          const std::vector<std::string>& texts,
                                                          bool add_special_tokens = true) {
  std::string json = "[";
  for (size_t i = 0; i < texts.size(); ++i) {
    if (i) json += ",";
    append_json_string(json, texts[i]);
  }
  json += "]";
  write_file(dir + "/texts.json", json);
  std::string out;
  std::string command = "node " + kSource + "/tests/models/hf_tokenize.js " + hf_tokenizers_dir() +
                        " " + tokenizer_json_path + " " + dir + "/texts.json " + dir + "/ids.json" +
                        (add_special_tokens ? "" : " no_special_tokens");
  if (run_command(command, &out) != 0) {
    throw std::runtime_error("HF tokenizers under node failed (scripts/setup fetches them): " +
                             out);
  }
  simdjson::dom::parser parser;
  std::vector<std::vector<int64_t>> ids;
  for (simdjson::dom::array row : parser.load(dir + "/ids.json").get_array()) {
    auto& r = ids.emplace_back();
    for (int64_t id : row) r.push_back(id);
  }
  return ids;
}

}  // namespace winnow::testing
