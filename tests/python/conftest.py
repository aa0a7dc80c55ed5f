# Fixtures of the Python package's tests (run by ctest: tests/CMakeLists.txt sets PYTHONPATH to
# the build's python/ folder, WINNOW_BINARY and WINNOW_SOURCE_DIR).
import glob
import json
import os
import subprocess

import pytest

SOURCE = os.environ.get("WINNOW_SOURCE_DIR",
                        os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
BINARY = os.environ.get("WINNOW_BINARY", os.path.join(SOURCE, "build", "winnow"))


def run_cli(*args):
    """Runs the winnow command; returns (exit code, stdout, stderr)."""
    done = subprocess.run([BINARY, *map(str, args)], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def cli_error(stderr):
    """The message of the error that ended a CLI run (its last 'winnow: ' line)."""
    lines = [line for line in stderr.splitlines() if line.startswith("winnow: ")]
    assert lines, stderr
    return lines[-1][len("winnow: "):]


def _texts():
    """This machine's own texts: license files and package READMEs (as make_example_corpus)."""
    paths = sorted(glob.glob("/usr/share/common-licenses/*"))
    paths += sorted(glob.glob("/usr/share/doc/*/copyright"))[:300]
    for path in paths:
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
        if text.strip():
            yield path, text


@pytest.fixture(scope="session")
def corpus(tmp_path_factory):
    """Three JSONL shards of real English text (some documents twice, for the dedup stages)."""
    folder = tmp_path_factory.mktemp("corpus")
    docs = [{"id": f"doc{i}", "text": text, "source": path}
            for i, (path, text) in enumerate(_texts())]
    docs += [dict(d, id=d["id"] + "-again") for d in docs[:20]]
    for shard in range(3):
        with open(folder / f"part{shard}.jsonl", "w", encoding="utf-8") as f:
            for doc in docs[shard::3]:
                f.write(json.dumps(doc) + "\n")
    return folder


def output_files(folder):
    """Every output file under `folder` (kept, rejected, errors), name -> bytes; not the run's
    stats, report or markers, which carry times."""
    out = {}
    for root, _, files in os.walk(folder):
        for name in files:
            rel = os.path.relpath(os.path.join(root, name), folder)
            if rel.startswith("_done") or name in ("stats.json", "report.html",
                                                   "metrics.jsonl"):
                continue
            with open(os.path.join(root, name), "rb") as f:
                out[rel] = f.read()
    return out
