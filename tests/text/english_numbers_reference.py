"""Number words from num2words (Debian's python3-num2words), an implementation independent of
winnow's and of NeMo's, in NeMo's convention for winnow's test: num2words' British "and"s
dropped (NeMo says at most one, placed by its own rule, tested apart), hyphens and commas made
spaces. Reads lines "<kind> <integer>" (kind: cardinal, ordinal, ordinal_num, year); writes one
line each: the words, or for ordinal_num the number with its suffix ("21st")."""
import re
import sys

from num2words import num2words


def nemo_convention(words):
    words = re.sub(r"[-,]", " ", words)
    return " ".join(w for w in words.split() if w != "and")


for line in sys.stdin:
    kind, value = line.split()
    if kind == "ordinal_num":
        print(num2words(int(value), to="ordinal_num"))
    else:
        print(nemo_convention(num2words(int(value), to=kind)))
