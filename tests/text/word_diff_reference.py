# Reference for word_diff_test: for each input line "A<TAB>B", the length of a longest common
# subsequence of A's and B's words (str.split), by the textbook dynamic programme. Independent
# of the C++ (Myers) so it checks that the diff's "same" words are a longest common subsequence.
import sys

for line in sys.stdin:
    a_text, b_text = line.rstrip("\n").split("\t")
    a, b = a_text.split(), b_text.split()
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    print(prev[-1])
