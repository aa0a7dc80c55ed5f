#pragma once
// wikitext_to_plain: a Wikipedia article's wikitext → plain text, by the rules NeMo Curator's
// WikipediaExtractor applies (it parses with mwparserfromhell and calls strip_code on each
// section); this is a scanner of its own that gives the same text for the markup articles use:
//
//   - the page is cut into flat sections at top-level headings (the lead first, even when
//     empty); each section is stripped, trimmed of white space at both ends and rid of magic
//     words (`__[A-Z]*__`, e.g. __NOTOC__); sections are joined by a blank line;
//   - templates `{{...}}` (nested) and template arguments `{{{...}}}`: removed;
//   - tables `{| ... |}` (at a line's start, nested) and `<table>` tags: removed;
//   - `<ref>...</ref>`, `<ref/>`: removed; tags mwparserfromhell calls invisible (gallery,
//     math, timeline, imagemap, ...): removed with their contents; self-closing and void tags
//     (`<br>`, `<references/>`): removed; other tags: their contents kept, markup removed;
//     nowiki, pre, source, syntaxhighlight, ...: contents kept unparsed;
//   - HTML comments: removed; HTML entities (`&nbsp;`, `&#931;`, `&#x3a3;`): decoded;
//   - links `[[File:...]]`, `[[Image:...]]`, `[[Media:...]]` (any case): removed with caption;
//     category links `[[Category:Foo]]` keep their name (`Foo`) as NeMo does (it strips only
//     the prefix); other links `[[a|b]]` → `b`, `[[a]]` → `a`;
//   - external links `[http://x text]` → `text`, `[http://x]` → nothing, bare URLs kept;
//   - bold and italic quotes (`''`, `'''`, `'''''`): removed;
//   - headings `== T ==` → their title (spaces inside the `=` kept, as strip_code keeps them);
//   - list markers (`*#:;` at a line's start) and rules (`----`): removed;
//   - in each stripped part, newlines at both ends are dropped and runs of three or more
//     newlines become two (strip_code's collapse).
//
// Known differences from mwparserfromhell (rare in articles): an unbalanced `''` is removed
// (mwparserfromhell keeps it as text); a `:` after `;` on one line is kept; only the English
// prefixes File/Image/Media/Category (plus `extra_*` below) are recognised, not NeMo's
// per-language alias tables.
#include <string>
#include <string_view>
#include <vector>

namespace winnow {

struct WikitextOptions {
  // More link prefixes (without the colon) for another language's wiki, e.g. "Datei", "Kategorie".
  std::vector<std::string> extra_media_prefixes;
  std::vector<std::string> extra_category_prefixes;
};

std::string wikitext_to_plain(std::string_view wikitext, const WikitextOptions& options = {});

}  // namespace winnow
