#pragma once
// What NeMo Curator's Nemotron-CC pipelines do to a model's reply before it becomes training
// text (tutorials/synthetic/nemotron_cc: MarkdownRemover on every reply, then per task
// SubstringFilter + Slicer + QuotationRemover, LineRemover, DiverseQAPostProcessingStage or
// KnowledgeListPostProcessingStage), on Python's str semantics (text/python_text.h). Their
// token-count filters are left to the `token_count` stage.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stages/synthetic/rewrite_presets.h"

namespace winnow {

// How a reply came out of its post-processing.
enum class RewriteOutcome {
  kText,           // `text` holds the result
  kMissingPrefix,  // kPrefix: the reply does not start with the preset's opening
  kNoQaPairs,      // kDiverseQa: no "Question:" line, or a line before the first one
  kEmpty,          // nothing but white space left
};

struct RewriteResult {
  RewriteOutcome outcome = RewriteOutcome::kText;
  std::string text;
};

// The post-processing of `preset` on `reply`, the model's answer about `document`. `draw_seed`
// decides which QA pairs a kDiverseQa reply keeps (a hash of the document's key and the seed:
// the same pairs whatever the threads, batches or order of replies).
RewriteResult postprocess_reply(const RewritePreset& preset, std::string_view document,
                                std::string_view reply, int max_num_pairs, uint64_t draw_seed);

// DiverseQAPostProcessingStage's parse: non-blank lines, stripped; "- " cut from each (then
// stripped again); the heading line dropped when it is the first; each "Question:" line opens
// a pair and every other line joins the last pair with "\n". Empty where NeMo gives "": no
// lines, no pair, or a line before the first question.
std::vector<std::string> diverse_qa_pairs(std::string_view reply, std::string_view heading);

// NeMo's sampling of those pairs, with winnow's seeded draws in place of Python's `random`:
// the pairs shuffled (Fisher-Yates), then the first k kept, k uniform in [1, max_num_pairs].
std::vector<std::string> sample_qa_pairs(std::vector<std::string> pairs, int max_num_pairs,
                                         uint64_t draw_seed);

// KnowledgeListPostProcessingStage: the first line goes unless it starts with "-"; a line
// starting with "  " or "- " loses those two characters and is stripped; lines joined by "\n".
std::string knowledge_list_text(std::string_view reply);

}  // namespace winnow
