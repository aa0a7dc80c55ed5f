#include "stages/modify/text_modifier.h"

#include "text/python_text.h"

namespace winnow {

namespace {

class ModifierStage final : public Stage {
 public:
  ModifierStage(std::unique_ptr<TextModifier> modifier, bool counts_added, StageContext& context)
      : modifier_(std::move(modifier)),
        empty_(context.declare_reason("empty")),
        changed_key_(context.stage_name() + "/documents_changed"),
        removed_key_(context.stage_name() + "/chars_removed"),
        added_key_(counts_added ? context.stage_name() + "/chars_added" : std::string()) {}

  Status process(DocBatch& batch) override {
    std::string out;
    uint64_t changed = 0, removed = 0, added = 0;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      std::string_view text = batch.text(i);
      TextRewrite rewrite = modifier_->rewrite(text, out);
      if (rewrite.drop != kKept) {
        ++changed;
        removed += python_len(text);
        batch.drop(i, rewrite.drop);
        continue;
      }
      if (!rewrite.changed || out == text) continue;
      ++changed;
      size_t before = python_len(text), after = python_len(out);
      if (before > after) removed += before - after;
      if (after > before) added += after - before;
      // Emptied by this rewrite: dropped with its text as it came, for rejected/ to show.
      if (python_strip(out).empty() && !python_strip(text).empty()) {
        batch.drop(i, empty_);
        continue;
      }
      batch.set_text(i, out);
    }
    // Zero entries too, so that every modifier's step shows its counts in stats.json.
    batch.stage_counts[changed_key_] += changed;
    batch.stage_counts[removed_key_] += removed;
    if (!added_key_.empty()) batch.stage_counts[added_key_] += added;
    return Status::ok();
  }

 private:
  std::unique_ptr<TextModifier> modifier_;
  ReasonId empty_;
  std::string changed_key_, removed_key_, added_key_;
};

}  // namespace

StageSpec modifier_spec(std::string name, std::string summary, std::vector<ParamSpec> params,
                        TextModifierFactory make, bool counts_added) {
  StageSpec spec;
  spec.name = std::move(name);
  spec.summary = std::move(summary);
  spec.params = std::move(params);
  spec.make = [make = std::move(make), counts_added](
                  const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
    auto modifier = make(p, context);
    if (!modifier.is_ok()) return modifier.status();
    return std::unique_ptr<Stage>(
        new ModifierStage(std::move(modifier.value()), counts_added, context));
  };
  return spec;
}

}  // namespace winnow
