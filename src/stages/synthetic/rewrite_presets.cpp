#include "stages/synthetic/rewrite_presets.h"

#include <array>

namespace winnow {

namespace {

// Nemotron-CC uses one general system prompt and a stricter one for distillation.
constexpr std::string_view kAssistant =
    "You are a knowledgeable and helpful assistant. Your answers are thorough, accurate and "
    "courteous, and you answer exactly what the user asks for.";
constexpr std::string_view kCarefulAssistant =
    "You are an assistant that reasons well and writes with care: what you write is accurate, "
    "factual, considered and faithful to the nuances of its source.";

constexpr std::string_view kWikipedia =
    "Rewrite the text below in varied, fluent, high-quality English, in the encyclopedic style "
    "of a Wikipedia article. Keep its meaning and its facts; add nothing. Start your answer on a "
    "line of its own with \"Here is a paraphrased version:\".\n"
    "\n"
    "Text: {document}";

constexpr std::string_view kDiverseQa =
    "Task:\n"
    "Read the text below, then write questions about it and answer them.\n"
    "\n"
    "Guidelines:\n"
    "1. Vary the questions: they should call on different skills and cover different parts of "
    "the text.\n"
    "2. Mix kinds of question, for example:\n"
    "  - yes/no questions on whether a statement holds;\n"
    "  - open questions beginning with what, how, when, where, why or who;\n"
    "  - multiple-choice questions, with the choices written in the question;\n"
    "  - comparisons of two quantities or things and how they relate;\n"
    "  - comprehension questions on what the text means;\n"
    "  - problems to solve (mathematical, physical or logical).\n"
    "3. Ask about facts, important knowledge and concrete details the text gives.\n"
    "4. Keep questions and answers short and clear.\n"
    "5. Write plain text, without Markdown.\n"
    "6. Put each question and its answer on one line, marked \"Question:\" and \"Answer:\".\n"
    "\n"
    "Text:\n"
    "{document}\n"
    "\n"
    "Task:\n"
    "Now write at most 8 questions about the text above with their correct answers, following "
    "the guidelines, in exactly this form:\n"
    "\n"
    "Here are the questions and answers based on the provided text:\n"
    "- Question: [a question] Answer: [its answer]\n"
    "- Question: [another question] Answer: [its answer]\n"
    "...";

constexpr std::string_view kDistill =
    "Rewrite the text below as a shorter, denser version that keeps everything that matters:\n"
    "- Make it condensed yet accurate and informative; not a bare summary.\n"
    "- Keep the key information, concepts, figures and factual details, and make them easier "
    "to read and follow.\n"
    "- Keep technical terms, specialised vocabulary and difficult ideas.\n"
    "- Keep examples, lines of reasoning and supporting evidence, so the depth of the original "
    "remains.\n"
    "- Use only what the text says; add no new or unsupported claims.\n"
    "- Write plain text, without formatting.\n"
    "\n"
    "Text:\n"
    "{document}\n"
    "\n"
    "Task:\n"
    "Having read the text above closely, rewrite it in clear, high-quality English following "
    "these instructions. Start your answer with \"Paraphrased Text:\".";

constexpr std::string_view kExtractKnowledge =
    "Restate the knowledge in the text below, following these instructions:\n"
    "- Write it as one or more passages in clear, high-quality English, like the prose of a "
    "textbook or an encyclopedia.\n"
    "- Concentrate on subject matter such as the humanities, social and natural sciences, "
    "technology, engineering, mathematics, law, business, management, the arts, education, "
    "agriculture, politics and history.\n"
    "- Leave out whatever carries no useful facts or knowledge.\n"
    "- Keep examples, lines of reasoning and supporting evidence, so the depth of the original "
    "remains.\n"
    "- Change no detail and add none: restate only what the text says.\n"
    "- Write plain text.\n"
    "- Add no titles, subtitles, notes or comments.\n"
    "\n"
    "Text:\n"
    "{document}\n"
    "\n"
    "Task:\n"
    "Restate the facts and knowledge of the text above as one or more passages, following the "
    "instructions.";

constexpr std::string_view kKnowledgeList =
    "Go through the text below and pull out its key information, following these "
    "instructions:\n"
    "- Give a concise, well-organised list of the facts, concrete details, key concepts and "
    "important numbers and statistics in the text.\n"
    "- Make every item clear, specific and supported by the text.\n"
    "- Keep the list dense with information and easy to learn from.\n"
    "- Add no titles or headings.\n"
    "\n"
    "Text:\n"
    "{document}\n"
    "\n"
    "Task:\n"
    "List the facts, concrete details and key concepts of the text above, following the "
    "instructions.";

// The headings NeMo's extract-knowledge pipeline removes from its replies (LineRemover).
constexpr std::array<std::string_view, 4> kPassageLines = {
    "Passage:", "Passage 1:", "Passage 2:", "Passage 3:"};

const std::array<RewritePreset, 5> kPresets = {{
    {"wikipedia",
     "WikipediaParaphrasingStage",
     kAssistant,
     kWikipedia,
     "rephrased",
     RewritePost::kPrefix,
     "Here is a paraphrased version:",
     {}},
    {"diverse_qa",
     "DiverseQAStage",
     kAssistant,
     kDiverseQa,
     "diverse_qa",
     RewritePost::kDiverseQa,
     "Here are the questions and answers based on the provided text:",
     {}},
    {"distill",
     "DistillStage",
     kCarefulAssistant,
     kDistill,
     "distill",
     RewritePost::kPrefix,
     "Paraphrased Text:",
     {}},
    {"extract_knowledge", "ExtractKnowledgeStage", kAssistant, kExtractKnowledge,
     "extract_knowledge", RewritePost::kRemoveLines, "", kPassageLines},
    {"knowledge_list",
     "KnowledgeListStage",
     kAssistant,
     kKnowledgeList,
     "knowledge_list",
     RewritePost::kKnowledgeList,
     "",
     {}},
}};

}  // namespace

const RewritePreset* find_rewrite_preset(std::string_view name) {
  for (const RewritePreset& preset : kPresets) {
    if (preset.name == name) return &preset;
  }
  return nullptr;
}

std::string rewrite_preset_names() {
  std::string out;
  for (const RewritePreset& preset : kPresets) {
    if (!out.empty()) out += ", ";
    out += preset.name;
  }
  return out;
}

}  // namespace winnow
