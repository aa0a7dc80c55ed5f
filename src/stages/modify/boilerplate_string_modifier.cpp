// boilerplate_string_modifier: NeMo Curator's BoilerPlateStringModifier (its "c4" modifier,
// adapted from C4's boilerplate rules), on paragraphs: the pieces of text.split("\n\n"), each
// compared ASCII-lowered (policy_phrases.h) with NeMo's policy phrases.
//   - a paragraph holding "lorem ipsum": the document goes (NeMo returns ""), reason
//     `lorem_ipsum`;
//   - paragraphs holding a policy phrase: with `remove_if_at_top_or_bottom` (default true) they
//     are removed when they form one run at the top or at the bottom of the document and are
//     not all its paragraphs; anywhere else, or every paragraph, the text stays as it is. With
//     `remove_if_at_top_or_bottom: false` the first one removes the document, reason
//     `boilerplate`;
//   - the paragraphs left are joined by "\n\n".
// This is not C4's line filter (javascript, curly brackets, terminal punctuation, too few
// words): those rules are datatrove's C4QualityFilter, the `c4_quality` stage, which has a
// mode that only removes lines (docs/porting.md).
#include <vector>

#include "core/ascii.h"
#include "stages/modify/text_modifier.h"
#include "stages/text_quality/policy_phrases.h"

namespace winnow {

namespace {

// NeMo's is_paragraph_indices_in_top_or_bottom_only: ascending indices that are contiguous and
// start at the first paragraph or end at the last, and are not all of them.
bool top_or_bottom_only(const std::vector<size_t>& indices, size_t paragraphs) {
  if (indices.size() == paragraphs) return false;
  for (size_t k = 1; k < indices.size(); ++k) {
    if (indices[k] != indices[k - 1] + 1) return false;
  }
  return indices.front() == 0 || indices.back() == paragraphs - 1;
}

class BoilerPlateStringModifier final : public TextModifier {
 public:
  BoilerPlateStringModifier(bool remove_if_at_top_or_bottom, StageContext& context)
      : remove_if_at_top_or_bottom_(remove_if_at_top_or_bottom),
        lorem_ipsum_(context.declare_reason("lorem_ipsum")),
        boilerplate_(context.declare_reason("boilerplate")) {}

  TextRewrite rewrite(std::string_view text, std::string& out) const override {
    std::string lowered;
    ascii_lower(text, lowered);
    std::string_view all = lowered;
    // Neither phrase spans "\n\n": a text without them anywhere has no paragraph with them.
    if (find_bytes(all, "lorem ipsum") == std::string_view::npos &&
        !may_have_nemo_policy_phrase(all)) {
      return {};
    }
    // Paragraphs as (begin, size) in bytes, which index `text` and `lowered` alike.
    std::vector<std::pair<size_t, size_t>> paragraphs;
    for (size_t begin = 0;;) {
      size_t end = find_bytes(all, "\n\n", begin);
      if (end == std::string_view::npos) {
        paragraphs.emplace_back(begin, all.size() - begin);
        break;
      }
      paragraphs.emplace_back(begin, end - begin);
      begin = end + 2;
    }
    std::vector<size_t> boilerplate;
    for (size_t k = 0; k < paragraphs.size(); ++k) {
      std::string_view paragraph = all.substr(paragraphs[k].first, paragraphs[k].second);
      if (find_bytes(paragraph, "lorem ipsum") != std::string_view::npos) {
        return {true, lorem_ipsum_};
      }
      if (has_policy_phrase(paragraph, kNemoPolicyPhrases)) {
        if (!remove_if_at_top_or_bottom_) return {true, boilerplate_};
        boilerplate.push_back(k);
      }
    }
    if (boilerplate.empty() || !top_or_bottom_only(boilerplate, paragraphs.size())) return {};
    out.clear();
    size_t next = 0;  // the next index of `boilerplate` to skip
    bool first = true;
    for (size_t k = 0; k < paragraphs.size(); ++k) {
      if (next < boilerplate.size() && boilerplate[next] == k) {
        ++next;
        continue;
      }
      if (!first) out += "\n\n";
      out.append(text, paragraphs[k].first, paragraphs[k].second);
      first = false;
    }
    return {true};
  }

 private:
  bool remove_if_at_top_or_bottom_;
  ReasonId lorem_ipsum_, boilerplate_;
};

}  // namespace

StageSpec boilerplate_string_modifier_spec() {
  return modifier_spec(
      "boilerplate_string_modifier",
      "NeMo BoilerPlateStringModifier (its C4 modifier): removes policy and cookie paragraphs "
      "at the top or bottom of a document; drops documents with lorem ipsum.",
      {{"remove_if_at_top_or_bottom", ParamType::kBool, "true",
        "remove policy paragraphs in one run at the top or bottom (false: drop the document "
        "when any paragraph has one)"}},
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<TextModifier>> {
        return std::unique_ptr<TextModifier>(
            new BoilerPlateStringModifier(p.get_bool("remove_if_at_top_or_bottom"), context));
      });
}

}  // namespace winnow
