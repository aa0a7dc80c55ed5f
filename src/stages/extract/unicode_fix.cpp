// unicode_fix: repairs each document's text (text/unicode_repair.h) and never drops one:
// invalid UTF-8 replaced, mojibake repaired, control characters removed, NFC or NFKC.
#include "stages/builtin_stages.h"
#include "text/unicode_repair.h"

namespace winnow {

namespace {

class UnicodeFixStage final : public Stage {
 public:
  UnicodeFixStage(UnicodeRepairOptions options, bool annotate, StageContext& context)
      : options_(options), annotate_(annotate), column_(context.stage_name()) {}

  Status process(DocBatch& batch) override {
    AnnotationColumn* column =
        annotate_ ? &batch.annotation(column_, AnnotationType::kString) : nullptr;
    std::string repaired;
    std::string fixes;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!batch.kept(i)) continue;
      UnicodeRepairChanges changes = repair_unicode(batch.text(i), options_, repaired);
      if (changes.any()) batch.set_text(i, repaired);
      if (column) {
        // What was fixed, for auditing a corpus ("" when the text was clean).
        fixes.clear();
        auto add = [&](bool done, const char* name) {
          if (!done) return;
          if (!fixes.empty()) fixes += ',';
          fixes += name;
        };
        add(changes.invalid_utf8, "invalid_utf8");
        add(changes.mojibake, "mojibake");
        add(changes.control_chars, "control_chars");
        add(changes.normalized, "normalized");
        column->set_string(i, fixes);
      }
    }
    return Status::ok();
  }

 private:
  UnicodeRepairOptions options_;
  bool annotate_;
  std::string column_;
};

}  // namespace

StageSpec unicode_fix_spec() {
  return {
      "unicode_fix",
      "Repairs text: invalid UTF-8 replaced, mojibake (UTF-8 read as Windows-1252) fixed, "
      "control characters removed, NFC or NFKC. Never drops a document.",
      {
          {"normalization", ParamType::kString, "nfc", "nfc, nfkc or none"},
          {"fix_mojibake", ParamType::kBool, "true",
           "repair UTF-8 decoded as Windows-1252/Latin-1 (\"CafÃ©\" -> \"Café\") when clearly "
           "better"},
          {"remove_control_chars", ParamType::kBool, "true",
           "remove control characters except tab and newline (\\r\\n, \\r, \\v, \\f become \\n)"},
          {"annotate", ParamType::kBool, "false",
           "record what was fixed (comma-separated) in a field named after the stage"},
      },
      [](const StageParams& p, StageContext& context) -> Result<std::unique_ptr<Stage>> {
        UnicodeRepairOptions options;
        auto form = p.get_choice<UnicodeNormalization>(
            "normalization", {{"nfc", UnicodeNormalization::kNfc},
                              {"nfkc", UnicodeNormalization::kNfkc},
                              {"none", UnicodeNormalization::kNone}});
        if (!form.is_ok()) return form.status();
        options.normalization = *form;
        options.fix_mojibake = p.get_bool("fix_mojibake");
        options.remove_control_chars = p.get_bool("remove_control_chars");
        return std::unique_ptr<Stage>(
            new UnicodeFixStage(options, p.get_bool("annotate"), context));
      },
  };
}

}  // namespace winnow
