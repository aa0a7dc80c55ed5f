// unicode_reformatter: NeMo Curator's UnicodeReformatter under NeMo's parameter names, as far
// as winnow's Unicode repair (text/unicode_repair.h, the `unicode_fix` stage) goes. NeMo runs
// ftfy.fix_text; winnow does not reimplement ftfy. What is done:
//   - fix_encoding (ftfy's fix_encoding): mojibake of UTF-8 read as Windows-1252 or Latin-1;
//   - remove_control_chars: control characters removed, but also line breaks unified ("\r\n",
//     "\r", "\v", "\f", U+0085 become "\n", which ftfy leaves to its fix_line_breaks, off in
//     NeMo) and C1 controls removed (ftfy's fix_c1_controls maps them to Windows-1252);
//   - normalization: NeMo's default is none (it passes None to ftfy, whose own default is NFC);
//     NFC and NFKC are done, NFD and NFKD refused.
// Invalid UTF-8 is always replaced by U+FFFD (ftfy only sees decoded strings). ftfy's other
// fixers (unescape_html, remove_terminal_escapes, fix_surrogates, restore_byte_a0,
// replace_lossy_sequences, decode_inconsistent_utf8, fix_latin_ligatures, fix_character_width,
// uncurl_quotes, fix_line_breaks) are not parameters here: docs/porting.md lists what differs.
#include "stages/modify/text_modifier.h"
#include "text/unicode_repair.h"

namespace winnow {

namespace {

class UnicodeReformatter final : public TextModifier {
 public:
  explicit UnicodeReformatter(UnicodeRepairOptions options) : options_(options) {}

  TextRewrite rewrite(std::string_view text, std::string& out) const override {
    return {repair_unicode(text, options_, out).any()};
  }

 private:
  UnicodeRepairOptions options_;
};

}  // namespace

StageSpec unicode_reformatter_spec() {
  return modifier_spec(
      "unicode_reformatter",
      "NeMo UnicodeReformatter's names over unicode_fix: mojibake fixed, control characters "
      "removed, optional NFC/NFKC (no normalisation by default, as NeMo).",
      {
          {"fix_encoding", ParamType::kBool, "true",
           "repair UTF-8 decoded as Windows-1252/Latin-1 (ftfy's fix_encoding)"},
          {"remove_control_chars", ParamType::kBool, "true",
           "remove control characters except tab and newline (\\r\\n, \\r, \\v, \\f become \\n)"},
          {"normalization", ParamType::kString, "none", "NFC, NFKC or none (None)"},
      },
      [](const StageParams& p, StageContext&) -> Result<std::unique_ptr<TextModifier>> {
        UnicodeRepairOptions options;
        auto form = p.get_choice<UnicodeNormalization>("normalization",
                                                       {{"none", UnicodeNormalization::kNone},
                                                        {"None", UnicodeNormalization::kNone},
                                                        {"NFC", UnicodeNormalization::kNfc},
                                                        {"nfc", UnicodeNormalization::kNfc},
                                                        {"NFKC", UnicodeNormalization::kNfkc},
                                                        {"nfkc", UnicodeNormalization::kNfkc}});
        if (!form.is_ok()) return form.status();
        options.normalization = *form;
        options.fix_mojibake = p.get_bool("fix_encoding");
        options.remove_control_chars = p.get_bool("remove_control_chars");
        return std::unique_ptr<TextModifier>(new UnicodeReformatter(options));
      },
      /*counts_added=*/true);
}

}  // namespace winnow
