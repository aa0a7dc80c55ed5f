#include "text/trafilatura_rules.h"

#include <algorithm>
#include <initializer_list>
#include <string>

#include "core/ascii.h"
#include "text/tag_set.h"

namespace winnow {

namespace {

// Elements that never hold a page's main text: code, style and metadata; forms' controls;
// media and embedded documents; navigation, asides, footers and menus; dates (<time>) and ad
// slots (<ins>); ruby annotations. <form> itself is not here: whole pages (ASP.NET's) sit in
// one, and what it holds besides its controls is judged like any other text.
constexpr TagSet kRemovedTags{
    "head",     "script",   "style",    "template", "noscript", "iframe",   "frame",   "frameset",
    "object",   "embed",    "applet",   "svg",      "math",     "canvas",   "video",   "audio",
    "map",      "area",     "picture",  "figure",   "source",   "track",    "nav",     "aside",
    "footer",   "menu",     "menuitem", "button",   "input",    "select",   "option",  "optgroup",
    "datalist", "textarea", "label",    "fieldset", "legend",   "dialog",   "output",  "progress",
    "meter",    "marquee",  "blink",    "time",     "ins",      "rp",       "rt",      "rtc",
    "link",     "meta",     "noindex",  "title"};

// Elements whose class, id or role are checked for page-furniture names.
constexpr TagSet kPatternTags{"div", "section", "article", "ul",    "ol", "dl",
                              "li",  "p",       "span",    "table", "header"};

// Elements that may be the main content's container.
constexpr TagSet kContainerTags{"article", "div", "main", "section"};

// Attribute values longer than this are judged by their start: real class lists are far
// shorter, and a hostile page's megabyte-long attribute must not cost a scan per rule.
constexpr size_t kMaxExamined = 1024;

// Names of page furniture found anywhere in a class or id value: distinctive enough not to
// occur inside ordinary words.
constexpr std::string_view kFurnitureAnywhere[] = {
    "cookie",     "consent",    "gdpr",      "sidebar",    "navbar",   "navigation",
    "breadcrumb", "newsletter", "footer",    "comment",    "disqus",   "outbrain",
    "taboola",    "advert",     "sponsor",   "social",     "sharing",  "subscribe",
    "paywall",    "related",    "popular",   "pagination", "toolbar",  "masthead",
    "byline",     "signup",     "sign-up",   "skip-link",  "skiplink", "navheader",
    "sr-only",    "screen-reader", "visually-hidden"};

// Short names that count only as a whole piece of a name ("main-nav", "nav_top", "ad-slot";
// not "canvas", "head", "menuselection").
constexpr std::string_view kFurnitureWords[] = {
    "nav",   "menu",  "share", "shares", "ad",     "ads",    "tags",    "banner", "modal",
    "popup", "promo", "widget", "pager", "hidden", "hide",   "overlay", "login"};

// ARIA roles of page furniture.
constexpr std::string_view kFurnitureRoles[] = {"navigation", "banner",    "contentinfo",
                                                "complementary", "search", "menu",
                                                "menubar",    "toolbar",   "dialog",
                                                "alertdialog"};

bool is_name_separator(char c) { return c == ' ' || c == '-' || c == '_' || c == ':'; }

bool contains_word(std::string_view value, std::string_view word) {
  for (size_t at = value.find(word); at != std::string_view::npos;
       at = value.find(word, at + 1)) {
    size_t after = at + word.size();
    bool starts = at == 0 || is_name_separator(value[at - 1]);
    bool ends = after == value.size() || is_name_separator(value[after]) ||
                is_ascii_digit(value[after]);
    if (starts && ends) return true;
  }
  return false;
}

bool contains_any(std::string_view value, std::initializer_list<std::string_view> parts) {
  return std::any_of(parts.begin(), parts.end(),
                     [&](std::string_view p) { return value.find(p) != std::string_view::npos; });
}

bool equals_any(std::string_view value, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), value) != names.end();
}

