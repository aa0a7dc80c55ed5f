#pragma once
// The configuration reference (docs/reference.md, printed by `winnow reference`): every key of
// a pipeline file from the declarations the loader checks (config_keys.h), and every stage with
// its parameters from the registry. A test compares docs/reference.md with it.
#include <string>

#include "core/stage.h"

namespace winnow {

std::string config_reference_markdown(const StageRegistry& registry);

}  // namespace winnow
