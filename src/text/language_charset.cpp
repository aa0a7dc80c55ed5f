#include "text/language_charset.h"

#include <unicode/uloc.h>
#include <unicode/ulocdata.h>
#include <unicode/uniset.h>
#include <unicode/uset.h>

#include "text/python_text.h"

namespace winnow {

struct LanguageCharset::Impl {
  icu::UnicodeSet set;
};

LanguageCharset::LanguageCharset() : impl_(std::make_unique<Impl>()) {}
LanguageCharset::~LanguageCharset() = default;

Result<std::shared_ptr<const LanguageCharset>> LanguageCharset::for_language(
    const std::string& language) {
  // ICU falls back to root data for any string; accept only a known ISO 639 language.
  char lang[16] = {0};
  UErrorCode lang_status = U_ZERO_ERROR;
  uloc_getLanguage(language.c_str(), lang, sizeof(lang) - 1, &lang_status);
  bool known = false;
  for (const char* const* iso = uloc_getISOLanguages(); U_SUCCESS(lang_status) && *iso; ++iso) {
    known = known || std::string_view(*iso) == lang;
  }
  if (!known) return Status::errorf("unknown language '{}'", language);
  UErrorCode status = U_ZERO_ERROR;
  ULocaleData* data = ulocdata_open(language.c_str(), &status);
  if (U_FAILURE(status) || !data) {
    return Status::errorf("no character data for language '{}'", language);
  }
  std::shared_ptr<LanguageCharset> charset(new LanguageCharset());
  icu::UnicodeSet& set = charset->impl_->set;
  bool any = false;
  for (ULocaleDataExemplarSetType type :
       {ULOCDATA_ES_STANDARD, ULOCDATA_ES_AUXILIARY, ULOCDATA_ES_INDEX, ULOCDATA_ES_PUNCTUATION}) {
    UErrorCode s = U_ZERO_ERROR;
    USet* exemplars = ulocdata_getExemplarSet(data, nullptr, USET_ADD_CASE_MAPPINGS, type, &s);
    if (U_SUCCESS(s) && exemplars) {
      // Fallback to root data is a warning; only the language's own sets count.
      if (s != U_USING_DEFAULT_WARNING) {
        set.addAll(*icu::UnicodeSet::fromUSet(exemplars));
        any = any || type == ULOCDATA_ES_STANDARD;
      }
      uset_close(exemplars);
    }
  }
  ulocdata_close(data);
  if (!any || set.isEmpty()) return Status::errorf("no character data for language '{}'", language);
  set.add(0x30, 0x39);  // digits
  for (char c : std::string_view("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"))
    set.add(static_cast<UChar32>(c));
  set.add(0x09, 0x0D);
  set.add(0x20);
  set.add(0xA0);
  set.freeze();
  for (int c = 0; c < 128; ++c) charset->ascii_[c] = set.contains(c);
  return std::shared_ptr<const LanguageCharset>(std::move(charset));
}

bool LanguageCharset::contains(uint32_t code_point) const {
  if (code_point < 128) return ascii_[code_point];
  return impl_->set.contains(static_cast<UChar32>(code_point));
}

void LanguageCharset::count(std::string_view text, size_t& in_set, size_t& total) const {
  in_set = total = 0;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    auto b = static_cast<unsigned char>(*p);
    uint32_t cp = b < 0x80 ? (++p, b) : decode_utf8(p, end);
    ++total;
    in_set += contains(cp);
  }
}

}  // namespace winnow
