#pragma once
// Comment extraction for NeMo Curator's code filters, without the Python libraries NeMo uses
// (comment_parser, tokenize, ast): a lexer per comment syntax that skips string literals.
//   - comment_chars: code points of comment text without its delimiters (comment_parser's
//     Comment.text()), for the syntaxes "c" (// and /* */: C, C++, Java, JavaScript, Go),
//     "hash" (#: Python, Ruby, shell) and "html" (<!-- -->: HTML, XML).
//   - python_comment_chars: code points of "#" comments (with the "#", as tokenize's COMMENT
//     token) plus the contents of docstrings. A docstring here is a string literal that begins
//     a statement line (only white space before it), which covers the module, class and
//     function docstrings ast finds, and also counts bare string statements elsewhere.
#include <cstddef>
#include <string_view>

namespace winnow {

enum class CommentSyntax { kC, kHash, kHtml };

size_t comment_chars(std::string_view source, CommentSyntax syntax);
size_t python_comment_chars(std::string_view source);

}  // namespace winnow
