#pragma once
// NeMo Curator's heuristic filters (filters.md), one stage each, grouped by what they look at.
// Stage and parameter names follow NeMo's class and constructor names (snake_case), so a NeMo
// config moves over key for key; the drop reason is NeMo's filter name.
#include "core/stage.h"

namespace winnow {

void add_nemo_char_filters(StageRegistry& registry);        // nemo_char_filters.cpp
void add_nemo_word_filters(StageRegistry& registry);        // nemo_word_filters.cpp
void add_nemo_line_filters(StageRegistry& registry);        // nemo_line_filters.cpp
void add_nemo_repetition_filters(StageRegistry& registry);  // nemo_repetition_filters.cpp

}  // namespace winnow
