#!/usr/bin/python3
"""NeMo Curator's arXiv path on a bulk tar, timed: the baseline of bench/arxiv.sh.

Runs NeMo's own ArxivExtractor (nemo_curator/stages/text/download/arxiv/extract.py, loaded
from NEMO_SRC with its base class stubbed, as NeMo's Ray and loguru stack is not installed
here) after NeMo's iterator steps, re-created: the outer tar extracted to a temporary folder
(tarfile), each paper opened with tarfile (its .tex members) or else gzip, decoded as UTF-8.
Prints "<papers> <documents> <cpu seconds>" and writes the documents' id<TAB>text-length to
OUT (for the parity check).
Usage: arxiv_nemo.py NEMO_SRC TAR OUT"""
import gzip
import importlib.util
import os
import re
import sys
import tarfile
import tempfile
import time
import types


def load_extractor(src):
    base = types.ModuleType("nemo_curator.stages.text.download")

    class DocumentExtractor:  # NeMo's abstract base: nothing the extractor uses
        def __init__(self):
            pass

    base.DocumentExtractor = DocumentExtractor
    for name in ("nemo_curator", "nemo_curator.stages", "nemo_curator.stages.text"):
        sys.modules.setdefault(name, types.ModuleType(name))
    sys.modules["nemo_curator.stages.text.download"] = base
    path = os.path.join(src, "nemo_curator/stages/text/download/arxiv/extract.py")
    spec = importlib.util.spec_from_file_location("nemo_arxiv_extract", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ArxivExtractor()


def tex_files(path):
    try:
        with tarfile.open(path) as t:
            out = []
            for m in t.getmembers():
                if m.name.endswith(".tex"):
                    try:
                        out.append(t.extractfile(m).read().decode("utf-8"))
                    except UnicodeDecodeError:
                        return None
            return out
    except tarfile.ReadError:
        try:
            with gzip.open(path, "rb") as g:
                return [g.read().decode("utf-8")]
        except Exception:  # noqa: BLE001
            return None
    except Exception:  # noqa: BLE001
        return None


def arxiv_id(stem):
    m = re.search(r"^([a-zA-Z-]*)([\d\.]+)$", stem)
    if m is None:
        return stem
    return m.group(2) if m.group(1) == "" else f"{m.group(1)}/{m.group(2)}"


def main(src, tar, out_path):
    extractor = load_extractor(src)
    start = time.process_time()
    papers = documents = 0
    with tempfile.TemporaryDirectory() as tmp, open(out_path, "w") as out:
        with tarfile.open(tar) as t:
            t.extractall(tmp)
        paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(tmp) for f in fs)
        for path in paths:
            papers += 1
            files = tex_files(path)
            if files is None:
                continue
            record = {"id": arxiv_id(os.path.splitext(os.path.basename(path))[0]),
                      "content": files}
            result = extractor.extract(record)
            if result is None:
                continue
            documents += 1
            out.write(f"{record['id']}\t{len(result['text'])}\n")
    print(papers, documents, f"{time.process_time() - start:.3f}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
