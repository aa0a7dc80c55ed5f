#include "filters/builtin_stages.h"

namespace winnow {

void register_builtin_stages(StageRegistry& registry) {
  registry.add(text_length_spec());
  registry.add(select_spec());
  registry.add(sample_spec());
  registry.add(add_id_spec());
  registry.add(html_extract_spec());
}

}  // namespace winnow
