#pragma once
// Modifiers: stages that rewrite each kept document's text and keep its record (NeMo Curator's
// DocumentModifier run by Modify). A modifier is a TextModifier (the rewrite of one text);
// modifier_spec() wraps it in the stage every modifier shares, which
//   - writes the new text (DocBatch::set_text) only when it differs;
//   - drops a document the rewrite empties (nothing but white space left, where the text was
//     not blank before) with the reason `empty`, keeping its original text in rejected/; a
//     document that was blank already passes unchanged, as NeMo keeps it;
//   - counts, per step in stats.json (DocBatch::stage_counts): `documents_changed` (rewritten or
//     emptied) and `chars_removed` (code points: the old length less the new, summed over the
//     documents it shortened; an emptied document's count is its whole length less the white
//     space left). The string modifiers only ever delete, so this is exactly what they took
//     out. A modifier that can lengthen a text (unicode_reformatter: NFKC, mojibake undone)
//     also counts `chars_added`, the new length less the old over the documents it lengthened:
//     both are net per document.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/stage.h"

namespace winnow {

// What a rewrite did to one text.
struct TextRewrite {
  bool changed = false;   // `out` holds the new text (which may still equal the old)
  ReasonId drop = kKept;  // else: the whole document goes, for this reason of the modifier's
};

// One stage instance's rewrite, built once and called by every worker at once: rewrite() must
// keep its scratch in `out` or on the stack.
class TextModifier {
 public:
  virtual ~TextModifier() = default;
  virtual TextRewrite rewrite(std::string_view text, std::string& out) const = 0;
};

using TextModifierFactory =
    std::function<Result<std::unique_ptr<TextModifier>>(const StageParams&, StageContext&)>;

// The spec of a modifier stage: documents only, reads no record field (builtin_stages.cpp
// declares it). `counts_added`: also count chars_added.
StageSpec modifier_spec(std::string name, std::string summary, std::vector<ParamSpec> params,
                        TextModifierFactory make, bool counts_added = false);

// The spec of a modifier that takes no parameters: one default-constructed Modifier.
template <typename Modifier>
StageSpec fixed_modifier_spec(std::string name, std::string summary) {
  return modifier_spec(std::move(name), std::move(summary), {},
                       [](const StageParams&, StageContext&)
                           -> Result<std::unique_ptr<TextModifier>> {
                         return std::unique_ptr<TextModifier>(new Modifier());
                       });
}

// markdown_remover's and quotation_remover's rules on one text, for a stage that
// post-processes text of its own (llm_rewrite's replies): true when the rule changed the text,
// which `out` then holds (otherwise `out` is unspecified).
bool remove_markdown(std::string_view text, std::string& out);
bool remove_quotation(std::string_view text, std::string& out);

// The modifiers (one family per file under stages/modify/).
StageSpec boilerplate_string_modifier_spec();  // boilerplate_string_modifier.cpp
StageSpec line_remover_spec();                 // string_modifiers.cpp
StageSpec markdown_remover_spec();             // string_modifiers.cpp
StageSpec newline_normalizer_spec();           // string_modifiers.cpp
StageSpec quotation_remover_spec();            // string_modifiers.cpp
StageSpec slicer_spec();                       // slicer.cpp
StageSpec url_remover_spec();                  // string_modifiers.cpp
StageSpec unicode_reformatter_spec();          // unicode_reformatter.cpp

}  // namespace winnow
