#!/usr/bin/python3
"""NeMo Curator's own heuristic filter code over a JSON Lines corpus: the baseline of the
long-document chain benchmark (bench/long_chain.sh, issue #20).

It loads NeMo Curator's filter classes (nemo_curator/stages/text/filters/heuristic/) from a
source checkout, builds the chain a winnow pipeline YAML names (examples/nemo_english.yaml:
same filters, same order, same thresholds; winnow's stage parameters carry NeMo's names), and
applies it to each document as NeMo's ScoreFilter chain does: score_document, keep_document,
the first filter that rejects a document drops it. Only the filters' code is timed (CPU time of
this process, time.process_time), not reading the corpus nor NeMo's DataFrame and Ray plumbing
around it, so the figure is NeMo's most favourable one.

Only the filter modules and what they import are loaded (nemo_curator's package __init__ files,
which pull in Ray and the GPU stack, are not run): the packages on the way are registered as
empty namespaces pointing at the checkout. Needs python3-loguru, python3-regex and python3-yaml
(scripts/setup installs them).

Usage: bench/nemo_chain.py NEMO_CURATOR_SRC PIPELINE.yaml DOCS.jsonl DECISIONS.tsv
  NEMO_CURATOR_SRC: a checkout of https://github.com/NVIDIA-NeMo/Curator (the folder that holds
  nemo_curator/). Prints documents, bytes, CPU seconds; writes "id<TAB>kept|FILTER<TAB>" per
  document, the last column "order-dependent" where NeMo's verdict depends on its hash order
  (see order_dependent; checked after the timing).
"""
import importlib
import json
import sys
import time
import types

import yaml

# winnow stage → NeMo Curator class (winnow's names are NeMo's, in snake case).
NEMO_CLASSES = {
    "non_alpha_numeric": "NonAlphaNumericFilter",
    "symbols_to_words": "SymbolsToWordsFilter",
    "numbers": "NumbersFilter",
    "urls": "UrlsFilter",
    "bullets": "BulletsFilter",
    "white_space": "WhiteSpaceFilter",
    "parentheses": "ParenthesesFilter",
    "long_word": "LongWordFilter",
    "word_count": "WordCountFilter",
    "boilerplate_string": "BoilerPlateStringFilter",
    "mean_word_length": "MeanWordLengthFilter",
    "punctuation": "PunctuationFilter",
    "ellipsis": "EllipsisFilter",
    "common_english_words": "CommonEnglishWordsFilter",
    "words_without_alphabets": "WordsWithoutAlphabetsFilter",
    "repeated_lines": "RepeatedLinesFilter",
    "repeated_paragraphs": "RepeatedParagraphsFilter",
    "repeated_lines_by_char": "RepeatedLinesByCharFilter",
    "repeated_paragraphs_by_char": "RepeatedParagraphsByCharFilter",
    "repeating_top_ngrams": "RepeatingTopNGramsFilter",
    "repeating_duplicate_ngrams": "RepeatingDuplicateNGramsFilter",
}
FILTER_MODULES = ["nemo_curator.stages.text.filters.heuristic.string",
                  "nemo_curator.stages.text.filters.heuristic.repetition.repetition"]
# winnow parameters that are not NeMo constructor arguments.
WINNOW_ONLY_PARAMS = {"stage", "name", "annotate"}


def load_nemo_filters(source):
    """NeMo's filter classes by name, importing only the filter modules."""
    for module in FILTER_MODULES:
        parts = module.split(".")
        for depth in range(1, len(parts)):
            package = ".".join(parts[:depth])
            if package not in sys.modules:
                namespace = types.ModuleType(package)
                namespace.__path__ = [f"{source}/{package.replace('.', '/')}"]
                sys.modules[package] = namespace
    classes = {}
    for module in FILTER_MODULES:
        loaded = importlib.import_module(module)
        classes.update({name: getattr(loaded, name) for name in dir(loaded)})
    return classes


def build_chain(pipeline_path, classes):
    with open(pipeline_path, encoding="utf-8") as f:
        stages = yaml.safe_load(f)["stages"]
    chain = []
    for stage in stages:
        kind = stage["stage"]
        if kind not in NEMO_CLASSES:
            sys.exit(f"nemo_chain: no NeMo Curator class for stage '{kind}'")
        params = {k: v for k, v in stage.items() if k not in WINNOW_ONLY_PARAMS}
        chain.append((stage.get("name", kind), classes[NEMO_CLASSES[kind]](**params)))
    return chain


def order_dependent(chain, text):
    """Whether NeMo's verdict on `text` depends on Python's string hashing: RepeatingTopNGrams
    takes max() over a dict built from a set of n-grams, so among equally frequent n-grams the
    one it removes is whichever the set yields first, which changes with PYTHONHASHSEED. True
    when, at the first such filter the document reaches, some tied n-gram would keep it and
    another would drop it (winnow takes the first met, a fixed choice)."""
    for _, nemo_filter in chain:
        if type(nemo_filter).__name__ == "RepeatingTopNGramsFilter":
            words = nemo_filter._word_splitter(text.strip())
            n = nemo_filter._n
            if len(words) >= n and len(text) > 0:
                counts = {}
                for gram in zip(*[words[i:] for i in range(n)]):
                    counts[gram] = counts.get(gram, 0) + 1
                top = max(counts.values())
                verdicts = {nemo_filter.keep_document(
                                (len(text) - len(text.replace(" ".join(gram), ""))) / len(text))
                            for gram, count in counts.items() if count == top}
                if len(verdicts) > 1:
                    return True
        if not nemo_filter.keep_document(nemo_filter.score_document(text)):
            return False
    return False


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    source, pipeline_path, docs_path, decisions_path = sys.argv[1:]
    chain = build_chain(pipeline_path, load_nemo_filters(source))
    with open(docs_path, encoding="utf-8") as f:
        docs = [json.loads(line) for line in f]
    decisions = []
    start = time.process_time()
    for doc in docs:
        verdict = "kept"
        for name, nemo_filter in chain:
            if not nemo_filter.keep_document(nemo_filter.score_document(doc["text"])):
                verdict = name
                break
        decisions.append(verdict)
    seconds = time.process_time() - start
    with open(decisions_path, "w", encoding="utf-8") as out:
        for doc, verdict in zip(docs, decisions):
            dependent = "order-dependent" if order_dependent(chain, doc["text"]) else ""
            out.write(f"{doc['id']}\t{verdict}\t{dependent}\n")
    total_bytes = sum(len(doc["text"].encode("utf-8")) for doc in docs)
    print(f"{len(docs)} {total_bytes} {seconds:.3f}")


if __name__ == "__main__":
    main()
