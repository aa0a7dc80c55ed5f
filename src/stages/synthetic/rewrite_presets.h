#pragma once
// The presets of llm_rewrite: the five rewrites of Nemotron-CC's synthetic data (NeMo Curator's
// nemotron_cc stages), each a system prompt, a user prompt template with {document}, the field
// NeMo writes the reply to, and the post-processing NeMo's Nemotron-CC pipelines apply to that
// reply (rewrite_postprocess.h). The prompts are winnow's own wording of the same requests;
// what the post-processing depends on (the opening line each reply must start with, the
// "Question:"/"Answer:" tags, "- " list items) is asked for exactly as NeMo's prompts ask for
// it. NeMo's own templates can be passed as `prompt` or `prompt_file` (docs/porting.md).
#include <span>
#include <string>
#include <string_view>

namespace winnow {

// What is done to a reply after the Markdown is removed (every preset).
enum class RewritePost {
  kNone,           // the reply as it is
  kPrefix,         // must start with `prefix` (else dropped), which is cut, then quotes removed
  kRemoveLines,    // lines equal to one of `remove_lines` removed
  kDiverseQa,      // DiverseQAPostProcessingStage: the document then sampled QA pairs
  kKnowledgeList,  // KnowledgeListPostProcessingStage: list markers and a heading line removed
};

struct RewritePreset {
  std::string_view name;
  std::string_view nemo_stage;  // the NeMo Curator class it stands for
  std::string_view system_prompt;
  std::string_view prompt;        // the user prompt template ({document})
  std::string_view output_field;  // NeMo's output_field
  RewritePost post = RewritePost::kNone;
  std::string_view prefix;  // kPrefix: the reply's opening; kDiverseQa: its heading line
  std::span<const std::string_view> remove_lines;
};

// The preset of that name, or null.
const RewritePreset* find_rewrite_preset(std::string_view name);
// "wikipedia, diverse_qa, distill, extract_knowledge, knowledge_list".
std::string rewrite_preset_names();

}  // namespace winnow
