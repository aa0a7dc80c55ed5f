#pragma once
// The text of one arXiv paper from its LaTeX files, by NeMo Curator's ArxivExtractor rules
// (themselves RedPajama's), so that winnow keeps the papers NeMo keeps with the same text.
// Each file, in the paper's order:
//   1. everything before the first sectioning command is cut (\chapter, \part, \section,
//      \subsection, \subsubsection, each with an optional * and [..] and a {..}; and, as
//      NeMo's pattern joins its last two alternatives with no `|`, a \paragraph{..} directly
//      followed by a \subparagraph{..}); a file with none gives an empty text;
//   2. lines that start with % are removed, then every % not after a backslash together with
//      the character before it and the rest of its line (when at least one character follows);
//   3. everything from the first \appendix, \begin{references}, \begin{REFERENCES},
//      \begin{thebibliography} or \bibliography{..} on is cut;
//   4. the paper's argument-less macros (`\newcommand{\name}{value}` and `\def\name{value}`
//      ending their line, from every file, in order of first definition, the last value
//      winning) are expanded in turn wherever `\name` is followed by a character that is not
//      an ASCII letter or digit.
// The files' texts are joined with "\n" (so two files with no section give "\n", a document,
// as in NeMo); an empty result means no document.
//
// NeMo passes each macro value to re.sub as a replacement template after Python's
// unicode-escape, which rejects any value holding a character outside printable ASCII, tab,
// CR and LF ("bad escape \x"); the exception drops the whole paper. That is reproduced: such a
// paper gives no document (when any of its files has a sectioning command, as in NeMo).
//
// Known difference: Python's \b and \s are Unicode-aware and RE2's are ASCII, so a sectioning
// command glued to a non-ASCII letter (`\sectioné`) is a command here and not in NeMo.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace winnow {

enum class ArxivTextOutcome {
  kText,         // a document
  kNoSection,    // no file has a sectioning command (or what is left is empty)
  kMacroValue,   // a macro's value NeMo cannot use as a template: the paper is dropped
};

struct ArxivText {
  ArxivTextOutcome outcome = ArxivTextOutcome::kText;
  std::string text;
};

// `files`: the paper's .tex files, valid UTF-8, in the order NeMo reads them.
ArxivText arxiv_paper_text(const std::vector<std::string>& files);

// NeMo's id from the file's name without its extension: `<archive><digits.>` becomes
// `<archive>/<digits.>` (old-style ids such as astro-ph/0001001), `<digits.>` stays, and any
// other name is kept as it is.
std::string arxiv_id_from_name(std::string_view stem);

}  // namespace winnow
