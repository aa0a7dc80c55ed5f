#pragma once
// The filter sets of datatrove's FineWeb recipe (Gopher quality, Gopher repetition, C4 quality,
// FineWeb quality) and NeMo Curator's code filters. Each set is one stage with one drop reason
// per check (datatrove's reason names), as datatrove runs them.
#include "core/stage.h"

namespace winnow {

StageSpec gopher_quality_spec();                 // gopher_quality.cpp
StageSpec gopher_repetition_spec();              // gopher_repetition.cpp
StageSpec c4_quality_spec();                     // c4_quality.cpp
StageSpec fineweb_quality_spec();                // fineweb_quality.cpp
void add_code_filters(StageRegistry& registry);  // code_filters.cpp

inline void add_quality_set_filters(StageRegistry& registry) {
  registry.add(gopher_quality_spec());
  registry.add(gopher_repetition_spec());
  registry.add(c4_quality_spec());
  registry.add(fineweb_quality_spec());
  add_code_filters(registry);
}

}  // namespace winnow
