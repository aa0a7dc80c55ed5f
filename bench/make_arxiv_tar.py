#!/usr/bin/python3
"""A synthetic arXiv bulk source tar for bench/arxiv.sh: PAPERS papers, about four in five a
gzipped tar of a project (a main .tex with a preamble of macros, 2-4 section files, a .bib and
a binary figure), the rest one gzipped .tex, plus one PDF in twenty (as the bulk tars hold).
The LaTeX is article-like: sections, equations, citations, comments, macros used in the text,
about 40 KB per paper. Usage: make_arxiv_tar.py TAR [PAPERS=2000]"""
import gzip
import io
import random
import sys
import tarfile

WORDS = ("we show that the model converges under mild assumptions and the bound is tight "
         "for every distribution considered in this section as the experiments confirm").split()


def para(rng, n):
    words = [rng.choice(WORDS) for _ in range(n)]
    for _ in range(n // 25):
        words.insert(rng.randrange(len(words)), rng.choice(
            ["\\R", "$\\E[x]$", "\\cite{ref%d}" % rng.randrange(99), "\\emph{key}", "$\\alpha_i$",
             "\\eqref{eq:%d}" % rng.randrange(9), "100\\%", "% note to self: fix\n"]))
    return " ".join(words) + "\n\n"


def section(rng, level, i):
    body = "\\%s{Part %d}\n" % (level, i)
    for _ in range(rng.randint(3, 8)):
        body += para(rng, rng.randint(40, 160))
        if rng.random() < 0.3:
            body += "\\begin{equation}\\label{eq:%d}\nf(x) = \\sum_i \\alpha_i x^i\n" \
                    "\\end{equation}\n" % i
    return body


def paper(rng, n):
    pre = ("\\documentclass{article}\n\\usepackage{amsmath}\n"
           "\\newcommand{\\R}{\\mathbb{R}}\n\\newcommand{\\E}{\\mathbb{E}}\n\\def\\eps{\\epsilon}\n"
           "%% paper %d\n\\begin{document}\n\\title{T}\n\\maketitle\n\\begin{abstract}\n" % n)
    pre += para(rng, 120) + "\\end{abstract}\n"
    sections = [section(rng, rng.choice(["section", "subsection"]), i) for i in range(rng.randint(3, 6))]
    tail = "\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n"
    return pre, sections, tail


def tar_gz(members):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), mtime=0)


def main(path, papers=2000):
    rng = random.Random(7)
    with tarfile.open(path, "w") as out:
        for n in range(papers):
            name = "2301/2301.%05d" % (n + 1)
            if n % 20 == 19:
                name, data = name + ".pdf", b"%PDF-1.5\n" + bytes(rng.randrange(256) for _ in range(4000))
            else:
                pre, sections, tail = paper(rng, n)
                if rng.random() < 0.8:
                    main_tex = pre + "".join("\\input{s%d}\n" % i for i in range(len(sections))) + tail
                    members = [("main.tex", main_tex.encode())]
                    members += [("s%d.tex" % i, s.encode()) for i, s in enumerate(sections)]
                    members += [("refs.bib", b"@article{ref1, title={X}}\n" * 50),
                                ("fig.png", bytes(rng.randrange(256) for _ in range(20000)))]
                    name, data = name + ".gz", tar_gz(members)
                else:
                    name, data = name + ".gz", gzip.compress((pre + "".join(sections) + tail).encode(), mtime=0)
            info = tarfile.TarInfo(name)
            info.size = len(data)
            out.addfile(info, io.BytesIO(data))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2000)
