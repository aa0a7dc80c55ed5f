#!/usr/bin/python3
"""A token-classification model folder for bench/pii_ner.sh: a WordPiece tokenizer.json whose
vocabulary is the corpus's most frequent lower-cased words plus single characters and their
"##" continuations (so every word tokenises, into about as many pieces as a real BERT
vocabulary gives it), and a seeded random BERT with a per-token head
(tests/models/bert_test_model.py --head token) of the shape asked. The model's labels are
random: it measures the cost of the NER path, not its accuracy.

  ner_bench_model.py CORPUS.jsonl DIR [--vocab 8000] [bert_test_model.py build options...]
"""
import collections
import json
import os
import re
import subprocess
import sys

corpus, out_dir, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
vocab_size = 8000
if rest[:1] == ["--vocab"]:
    vocab_size, rest = int(rest[1]), rest[2:]
counts = collections.Counter()
with open(corpus) as f:
    for i, line in enumerate(f):
        if i >= 400:
            break
        counts.update(re.findall(r"[a-z0-9]+", json.loads(line)["text"].lower()))
chars = [chr(c) for c in range(33, 127)]
pieces = chars + ["##" + c for c in chars if c.isalnum()]
pieces += [w for w, _ in counts.most_common(vocab_size) if w not in set(pieces)]
specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
vocab = {p: i for i, p in enumerate(specials + pieces)}
os.makedirs(out_dir, exist_ok=True)
tokenizer = {
    "version": "1.0", "truncation": None, "padding": None,
    "added_tokens": [{"id": i, "content": s, "single_word": False, "lstrip": False,
                      "rstrip": False, "normalized": False, "special": True}
                     for i, s in enumerate(specials)],
    "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                   "strip_accents": None, "lowercase": True},
    "pre_tokenizer": {"type": "BertPreTokenizer"},
    "post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 3], "cls": ["[CLS]", 2]},
    "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
    "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
              "max_input_chars_per_word": 100, "vocab": vocab},
}
labels = "O,B-PER,I-PER,B-LOC,I-LOC,B-ORG,I-ORG,B-MISC,I-MISC"
script = os.path.join(os.path.dirname(__file__), "..", "tests", "models", "bert_test_model.py")
subprocess.run(["/usr/bin/python3", script, "build", out_dir, "--head", "token", "--labels", "9",
                "--label-names", labels, "--vocab", str(len(vocab))] + rest, check=True)
with open(os.path.join(out_dir, "tokenizer.json"), "w") as f:
    json.dump(tokenizer, f)
