# The Python package against the winnow command: the same stages, the same files, the same
# output bytes.
import glob
import inspect
import json
import os

import pytest
import yaml

import winnow
from winnow import stages as st
from conftest import SOURCE, output_files, run_cli

NEMO_YAML = os.path.join(SOURCE, "examples", "nemo_english.yaml")


def nemo_english():
    """NeMo Curator's English heuristic chain, written in Python (examples/nemo_english.yaml)."""
    return [
        st.NonAlphaNumeric(max_non_alpha_numeric_to_text_ratio=0.25),
        st.SymbolsToWords(max_symbol_to_word_ratio=0.1),
        st.Numbers(max_number_to_text_ratio=0.15),
        st.Urls(max_url_to_text_ratio=0.2),
        st.Bullets(max_bullet_lines_ratio=0.9),
        st.WhiteSpace(max_white_space_ratio=0.25),
        st.Parentheses(max_parentheses_ratio=0.1),
        st.LongWord(max_word_length=1000),
        st.WordCount(min_words=50, max_words=100000),
        st.BoilerplateString(max_boilerplate_string_ratio=0.4),
        st.MeanWordLength(min_mean_word_length=3, max_mean_word_length=10),
        st.Punctuation(max_num_sentences_without_endmark_ratio=0.85),
        st.Ellipsis(max_num_lines_ending_with_ellipsis_ratio=0.3),
        st.CommonEnglishWords(min_num_common_words=2),
        st.WordsWithoutAlphabets(min_words_with_alphabets=0.8),
        st.RepeatedLines(max_repeated_line_fraction=0.7),
        st.RepeatedParagraphs(max_repeated_paragraphs_ratio=0.7),
        st.RepeatedLinesByChar(max_repeated_lines_char_ratio=0.8),
        st.RepeatedParagraphsByChar(max_repeated_paragraphs_char_ratio=0.8),
        *[st.RepeatingTopNgrams(name=f"top_{n}grams", n=n, max_repeating_ngram_ratio=r)
          for n, r in [(2, 0.2), (3, 0.18), (4, 0.16)]],
        *[st.RepeatingDuplicateNgrams(name=f"duplicate_{n}grams", n=n,
                                      max_repeating_duplicate_ngram_ratio=r)
          for n, r in [(5, 0.15), (6, 0.14), (7, 0.13), (8, 0.12), (9, 0.11), (10, 0.1)]],
    ]


def test_every_registered_stage_is_a_class_with_its_parameters():
    code, listing, _ = run_cli("stages")
    assert code == 0
    names = [line for line in listing.splitlines() if line and not line.startswith(" ")
             and not line.startswith("Every stage")]
    assert sorted(names) == sorted(st.by_type)
    cls = st.WordCount
    assert cls.type == "word_count" and cls is st.by_type["word_count"]
    signature = inspect.signature(cls)
    assert signature.parameters["min_words"].default == 50
    assert "min_words" in cls.__doc__ and "max_words" in cls.__doc__
    assert st.TextLength.defaults["min_chars"] == 0
    # Every parameter the listing shows for a stage is a keyword of its class.
    for spec_name, cls in st.by_type.items():
        keywords = {n + "_" if n in ("in", "not", "for") else n for n in cls._param_names}
        assert keywords <= set(inspect.signature(cls).parameters), spec_name


