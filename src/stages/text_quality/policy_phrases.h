#pragma once
// The policy and cookie-banner phrases that mark boilerplate, as the filters and modifiers that
// look for them compare them: against ASCII-lowered text (core/ascii.h), by substring. Two
// lists, because the two sources differ:
//   - kNemoPolicyPhrases: NeMo Curator's policy_substrings (its BoilerPlateStringFilter and
//     BoilerPlateStringModifier): the short phrases and five standard cookie-banner sentences;
//   - kC4PolicyPhrases: C4's (and datatrove's C4QualityFilter's) six short phrases, a subset of
//     NeMo's.
#include <array>
#include <string_view>

#include "text/python_text.h"

namespace winnow {

inline constexpr std::array<std::string_view, 14> kNemoPolicyPhrases = {
    "terms of use",
    "privacy policy",
    "cookie policy",
    "uses cookies",
    "privacy overview",
    "use of cookies",
    "use cookies",
    "privacy & cookies policy",
    "privacy and cookies policy",
    "this website uses cookies to improve your experience while you navigate through the "
    "website. out of these cookies, the cookies that are categorized as necessary are stored on "
    "your browser as they are essential for the working of basic functionalities of the "
    "website. we also use third-party cookies that help us analyze and understand how you use "
    "this website. these cookies will be stored in your browser only with your consent. you "
    "also have the option to opt-out of these cookies. but opting out of some of these cookies "
    "may have an effect on your browsing experience.",
    "necessary cookies are absolutely essential for the website to function properly. this "
    "category only includes cookies that ensures basic functionalities and security features "
    "of the website. these cookies do not store any personal information.",
    "any cookies that may not be particularly necessary for the website to function and is used "
    "specifically to collect user personal data via analytics, ads, other embedded contents are "
    "termed as non-necessary cookies. it is mandatory to procure user consent prior to running "
    "these cookies on your website.",
    "this site uses cookies, including for analytics, personalization, and advertising "
    "purposes. for more information or to change your cookie settings, click here.",
    "if you continue to browse this site without changing your cookie settings, you agree to "
    "this use. acceptread more",
};

inline constexpr std::array<std::string_view, 6> kC4PolicyPhrases = {
    "terms of use", "privacy policy", "cookie policy",
    "uses cookies", "use of cookies", "use cookies"};

// Whether `lowered` (ASCII-lowered text) holds one of `phrases`.
template <size_t N>
bool has_policy_phrase(std::string_view lowered, const std::array<std::string_view, N>& phrases) {
  for (std::string_view phrase : phrases) {
    if (find_bytes(lowered, phrase) != std::string_view::npos) return true;
  }
  return false;
}

// Every NeMo phrase holds "cookie", "privacy" or "terms of use": text (ASCII-lowered) holding
// none of them has no policy phrase, which three searches over a whole document say at once.
inline bool may_have_nemo_policy_phrase(std::string_view lowered) {
  return find_bytes(lowered, "cookie") != std::string_view::npos ||
         find_bytes(lowered, "privacy") != std::string_view::npos ||
         find_bytes(lowered, "terms of use") != std::string_view::npos;
}

}  // namespace winnow
