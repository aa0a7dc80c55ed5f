"""Writes a small arXiv bulk source tar with Python's tarfile and gzip, and what NeMo Curator's
ArxivIterator + ArxivExtractor make of it (their rules, restated in arxiv_reference.py and
below), as JSON Lines: {"id", "text"} per document. Usage: make_arxiv_tar.py TAR EXPECTED."""
import gzip
import io
import json
import os
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from arxiv_reference import arxiv_id, paper_text  # noqa: E402

PAPER = ("\\documentclass{article}\n\\newcommand{\\R}{\\mathbb{R}}\n\\begin{document}\n"
         "\\section{Introduction}\nWe study $\\R^n$. % a remark\n%hidden\nText.\n")


def tar_gz(members):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            t.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), mtime=0)


def papers():
    yield "2301/2301.00001.gz", tar_gz([
        ("main.tex", PAPER.encode() + b"\\input{sec}\n\\bibliography{refs}\nafter\n"),
        ("fig.png", b"\x89PNG\r\n\x1a\n"),
        ("sec.tex", b"\\subsection{More}\nUse \\R here.\n\\appendix\nlater\n")])
    yield "2301/2301.00002.gz", gzip.compress(PAPER.encode() + "caf\u00e9\n".encode(), mtime=0)
    yield "2301/2301.00003.pdf", b"%PDF-1.4\n%binary\n"
    yield "2301/2301.00004.gz", gzip.compress(b"no sectioning command at all\n", mtime=0)
    yield "2301/2301.00005.gz", gzip.compress(PAPER.encode() + b"caf\xe9\n", mtime=0)
    yield "2301/2301.00006.gz", tar_gz([("README", b"no tex"), ("a.TEX", PAPER.encode())])
    yield "2301/2301.00007.gz", gzip.compress(
        ("\\def\\name{Jos\u00e9}\n" + PAPER).encode(), mtime=0)
    yield "astro-ph0001001.gz", gzip.compress(
        b"\\section*[s]{Old}\nAn old-style id, 100\\% kept.\n", mtime=0)


# NeMo's iterator: a tar (any compression) gives its .tex members in order, else the whole
# gzip stream is one file; anything else, or a file that is not UTF-8, skips the paper.
def nemo_files(data):
    try:
        with tarfile.open(fileobj=io.BytesIO(data)) as t:
            files = []
            for m in t.getmembers():
                if m.name.endswith(".tex"):
                    try:
                        files.append(t.extractfile(m).read().decode("utf-8"))
                    except UnicodeDecodeError:
                        return None
            return files
    except tarfile.ReadError:
        try:
            return [gzip.decompress(data).decode("utf-8")]
        except Exception:  # noqa: BLE001
            return None


def main(tar_path, expected_path):
    with tarfile.open(tar_path, "w") as out, open(expected_path, "w") as expected:
        dirs_written = set()
        for name, data in papers():
            folder = os.path.dirname(name)
            if folder and folder not in dirs_written:
                info = tarfile.TarInfo(folder)
                info.type = tarfile.DIRTYPE
                out.addfile(info)
                dirs_written.add(folder)
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            out.addfile(info, io.BytesIO(data))
            files = nemo_files(data)
            if not files:
                continue
            text = paper_text(files)
            if text is None:
                continue
            stem = os.path.splitext(os.path.basename(name))[0]
            expected.write(json.dumps({"id": arxiv_id(stem), "text": text}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
