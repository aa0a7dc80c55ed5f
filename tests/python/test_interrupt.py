# Ctrl-C (SIGINT) during Pipeline.run: the run stops cleanly and KeyboardInterrupt reaches the
# caller; finished shards are complete, nothing half-written is left, and a rerun resumes.
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time

SCRIPT = textwrap.dedent("""
    import signal, sys, time
    import winnow
    from winnow import stages as st

    def slow(record):
        if not slow.announced:
            slow.announced = True  # before print, which lets the other worker in
            print("started", flush=True)
        time.sleep(0.001)
    slow.announced = False
    # Python leaves SIGINT ignored when it starts ignored (a background job): as in a shell.
    signal.signal(signal.SIGINT, signal.default_int_handler)

    pipeline = winnow.Pipeline(input=sys.argv[1], output={"path": sys.argv[2],
                               "format": "jsonl"},
                               stages=[st.WordCount(min_words=1), winnow.PythonStage(slow)],
                               batch_size=64)
    try:
        pipeline.run(threads=2, progress=False)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(130)
    print("finished", flush=True)
""")


def test_sigint_stops_a_run_cleanly(tmp_path):
    corpus = tmp_path / "in"
    corpus.mkdir()
    for shard in range(8):
        with open(corpus / f"s{shard}.jsonl", "w") as f:
            for i in range(500):
                f.write(json.dumps({"id": f"{shard}-{i}", "text": f"words {i} " * 20}) + "\n")
    out = tmp_path / "out"
    child = subprocess.Popen([sys.executable, "-c", SCRIPT, str(corpus), str(out)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=os.environ)
    assert child.stdout.readline().strip() == "started"
    time.sleep(0.3)
    child.send_signal(signal.SIGINT)
    stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, stdout + stderr
    assert stdout.strip() == "interrupted"
    with open(out / "stats.json") as f:
        stats = json.load(f)
    assert stats["status"] == "stopped"
    assert stats["input_files_completed"] < 8
    # Nothing half-written: no temporary file anywhere, and every kept file has its marker.
    for root, _, files in os.walk(out):
        assert not [n for n in files if n.startswith(".") and ".tmp-" in n], root
    kept = sorted(n[:-len(".jsonl")] for n in os.listdir(out) if re.fullmatch(r"s\d\.jsonl", n))
    done = sorted(n[:-len(".json")] for n in os.listdir(out / "_done"))
    assert kept == done
    # The same run again resumes and finishes.
    rerun = subprocess.run([sys.executable, "-c", SCRIPT, str(corpus), str(out)],
                           capture_output=True, text=True, timeout=120)
    assert rerun.stdout.splitlines()[-1] == "finished", rerun.stderr
    with open(out / "stats.json") as f:
        assert json.load(f)["totals"]["documents"] == 8 * 500
