// c4_quality: datatrove's C4QualityFilter — the C4 document filters and its line-removal
// modifier in one pass, as datatrove runs them. Each line of str.splitlines(), stripped:
//   - a word (whitespace split) longer than max_word_length: the line is removed;
//   - citation markers [1], [edit], [citation needed] are cut out (remove_citations);
//   - no terminal punctuation (. ? ! " '), or ending in "...": removed (filter_no_terminal_punct;
//     FineWeb turns it off);
//   - fewer than min_words_per_line words: removed;
//   - "lorem ipsum" (lower-cased): the document is dropped (lorem_ipsum);
//   - "javascript": removed; "{": the document is dropped (curly_bracket);
//   - a policy phrase (terms of use, privacy policy, cookie policy, uses cookies, use of cookies,
//     use cookies): removed.
// The kept lines' sentences are counted; fewer than min_num_sentences drops the document
// (too_few_sentences). Otherwise the text becomes the kept lines joined by "\n" (stripped), and
// the batch's shared segmentation of that document is invalidated for the stages after it.
//
// Sentences: datatrove splits each kept line with NLTK's Punkt model, which is not available
// here; a line's sentences are counted as 1 + the places where a run of . ! ? (closing quotes
// and brackets allowed) is followed by white space and more text. Abbreviations ("e.g. the")
// therefore count as a boundary where Punkt might not.
//
// With `annotate: true` the stage records <stage>_lines_removed and <stage>_sentences.
#include <array>
#include <string>

#include "core/ascii.h"
#include "stages/text_quality/policy_phrases.h"
#include "stages/text_quality/quality_sets.h"
#include "text/python_text.h"

namespace winnow {

namespace {

// CITATION_REGEX = r"\[\d*]|\[edit]|\[citation needed]"
void remove_citations(std::string_view line, std::string& out) {
  out.clear();
  size_t i = 0;
  while (i < line.size()) {
    if (line[i] == '[') {
      size_t j = i + 1;
      while (j < line.size() && is_ascii_digit(line[j])) ++j;
      if (j < line.size() && line[j] == ']') {
        i = j + 1;
        continue;
      }
      std::string_view rest = line.substr(i);
      if (rest.starts_with("[edit]")) {
        i += 6;
        continue;
      }
      if (rest.starts_with("[citation needed]")) {
        i += 17;
        continue;
      }
    }
    out += line[i++];
  }
}

bool is_closing(char c) { return c == '"' || c == '\'' || c == ')' || c == ']'; }

size_t count_sentences(std::string_view line) {
  size_t sentences = 1;
  size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (c != '.' && c != '!' && c != '?') {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < line.size() && (line[j] == '.' || line[j] == '!' || line[j] == '?')) ++j;
    while (j < line.size() && is_closing(line[j])) ++j;
    size_t k = j;
    while (k < line.size() && (line[k] == ' ' || line[k] == '\t')) ++k;
    if (k > j && k < line.size()) ++sentences;
    i = k > j ? k : j;
  }
  return sentences;
}

class C4QualityStage final : public Stage {
 public:
  struct Options {
    bool remove_citations, filter_no_terminal_punct, filter_lorem_ipsum, filter_javascript,
        filter_curly_bracket, filter_policy;
    int64_t min_num_sentences, min_words_per_line, max_word_length;
  };

  C4QualityStage(Options o, bool annotate, StageContext& context)
      : o_(o),
        annotate_(annotate),
        lines_column_(context.stage_name() + "_lines_removed"),
        sentences_column_(context.stage_name() + "_sentences"),
        lorem_(context.declare_reason("lorem_ipsum")),
        curly_(context.declare_reason("curly_bracket")),
        too_few_(context.declare_reason("too_few_sentences")) {}