std::string lowered_attribute(const HtmlElement& element, std::string_view name) {
  auto value = element.attribute(name);
  if (!value) return {};
  return ascii_lowered(value->substr(0, std::min(value->size(), kMaxExamined)));
}

bool is_hidden(const HtmlElement& element) {
  if (element.attribute("hidden")) return true;
  if (lowered_attribute(element, "aria-hidden") == "true") return true;
  std::string style = lowered_attribute(element, "style");
  std::erase_if(style, [](char c) { return c == ' ' || c == '\t'; });
  return contains_any(style, {"display:none", "visibility:hidden"});
}

// The candidate rank of a container from its tag, class, id, role and itemprop (lowercased).
uint8_t candidate_rank(std::string_view tag, std::string_view cls, std::string_view id,
                       std::string_view role, std::string_view itemprop) {
  // 1: names of an article's body.
  if (itemprop == "articlebody" || equals_any(cls, {"post", "entry"}) || id == "articlecontent" ||
      contains_any(id, {"article-content", "entry-content", "art-content", "article__content",
                        "article-body", "articlebody", "article__body", "body-text"}) ||
      contains_any(cls, {"post-text", "post_text", "post-body", "post-entry", "postentry",
                         "post-content", "post_content", "postcontent", "article-text",
                         "articletext", "entry-content", "page-content", "text-content",
                         "article-content", "art-content", "article__content", "article-body",
                         "articlebody", "article__body", "body-text", "article__container"})) {
    return 1;
  }
  if (tag == "article") return 2;
  // 3: names of a story or a single post.
  if (role == "article" || equals_any(id, {"article", "story"}) ||
      equals_any(cls, {"postarea", "text", "cell", "story"}) || id.starts_with("primary") ||
      cls.starts_with("article ") ||
      contains_any(id, {"story-body"}) ||
      contains_any(cls, {"fulltext", "story-content", "storycontent", "story-body",
                         "blog-content", "section-content", "single-content", "theme-content",
                         "single-post", "main-column", "field-body", "post-bodycopy"})) {
    return 3;
  }
  // 4: a generic content area.
  if (id == "content" || cls == "content" ||
      contains_any(id, {"content-main", "content_main", "content-body", "content__body",
                        "contentbody", "main-content", "maincontent"}) ||
      contains_any(cls, {"content-main", "content_main", "content-body", "content__body",
                         "contentbody", "main-content", "maincontent"})) {
    return 4;
  }
  // 5: the page's main area.
  if (tag == "main" || cls.starts_with("main") || id.starts_with("main") ||
      role.starts_with("main")) {
    return 5;
  }
  return 0;
}

}  // namespace

bool names_boilerplate(std::string_view value) {
  for (std::string_view part : kFurnitureAnywhere) {
    if (value.find(part) != std::string_view::npos) return true;
  }
  for (std::string_view word : kFurnitureWords) {
    if (contains_word(value, word)) return true;
  }
  return false;
}

TrafilaturaElementRule classify_trafilatura_element(const HtmlElement& element) {
  TrafilaturaElementRule rule;
  std::string_view tag = element.tag();
  if (kRemovedTags.contains(tag) || is_hidden(element)) {
    rule.removed = true;
    return rule;
  }
  bool patterned = kPatternTags.contains(tag);
  bool container = kContainerTags.contains(tag);
  std::string role = lowered_attribute(element, "role");
  if (!patterned && !container && role.empty()) return rule;
  std::string cls = lowered_attribute(element, "class");
  std::string id = lowered_attribute(element, "id");
  bool furniture_role = std::find(std::begin(kFurnitureRoles), std::end(kFurnitureRoles), role) !=
                        std::end(kFurnitureRoles);
  rule.boilerplate =
      furniture_role || (patterned && (names_boilerplate(cls) || names_boilerplate(id)));
  // A <span> is inline: it cannot be a block left out later, so it goes now.
  if (rule.boilerplate && tag == "span") {
    rule.removed = true;
    return rule;
  }
  if (container) {
    rule.candidate = candidate_rank(tag, cls, id, role, lowered_attribute(element, "itemprop"));
  }
  return rule;
}

}  // namespace winnow
