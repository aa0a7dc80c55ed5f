#pragma once
// NeMo Curator's heuristic filters (filters.md), one stage each, grouped by what they look at.
// Stage and parameter names follow NeMo's class and constructor names (snake_case), so a NeMo
// config moves over key for key; the drop reason is NeMo's filter name.
#include <array>
#include <string_view>

#include "core/stage.h"

namespace winnow {

// NeMo's ellipsis marks: what a line may end with (EllipsisFilter) and what a word may be
// (SymbolsToWordsFilter; a word never holds a space, so the last two never match a word).
inline constexpr std::array<std::string_view, 8> kEllipsisMarks = {
    "...", "[...]", "…", "(...)", "[…]", "-»", "read more..", "read more"};

void add_nemo_char_filters(StageRegistry& registry);        // nemo_char_filters.cpp
void add_nemo_word_filters(StageRegistry& registry);        // nemo_word_filters.cpp
void add_nemo_line_filters(StageRegistry& registry);        // nemo_line_filters.cpp
void add_nemo_repetition_filters(StageRegistry& registry);  // nemo_repetition_filters.cpp

}  // namespace winnow
