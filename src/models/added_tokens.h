#pragma once
// AddedTokens: a tokenizer.json's added tokens (<bos>, <|im_start|>, [MASK], gemma3's 6,000
// <unusedN> and newline runs...), found in the text before the model sees it, the way HF's
// AddedVocabulary does: leftmost match first, the longest of those starting there (an
// Aho-Corasick LeftmostLongest search in HF; a byte trie here), lstrip/rstrip swallowing the
// whitespace beside a match, single_word tokens dropped where a word character touches them. Each
// match becomes its own id; the text between is tokenised.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace simdjson::dom {
class element;
}

namespace winnow {

class AddedTokens {
 public:
  struct Token {
    std::string content;
    int64_t id = 0;
    bool lstrip = false;
    bool rstrip = false;
    // Only a match with no word character (Unicode \w) just before or after it in the text
    // searched counts; HF drops the others and searches on after them.
    bool single_word = false;
  };
  void add(Token token);
  bool empty() const { return tokens_.empty(); }

  // Calls on_text(span, start offset in `text`) for each stretch between matches (never empty)
  // and on_token(id) for each match, in text order.
  void split(std::string_view text, const std::function<void(std::string_view, size_t)>& on_text,
             const std::function<void(int64_t)>& on_token) const;

 private:
  struct Node {
    std::vector<std::pair<unsigned char, int32_t>> children;  // sorted by byte
    int32_t token = -1;                                       // index in tokens_ ending here
  };
  int32_t child(int32_t node, unsigned char byte) const;
  std::vector<Node> nodes_ = {Node{}};
  std::vector<Token> tokens_;
  bool first_byte_[256] = {};  // bytes some token starts with: others are skipped at once
};

// The "added_tokens" of a tokenizer.json's `root`, with HF's flags (absent ones false): those
// marked normalized are matched in the normalised text, so their content goes through
// `normalize` (the file's normalizer) into `normalized`; the others into `raw`.
Status parse_added_tokens(const simdjson::dom::element& root,
                          const std::function<void(std::string&)>& normalize, AddedTokens& raw,
                          AddedTokens& normalized);

}  // namespace winnow
