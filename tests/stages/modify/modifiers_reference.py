"""Expected outputs of NeMo Curator's text modifiers, for tests/stages/modify/modifiers_test.cpp.

Each rule is applied with Python's own str methods and re, as NeMo's modifiers state them
(nemo_curator/stages/text/modifiers/string/), on fixed cases and on random texts built from
pieces that exercise each rule's edges. winnow's own rule on top: a document the rewrite
changes to nothing but white space (and that was not blank) is dropped as `empty`.

Prints one line per case: CONFIG <tab> INPUT_HEX <tab> OUTCOME <tab> OUTPUT_HEX, where OUTCOME is
"kept" (OUTPUT is the text) or the drop reason. The CONFIG names are the test's.
"""
import random
import re
import sys

# The short policy phrases of NeMo's policy_substrings (the random texts use only these).
POLICY = ["terms of use", "privacy policy", "cookie policy", "uses cookies", "privacy overview",
          "use of cookies", "use cookies", "privacy & cookies policy",
          "privacy and cookies policy"]


def line_remover(text, patterns):
    return "\n".join(line for line in text.split("\n") if line not in patterns)


def markdown_remover(text):
    lines = []
    for line in text.split("\n"):
        for pattern in (r"\*\*(.*?)\*\*", r"\*(.*?)\*", r"_(.*?)_", r"\[.*?\]\((.*?)\)"):
            line = re.sub(pattern, r"\1", line)
        lines.append(line)
    return "\n".join(lines)


def newline_normalizer(text):
    return re.sub(r"(\r\n){3,}", "\r\n\r\n", re.sub(r"(\n){3,}", "\n\n", text))


def quotation_remover(text):
    if len(text.strip()) > 2 and text.startswith('"') and text.endswith('"'):
        if "\n" not in text.strip() or not text.split("\n")[0].endswith('"'):
            return text[1:-1]
    return text


def url_remover(text):
    return re.sub(r"https?://\S+|www\.\S+", "", text, flags=re.IGNORECASE)


def slicer(text, left=0, right=None, include_left=True, include_right=True, strip=True):
    if isinstance(left, str):
        at = text.find(left)
        if at < 0:
            return ""
        start = at if include_left else at + len(left)
    else:
        start = left
    if isinstance(right, str):
        at = text.rfind(right)
        if at < 0:
            return ""
        stop = at + len(right) if include_right else at
    else:
        stop = len(text) if right is None else right
    result = text[start:stop]
    return result.strip() if strip else result


def boilerplate(text, remove_if_at_top_or_bottom=True):
    """Returns (text, drop reason or None)."""
    paragraphs = text.split("\n\n")
    marked = []
    for index, paragraph in enumerate(paragraphs):
        lowered = paragraph.strip().lower()
        if "lorem ipsum" in lowered:
            return "", "lorem_ipsum"
        if any(phrase in lowered for phrase in POLICY):
            if not remove_if_at_top_or_bottom:
                return "", "boilerplate"
            marked.append(index)
    if not marked or len(marked) == len(paragraphs):
        return text, None
    contiguous = all(b == a + 1 for a, b in zip(marked, marked[1:]))
    if not contiguous or not (marked[0] == 0 or marked[-1] == len(paragraphs) - 1):
        return text, None
    return "\n\n".join(p for i, p in enumerate(paragraphs) if i not in marked), None


CONFIGS = {
    "line_remover": (lambda t: line_remover(t, ["Remove me", ""]),
                     ["Remove me", "\n", "keep", " ", "\r", "Remove", "é"]),
    "markdown_remover": (markdown_remover,
                         ["*", "**", "_", "[", "]", "(", ")", "](", "a", "b", " ", "\n", "é",
                          "\r"]),
    "newline_normalizer": (newline_normalizer, ["\n", "\r\n", "\r", "a", " ", "\n\n"]),
    "quotation_remover": (quotation_remover, ['"', "a", "\n", " ", "\u00a0", "é", '""']),
    "url_remover": (url_remover,
                    ["http://", "https://", "HTTPS://", "hTtP://", "www.", "WWW.", "httpſ://",
                     "http:/", "ht", "x", ".", " ", "\n", "\u00a0", "\u3000", "é", "\x1c", "/",
                     "https"]),
    "slicer_2_5": (lambda t: slicer(t, 2, 5), ["a", "é", " ", "\n", "€", "b"]),
    "slicer_neg": (lambda t: slicer(t, -4, -1, strip=False), ["a", "é", " ", "\n", "€", "b"]),
    "slicer_markers": (lambda t: slicer(t, "XY", "__"), ["X", "Y", "XY", "__", "_", "a", "é",
                                                         " ", "\n"]),
    "slicer_markers_excluded": (
        lambda t: slicer(t, "XY", "__", include_left=False, include_right=False),
        ["X", "Y", "XY", "__", "_", "a", "é", " ", "\n"]),
    "slicer_left_index_right_marker": (lambda t: slicer(t, 1, "é", strip=False),
                                       ["a", "é", " ", "\n", "€", "b"]),
    "slicer_strip_only": (lambda t: slicer(t), ["a", " ", "\n", "\u00a0", "\u2003", "é"]),
    "boilerplate": (boilerplate,
                    ["\n\n", "\n", "Terms of Use", "privacy policy", "Lorem", " ipsum", "text",
                     " ", "\n\n", "Uses Cookies", "é", "cookie"]),
    "boilerplate_strict": (lambda t: boilerplate(t, False),
                           ["\n\n", "\n", "Terms of Use", "text", " ", "lorem", " Ipsum", "é"]),
}

# Fixed cases every config sees: empty, blank, CRLF, non-ASCII.
FIXED = ["", " ", "\r\n", "plain text", "é€😀", "a\r\nb\r\n\r\n\r\nc"]


def outcome(before, result):
    text, reason = result if isinstance(result, tuple) else (result, None)
    if reason:
        return reason, ""
    if text != before and not text.strip() and before.strip():
        return "empty", ""
    return "kept", text


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 35)
    for name, (rule, pieces) in CONFIGS.items():
        texts = list(FIXED)
        for _ in range(400):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 14)))
            if name == "quotation_remover" and rng.random() < 0.6:
                text = '"' + text + '"'  # the rule's subject: a text in quotes
            texts.append(text)
        for text in texts:
            kind, out = outcome(text, rule(text))
            print(f"{name}\t{text.encode().hex()}\t{kind}\t{out.encode().hex()}")


if __name__ == "__main__":
    main()
