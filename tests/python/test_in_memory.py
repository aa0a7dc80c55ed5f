# Pipeline.process: stages over records in memory (lists of dicts, DataFrames; pyarrow Tables in
# test_pyarrow.py).
import pandas as pd
import pytest

import winnow
from winnow import stages as st

TEXTS = [
    "The quick brown fox jumps over the lazy dog and keeps on running far away.",
    "short",
    "The quick brown fox jumps over the lazy dog and keeps on running far away.",
    "Another perfectly reasonable sentence with enough words to pass the filter here.",
    "tiny text",
]


def chain():
    return winnow.Pipeline(stages=[st.WordCount(min_words=5, annotate=True),
                                   winnow.PythonStage(lambda r: {"fox": "fox" in r["text"]},
                                                      name="has_fox"),
                                   st.ExactDedup()])


def test_dataframe_in_kept_and_dropped_out_with_index_annotations_and_reasons():
    frame = pd.DataFrame({"text": TEXTS, "lang": ["en"] * 5},
                         index=pd.Index([10, 11, 12, 13, 14], name="row"))
    result = chain().process(frame, threads=2)
    kept, dropped = result.kept, result.dropped
    assert isinstance(kept, pd.DataFrame) and isinstance(dropped, pd.DataFrame)
    assert list(kept.index) == [10, 13]
    assert list(kept.columns[:2]) == ["text", "lang"]  # the input's columns first
    assert list(kept["word_count"]) == [15, 12]
    assert list(kept["fox"]) == [1, 0]
    assert sorted(dropped.index) == [11, 12, 14]
    reasons = dict(zip(dropped.index, dropped["drop_reason"]))
    stages_ = dict(zip(dropped.index, dropped["drop_stage"]))
    assert reasons[12] == "exact_duplicate" and stages_[12] == "exact_dedup"
    assert stages_[11] == "word_count" and stages_[14] == "word_count"
    assert dropped.loc[11, "drop_score"] == 1
    assert result.stats["totals"]["documents"] == 5
    assert result.stats["totals"]["kept"] == 2
    assert result.errors == []


def test_list_of_dicts_in_lists_out_with_winnow_drop():
    records = [{"id": f"r{i}", "text": t, "meta": {"n": i}} for i, t in enumerate(TEXTS)]
    result = chain().process(records)
    assert [r["id"] for r in result.kept] == ["r0", "r3"]
    assert result.kept[0]["meta"] == {"n": 0} and result.kept[0]["fox"] == 1
    assert {r["id"]: r["winnow_drop"]["reason"] for r in result.dropped} == {
        "r1": "word_count", "r2": "exact_duplicate", "r4": "word_count"}
    assert "_winnow_row" not in result.kept[0]


def test_records_without_text_are_errors_under_skip():
    pipeline = winnow.Pipeline(stages=[st.WordCount(min_words=1)], on_error="skip")
    result = pipeline.process([{"text": "hello world"}, {"body": "no text here"}])
    assert len(result.kept) == 1 and len(result.errors) == 1
    assert result.stats["totals"]["errors"] == 1


RECORDS_WITH_ONE_BAD = [{"text": "one two three"}, {"text": "four five six"},
                        {"text": "seven eight nine"}, {"body": "the fourth has no text"}]


def test_in_memory_default_is_skip_as_the_readme_example_runs():
    # The README's example: no on_error given, a record without text among the records.
    result = winnow.Pipeline(stages=[st.WordCount(min_words=1, annotate=True),
                                     st.ExactDedup()]).process(RECORDS_WITH_ONE_BAD)
    assert len(result.kept) == 3 and result.stats["totals"]["errors"] == 1
    # The pipeline's own on_error still decides when it is given.
    with pytest.raises(winnow.RunError):
        winnow.Pipeline(stages=[st.WordCount(min_words=1)],
                        on_error="fail").process(RECORDS_WITH_ONE_BAD)


def test_errors_name_the_record_not_a_temporary_file():
    [error] = winnow.Pipeline(stages=[st.WordCount(min_words=1)]).process(
        RECORDS_WITH_ONE_BAD).errors
    assert error == {"position": 3, "error": "missing_text",
                     "message": "record 4 of the list: the record has no 'text' field",
                     "excerpt": '{"body": "the fourth has no text"}'}
    frame = pd.DataFrame({"text": ["a b c", None, "d e f"]}, index=["x", "y", "z"])
    [error] = winnow.Pipeline(stages=[st.WordCount(min_words=1)]).process(frame).errors
    assert error["position"] == 1 and error["index"] == "y"
    assert error["message"].startswith("row 2 of the DataFrame (index 'y'): ")
    assert "_winnow_row" not in error["excerpt"]
    with pytest.raises(winnow.RunError) as failed:
        winnow.Pipeline(stages=[st.WordCount(min_words=1)]).process(RECORDS_WITH_ONE_BAD,
                                                                     on_error="fail")
    message = str(failed.value)
    assert message.startswith("record 4 of the list: the record has no 'text' field")
    assert "records.jsonl" not in message and "winnow-" not in message
    assert "result.errors" in message


def test_every_dropped_record_carries_a_score():
    records = [{"id": "a", "text": "one two three"}, {"id": "b", "text": "one two three"},
               {"id": "c", "text": "short"}]
    result = winnow.Pipeline(stages=[st.WordCount(min_words=2),
                                     st.ExactDedup()]).process(records)
    drops = {r["id"]: r["winnow_drop"] for r in result.dropped}
    assert drops == {"b": {"stage": "exact_dedup", "reason": "exact_duplicate", "score": None},
                     "c": {"stage": "word_count", "reason": "word_count", "score": 1}}



def test_modifiers_rewrite_text_and_slicer_tells_markers_from_indices():
    # Slicer's ends as NeMo takes them: a str is a marker, an int an index (the YAML the
    # package writes quotes "3" so that it stays a marker).
    records = [{"text": "aXYb www.x.org c3d"}, {"text": "XYdrop me\nkeep3"}, {"text": "none"}]
    result = winnow.Pipeline(stages=[
        st.Slicer(left="XY", right="3", include_left=False), st.UrlRemover(),
        st.LineRemover(patterns=["drop me"])]).process(records)
    assert [r["text"] for r in result.kept] == ["b  c3", "keep3"]
    assert [r["winnow_drop"]["reason"] for r in result.dropped] == ["empty"]
    by_index = winnow.Pipeline(stages=[st.Slicer(left=1, right=-1)]).process([{"text": "[ab]"}])
    assert [r["text"] for r in by_index.kept] == ["ab"]
