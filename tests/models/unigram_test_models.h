#pragma once
// DeBERTa-v3-style Unigram tokenizer.json files made at test time from a SentencePiece model the
// test trains (models/sentencepiece_test_models.h), the way HF converts one.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sentencepiece_processor.h>

#include <string>

#include "core/json_text.h"
#include "models/sentencepiece_test_models.h"

namespace winnow::testing {

// The precompiled_charsmap of a SentencePiece model (ModelProto field 3, NormalizerSpec, field
// 2), read from the serialised protobuf: no protobuf headers ship with libsentencepiece-dev.
inline std::string precompiled_charsmap(const sentencepiece::SentencePieceProcessor& spm) {
  auto varint = [](std::string_view s, size_t& i) {
    uint64_t v = 0;
    for (int shift = 0; i < s.size(); shift += 7) {
      auto b = static_cast<uint8_t>(s[i++]);
      v |= uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) break;
    }
    return v;
  };
  // The bytes of length-delimited field `field` in message `m` ("" when absent).
  auto field_of = [&](std::string_view m, uint64_t field) -> std::string_view {
    for (size_t i = 0; i < m.size();) {
      uint64_t key = varint(m, i);
      switch (key & 7) {
        case 0:
          varint(m, i);
          break;
        case 1:
          i += 8;
          break;
        case 5:
          i += 4;
          break;
        case 2: {
          size_t length = varint(m, i);
          if ((key >> 3) == field) return m.substr(i, length);
          i += length;
          break;
        }
        default:
          return {};
      }
    }
    return {};
  };
  std::string proto = spm.serialized_model_proto();
  return std::string(field_of(field_of(proto, 3), 2));
}

inline std::string base64(std::string_view bytes) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t n = uint32_t(uint8_t(bytes[i])) << 16;
    if (i + 1 < bytes.size()) n |= uint32_t(uint8_t(bytes[i + 1])) << 8;
    if (i + 2 < bytes.size()) n |= uint8_t(bytes[i + 2]);
    out += digits[n >> 18];
    out += digits[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? digits[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? digits[n & 63] : '=';
  }
  return out;
}

// A DeBERTa-v3-style Unigram tokenizer.json made the way HF converts a SentencePiece model: its
// pieces and scores as the vocabulary, [PAD] [CLS] [SEP] [UNK] [MASK] as special added tokens,
// "``" and "''" to '"', the model's precompiled nmt_nfkc map, runs of spaces to one, Metaspace,
// [CLS] ... [SEP]. `nfkc`: HF's NFKC, Lowercase and Strip instead of the map, and Metaspace's
// prepend_scheme "first" instead of "always" (pipeline steps the converted files do not have).
inline std::string unigram_json(const std::string& spm_model, bool byte_fallback, bool nfkc) {
  sentencepiece::SentencePieceProcessor spm;
  EXPECT_TRUE(spm.Load(spm_model).ok());
  std::string json = R"({"version":"1.0","truncation":null,"padding":null,"added_tokens":[)";
  const char* specials[] = {"[PAD]", "[CLS]", "[SEP]", "[UNK]", "[MASK]"};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(spm.IdToPiece(i), specials[i]);
    json +=
        (i ? "," : "") + std::string(R"({"id":)") + std::to_string(i) + R"(,"content":")" +
        specials[i] +
        R"(","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true})";
  }
  json += R"(],"normalizer":{"type":"Sequence","normalizers":[)"
          R"({"type":"Replace","pattern":{"String":"``"},"content":"\""},)"
          R"({"type":"Replace","pattern":{"String":"''"},"content":"\""},)";
  json +=
      nfkc
          ? R"({"type":"NFKC"},{"type":"Lowercase"},{"type":"Strip","strip_left":true,"strip_right":true},)"
          : R"({"type":"Precompiled","precompiled_charsmap":")" +
                base64(precompiled_charsmap(spm)) + "\"},";
  json += R"({"type":"Replace","pattern":{"Regex":" {2,}"},"content":" "}]},)"
          R"("pre_tokenizer":{"type":"Metaspace","replacement":"\u2581","prepend_scheme":")";
  json += nfkc ? "first" : "always";
  json +=
      R"(","split":true},)"
      R"("post_processor":{"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"[CLS]","type_id":0}},{"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"[SEP]","type_id":0}}],"pair":[],"special_tokens":{"[CLS]":{"id":"[CLS]","ids":[1],"tokens":["[CLS]"]},"[SEP]":{"id":"[SEP]","ids":[2],"tokens":["[SEP]"]}}},)"
      R"("decoder":null,"model":{"type":"Unigram","unk_id":3,"byte_fallback":)";
  json += byte_fallback ? "true" : "false";
  json += R"(,"vocab":[)";
  for (int i = 0; i < spm.GetPieceSize(); ++i) {
    json += i ? ",[" : "[";
    append_json_string(json, spm.IdToPiece(i));
    json += "," + fmt::format("{}", spm.GetScore(i)) + "]";
  }
  json += "]}}";
  return json;
}

inline constexpr const char* kDebertaFlags =
    "--pad_id=0 --pad_piece=[PAD] --bos_id=1 --bos_piece=[CLS] --eos_id=2 --eos_piece=[SEP] "
    "--unk_id=3 --unk_piece=[UNK] --user_defined_symbols=[MASK]";

// Trains a DeBERTa-style SentencePiece model (3,000 pieces) into `dir` and writes its
// tokenizer.json beside it; returns the tokenizer.json path.
inline std::string deberta_style_tokenizer(const TempDir& dir, bool byte_fallback = false,
                                           bool nfkc = false) {
  std::string model = train_sentencepiece_model(
      dir, "unigram", 3000,
      std::string(kDebertaFlags) + (byte_fallback ? " --byte_fallback=true" : ""));
  std::string path = dir.file("tokenizer.json");
  write_file(path, unigram_json(model, byte_fallback, nfkc));
  return path;
}

}  // namespace winnow::testing