  Status process(DocBatch& batch) override {
    AnnotationColumn* removed_column =
        annotate_ ? &batch.annotation(lines_column_, AnnotationType::kInt) : nullptr;
    AnnotationColumn* sentences_column =
        annotate_ ? &batch.annotation(sentences_column_, AnnotationType::kInt) : nullptr;
    thread_local std::vector<std::string_view> lines;
    thread_local std::string line_buf, lower, kept;
    for (size_t row = 0; row < batch.size(); ++row) {
      if (!batch.kept(row)) continue;
      std::string_view text = batch.text(row);
      python_splitlines(text, lines);
      kept.clear();
      int64_t sentences = 0, removed = 0, kept_lines = 0;
      ReasonId drop = kKept;
      for (std::string_view raw : lines) {
        std::string_view line = python_strip(raw);
        // Words of the stripped line (before citations are cut, as datatrove computes them).
        size_t words = 0;
        bool too_long = false;
        {
          const char* p = line.data();
          const char* end = p + line.size();
          bool in_word = false;
          int64_t word_len = 0;
          while (p < end) {
            uint32_t cp = decode_utf8(p, end);
            if (is_python_space(cp)) {
              in_word = false;
            } else {
              if (!in_word) {
                ++words;
                word_len = 0;
                in_word = true;
              }
              if (++word_len > o_.max_word_length && o_.max_word_length != -1) too_long = true;
            }
          }
        }
        if (too_long) {
          ++removed;
          continue;
        }
        if (o_.remove_citations) {
          remove_citations(line, line_buf);
        } else {
          line_buf.assign(line);
        }
        std::string_view l = line_buf;
        if (o_.filter_no_terminal_punct &&
            (l.empty() ||
             !(l.back() == '.' || l.back() == '?' || l.back() == '!' || l.back() == '"' ||
               l.back() == '\'') ||
             l.ends_with("..."))) {
          ++removed;
          continue;
        }
        if (static_cast<int64_t>(words) < o_.min_words_per_line) {
          ++removed;
          continue;
        }
        ascii_lower(l, lower);
        if (o_.filter_lorem_ipsum && lower.find("lorem ipsum") != std::string::npos) {
          drop = lorem_;
          break;
        }
        if (o_.filter_javascript && lower.find("javascript") != std::string::npos) {
          ++removed;
          continue;
        }
        if (o_.filter_curly_bracket && l.find('{') != std::string_view::npos) {
          drop = curly_;
          break;
        }
        if (o_.filter_policy) {
          if (has_policy_phrase(lower, kC4PolicyPhrases)) {
            ++removed;
            continue;
          }
        }
        if (o_.min_num_sentences != -1) sentences += static_cast<int64_t>(count_sentences(l));
        if (kept_lines++ > 0) kept += '\n';
        kept += l;
      }
      if (removed_column) removed_column->set_int(row, removed);
      if (sentences_column) sentences_column->set_int(row, sentences);
      if (drop != kKept) {
        batch.drop(row, drop);
        continue;
      }
      if (sentences < o_.min_num_sentences) {
        batch.drop(row, too_few_, static_cast<double>(sentences));
        continue;
      }
      std::string_view result = python_strip(kept);
      if (result != text) batch.set_text(row, result);
    }
    return Status::ok();
  }

 private:
  Options o_;
  bool annotate_;
  std::string lines_column_, sentences_column_;
  ReasonId lorem_, curly_, too_few_;
};

}  // namespace

StageSpec c4_quality_spec() {
  return {
      "c4_quality",
      "datatrove C4QualityFilter: removes lines (too long a word, no terminal punctuation, too "
      "few words, javascript, policy phrases), drops documents with lorem ipsum or '{' or too "
      "few sentences, and keeps the remaining lines as the text.",
      {
          {"remove_citations", ParamType::kBool, "true", "cut [1], [edit], [citation needed]"},
          {"filter_no_terminal_punct", ParamType::kBool, "true",
           "remove lines not ending in . ? ! \" ' (or ending in ...)"},
          {"min_num_sentences", ParamType::kInt, "5", "fewest sentences kept (-1: no check)"},
          {"min_words_per_line", ParamType::kInt, "3", "lines with fewer words are removed"},
          {"max_word_length", ParamType::kInt, "1000",
           "lines with a longer word are removed (-1: no check)"},
          {"filter_lorem_ipsum", ParamType::kBool, "true", "drop documents with lorem ipsum"},
          {"filter_javascript", ParamType::kBool, "true", "remove lines mentioning javascript"},
          {"filter_curly_bracket", ParamType::kBool, "true", "drop documents with '{'"},
          {"filter_policy", ParamType::kBool, "true", "remove lines with policy phrases"},
          {"annotate", ParamType::kBool, "false",
           "record <stage>_lines_removed and <stage>_sentences"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        C4QualityStage::Options o;
        o.remove_citations = p.get_bool("remove_citations");
        o.filter_no_terminal_punct = p.get_bool("filter_no_terminal_punct");
        o.filter_lorem_ipsum = p.get_bool("filter_lorem_ipsum");
        o.filter_javascript = p.get_bool("filter_javascript");
        o.filter_curly_bracket = p.get_bool("filter_curly_bracket");
        o.filter_policy = p.get_bool("filter_policy");
        o.min_num_sentences = p.get_int("min_num_sentences");
        o.min_words_per_line = p.get_int("min_words_per_line");
        o.max_word_length = p.get_int("max_word_length");
        if (o.min_num_sentences < -1) return p.error("min_num_sentences", "must be -1 or more");
        if (o.min_words_per_line < 0) return p.error("min_words_per_line", "must be 0 or more");
        if (o.max_word_length < -1) return p.error("max_word_length", "must be -1 or more");
        return std::unique_ptr<Stage>(new C4QualityStage(o, p.get_bool("annotate"), context));
      },
  };
}

}  // namespace winnow
