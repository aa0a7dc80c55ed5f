#!/usr/bin/env python3
"""NeMo Curator's Nemotron-CC reply post-processing, restated from its documented rules with
Python's re and str (tutorials/synthetic/nemotron_cc: MarkdownRemover on every reply; then
SubstringFilter(prefix) + Slicer(left=prefix, include_left=False, strip=True) +
QuotationRemover for wikipedia and distill; LineRemover of "Passage:" lines for
extract_knowledge; DiverseQAPostProcessingStage's parse for diverse_qa;
KnowledgeListPostProcessingStage for knowledge_list), for llm_rewrite_test.cpp.

Prints one JSON object: "cases", the replies (fixed ones, then random ones from a seeded
generator, count from argv[1]), and per preset the expected result of each: a string, or
{"drop": reason}; for diverse_qa the list of parsed pairs before NeMo's random sampling.
"""
import json
import random
import re
import sys

WIKIPEDIA = "Here is a paraphrased version:"
DISTILL = "Paraphrased Text:"
QA_HEADING = "Here are the questions and answers based on the provided text:"
PASSAGES = ["Passage:", "Passage 1:", "Passage 2:", "Passage 3:"]


def remove_markdown(text):
    out = []
    for line in text.split("\n"):
        line = re.sub(r"\*\*(.*?)\*\*", r"\1", line)
        line = re.sub(r"\*(.*?)\*", r"\1", line)
        line = re.sub(r"_(.*?)_", r"\1", line)
        line = re.sub(r"\[.*?\]\((.*?)\)", r"\1", line)
        out.append(line)
    return "\n".join(out)


def remove_quotation(text):
    if len(text.strip()) > 2 and text[0] == '"' and text[-1] == '"':
        if "\n" in text and text.split("\n")[0][-1] == '"':
            return text
        return text[1:-1]
    return text


def finish(text):
    return {"drop": "empty_reply"} if not text.strip() else text


def prefixed(reply, prefix):
    text = remove_markdown(reply)
    if not text.startswith(prefix):
        return {"drop": "missing_prefix"}
    start = text.find(prefix) + len(prefix)
    return finish(remove_quotation(text[start:].strip()))


def extract_knowledge(reply):
    lines = [l for l in remove_markdown(reply).split("\n") if l not in PASSAGES]
    return finish("\n".join(lines))


def qa_pairs(reply):
    lines = [l.strip() for l in remove_markdown(reply).split("\n") if l.strip()]
    if not lines:
        return {"drop": "no_qa_pairs"}
    lines = [l[2:].strip() if l.startswith("- ") else l for l in lines]
    if lines[0] == QA_HEADING:
        lines = lines[1:]
    pairs = []
    for line in lines:
        if line.startswith("Question:"):
            pairs.append(line)
        elif pairs:
            pairs[-1] += "\n" + line
        else:
            return {"drop": "no_qa_pairs"}
    return pairs if pairs else {"drop": "no_qa_pairs"}


def knowledge_list(reply):
    lines = []
    for i, line in enumerate(remove_markdown(reply).split("\n")):
        if i == 0 and not line.startswith("-"):
            continue
        if line.startswith(("  ", "- ")):
            lines.append(line[2:].strip())
        else:
            lines.append(line)
    return finish("\n".join(lines))


FIXED = [
    WIKIPEDIA + "\nThe river rises in the hills.",
    "**" + WIKIPEDIA + "** \"The river rises in the hills.\"",
    "Sure! " + WIKIPEDIA + " The river.",
    WIKIPEDIA + "   ",
    WIKIPEDIA + "\n\"A quoted line\"\n\"and another\"",
    DISTILL + " A *condensed* text with a [link](http://x.org).",
    DISTILL + "\n\u00a0\u2003Text after odd spaces.\u3000",
    "Passage 1:\nFirst passage.\nPassage 2:\nSecond passage.\n Passage:\nPassage 4:",
    "Passage:\nPassage 1:",
    QA_HEADING + "\n- Question: Is water wet? Answer: Yes.\n- Question: Why? Answer: Because.",
    "- " + QA_HEADING + "\n\nQuestion: One? Answer: 1.\n  more detail\n\n- Question: Two? Answer: 2.",
    "Intro line\nQuestion: A? Answer: B.",
    "",
    "   \n  \n",
    "Key facts:\n- Fact one.\n  - nested fact\n- Fact two\nplain line",
    "-Fact without space\n- Second",
    "- _underlined_ fact\n-  two spaces after dash\n\u00a0 nbsp",
]

PIECES = [
    WIKIPEDIA, DISTILL, QA_HEADING, "Question: What? Answer: That.", "Question: How?",
    "Answer: So.", "- ", "  ", "-", "**bold**", "*it*", "_u_", "[l](u)", "\"", "Passage:",
    "Passage 2:", "Fact.", "\u2003", "\u00a0", "text", "Here is", " ",
]


def random_reply(rng):
    lines = []
    for _ in range(rng.randint(0, 6)):
        lines.append("".join(rng.choice(PIECES) for _ in range(rng.randint(0, 4))))
    return "\n".join(lines)


def main():
    rng = random.Random(20261204)
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    cases = FIXED + [random_reply(rng) for _ in range(count)]
    print(json.dumps({
        "cases": cases,
        "wikipedia": [prefixed(c, WIKIPEDIA) for c in cases],
        "distill": [prefixed(c, DISTILL) for c in cases],
        "extract_knowledge": [extract_knowledge(c) for c in cases],
        "knowledge_list": [knowledge_list(c) for c in cases],
        "diverse_qa": [qa_pairs(c) for c in cases],
    }))


if __name__ == "__main__":
    sys.exit(main())
