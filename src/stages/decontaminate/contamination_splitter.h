#pragma once
// ContaminationSplitter: finds the task n-grams in a document and, as NeMo Curator's
// TaskDecontamination does, cuts each one out with a margin and splits the document there.
//
// A match is the leftmost place where any task n-gram starts (the longest one there). Around
// it, `remove_char_each_side` code points more go on each side, and each cut is widened to the
// nearest sentence end ('.', '!' or '?'): the piece before keeps text up to and including the
// last sentence end at or before (match start - margin), the text after resumes just past the
// first sentence end at or after (match end + margin). A piece before a match is kept when it
// has more than `min_document_length` code points; the text after is searched again when it
// has more, else dropped; the text after the last match is kept. So a document without a match
// is one piece, itself. Offsets are those of the original text (NeMo measures the cut from
// word positions in the text with punctuation removed, so its cuts drift with punctuation).
//
// One tokenisation per document (text/normalized_words.h): the text after a cut is searched
// with the words it had, the first one re-normalised when the cut falls inside it, so a
// document costs one pass however many matches it has.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "stages/decontaminate/task_ngrams.h"

namespace winnow {

struct SplitRules {
  size_t remove_char_each_side = 200;
  size_t min_document_length = 200;
};

struct TaskMatch {
  size_t begin = 0;  // bytes of the text: the first word's token start
  size_t end = 0;    // the last word's token end
  uint16_t task = 0;
  uint64_t fingerprint = 0;  // the n-gram's (task_ngram_set.h)
};

class ContaminationSplitter {
 public:
  // `skip`: task n-grams not to match (too common in the corpus: match_counter.h); may be null.
  explicit ContaminationSplitter(const TaskNgrams& tasks,
                                 const std::unordered_set<uint64_t>* skip = nullptr)
      : tasks_(tasks), skip_(skip && !skip->empty() ? skip : nullptr) {}

  // Tokenises `text`, which must outlive the calls below.
  void reset(std::string_view text);
  // The leftmost match in text[from, end) (from may fall inside a word), or nullopt.
  std::optional<TaskMatch> first_match(size_t from);
  // The pieces `text` splits into (views into it) and the matches cut out, in order.
  void split(std::string_view text, const SplitRules& rules, std::vector<std::string_view>& pieces,
             std::vector<TaskMatch>& matches);

 private:
  bool matches(uint64_t fingerprint, uint16_t& task) const {
    task = tasks_.set.find(fingerprint);
    return task != TaskNgramSet::kNoTask && !(skip_ && skip_->count(fingerprint));
  }

  const TaskNgrams& tasks_;
  const std::unordered_set<uint64_t>* skip_;
  std::string_view text_;
  std::vector<NormalizedWord> words_;
  NgramHasher hasher_;
  std::vector<uint64_t> fingerprints_;  // scratch: one block of candidates
};

}  // namespace winnow
