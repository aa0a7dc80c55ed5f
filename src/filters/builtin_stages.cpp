#include "filters/builtin_stages.h"

namespace winnow {

void register_builtin_stages(StageRegistry& registry) {
  registry.add(text_length_spec());
  registry.add(select_spec());
  registry.add(sample_spec());
  registry.add(add_id_spec());
  registry.add(exact_dedup_spec());
  registry.add(fuzzy_dedup_spec());
}

}  // namespace winnow