def test_nemo_english_from_python_and_yaml_match_the_cli_byte_for_byte(corpus, tmp_path):
    code, _, err = run_cli("run", NEMO_YAML, "--input", corpus, "--output", tmp_path / "cli",
                           "--threads", 2, "-q")
    assert code == 0, err
    built = winnow.Pipeline(input={"paths": [str(corpus)], "text_field": "text",
                                   "id_field": "id"},
                            output={"path": str(tmp_path / "py"), "format": "jsonl.zst"},
                            stages=nemo_english(), on_error="skip", seed=42)
    loaded = winnow.Pipeline.from_yaml(NEMO_YAML)
    assert built.check() == loaded.check()  # the same fingerprint: the same output bytes
    calls = []
    stats = built.run(threads=2, progress=lambda *args: calls.append(args))
    stats_yaml = loaded.run(input=str(corpus), output=tmp_path / "yaml", threads=2,
                            progress=False)
    cli = output_files(tmp_path / "cli")
    assert len([n for n in cli if n.endswith(".jsonl.zst")]) >= 3
    assert output_files(tmp_path / "py") == cli
    assert output_files(tmp_path / "yaml") == cli
    with open(tmp_path / "cli" / "stats.json") as f:
        cli_stats = json.load(f)
    for ours in (stats, stats_yaml):
        assert ours["status"] == "ok"
        assert ours["totals"] == cli_stats["totals"]
        assert [s["name"] for s in ours["steps"]] == [s["name"] for s in cli_stats["steps"]]
    assert stats["totals"]["kept"] > 0 and stats["totals"]["dropped"] > 0
    # (pass, documents, bytes read, total bytes, seconds); the last is the end of the run
    assert calls and calls[-1][1] == stats["totals"]["documents"]


def test_every_example_round_trips_through_to_yaml():
    for path in sorted(glob.glob(os.path.join(SOURCE, "examples", "*.yaml"))):
        loaded = winnow.Pipeline.from_yaml(path)
        text = loaded.to_yaml()
        again = winnow.Pipeline.from_yaml_string(text)
        assert again.to_yaml() == text, path
        assert again.check() == loaded.check(), path
        with open(path) as f:
            original = yaml.safe_load(f)
        assert [s["stage"] for s in yaml.safe_load(text)["stages"]] == \
            [s["stage"] for s in original["stages"]], path


def keep_gpl_free(record):
    """A Python stage: drops documents that mention the GPL, annotates the rest."""
    if "GNU General Public License" in record["text"]:
        return False
    return {"lines": record["text"].count("\n"), "first_word": record["text"].split()[0],
            "words_seen": record["word_count"]}


def test_python_stage_in_the_middle_of_a_native_chain(corpus, tmp_path):
    pipeline = winnow.Pipeline(
        input=str(corpus), output={"path": str(tmp_path / "out"), "format": "jsonl"},
        stages=[st.WordCount(min_words=20, annotate=True), winnow.PythonStage(keep_gpl_free),
                st.ExactDedup()])
    stats = pipeline.run(threads=2, progress=False)
    assert stats["status"] == "ok"
    steps = {s["name"]: s for s in stats["steps"]}
    assert "keep_gpl_free" in steps and steps["keep_gpl_free"]["busy_seconds"] > 0
    kept = [json.loads(line) for name in sorted(os.listdir(tmp_path / "out"))
            if name.startswith("part") for line in open(tmp_path / "out" / name)]
    rejected = [json.loads(line) for name in sorted(os.listdir(tmp_path / "out" / "rejected"))
                for line in open(tmp_path / "out" / "rejected" / name)]
    assert kept and all("GNU General Public License" not in d["text"] for d in kept)
    assert all(d["lines"] == d["text"].count("\n") for d in kept)
    assert all(d["words_seen"] == d["word_count"] for d in kept)
    by_reason = {r["winnow_drop"]["stage"] + "/" + r["winnow_drop"]["reason"] for r in rejected}
    assert "keep_gpl_free/rejected" in by_reason
    assert "exact_dedup/exact_duplicate" in by_reason  # the stage after it still runs
    assert stats["totals"]["dropped_by_reason"]["keep_gpl_free/rejected"] == \
        steps["keep_gpl_free"]["items_in"] - steps["keep_gpl_free"]["items_out"] > 0
    with pytest.raises(winnow.ConfigError, match="lambda"):
        winnow.Pipeline(stages=[winnow.PythonStage(lambda r: True)]).to_yaml()
    # A module-level function is written as module:name and imported back.
    text = pipeline.to_yaml()
    assert "function: test_pipeline:keep_gpl_free" in text
    assert winnow.Pipeline.from_yaml_string(text).stages[1].function is keep_gpl_free
