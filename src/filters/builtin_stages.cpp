#include "filters/builtin_stages.h"

namespace winnow {

void register_builtin_stages(StageRegistry& registry) {
  registry.add(text_length_spec());
  registry.add(select_spec());
  registry.add(sample_spec());
  registry.add(add_id_spec());
  registry.add(unicode_fix_spec());
  registry.add(language_id_spec());
  registry.add(fasttext_classify_spec());
  registry.add(fasttext_quality_spec());
}

}  // namespace winnow
