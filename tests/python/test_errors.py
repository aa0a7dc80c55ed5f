# Every way a pipeline fails, from Python: the exception class, and the message the winnow
# command prints for the same pipeline (its stderr line after "winnow: ").
import json

import pytest

import winnow
from winnow import stages as st
from conftest import cli_error, run_cli


def write(path, text):
    path.write_text(text)
    return path


def both(pipeline_file, *args):
    """The CLI's exit code and message for a pipeline file."""
    code, _, err = run_cli("run", pipeline_file, "--no-progress", *args)
    return code, cli_error(err)


@pytest.fixture
def docs(tmp_path):
    return write(tmp_path / "docs.jsonl",
                 '{"id": "a", "text": "one two three four five six"}\n')


def test_unknown_stage(tmp_path, docs):
    yaml_file = write(tmp_path / "p.yaml", f"input: {{paths: [{docs}]}}\noutput: {{path: "
                      f"{tmp_path}/out}}\nstages:\n  - stage: word_cuont\n")
    code, message = both(yaml_file)
    assert code == 2 and "unknown stage 'word_cuont'" in message
    with pytest.raises(winnow.ConfigError) as caught:
        winnow.Pipeline.from_yaml(yaml_file)
    assert str(caught.value) == message and caught.value.exit_code == 2
    with pytest.raises(AttributeError):
        st.WordCuont()


def test_bad_parameter_type_and_value(tmp_path, docs):
    head = f"input: {{paths: [{docs}]}}\noutput: {{path: {tmp_path}/out}}\nstages:\n"
    # A value of the wrong type: refused when the file is loaded.
    typed = write(tmp_path / "typed.yaml", head + "  - stage: word_count\n    min_words: lots\n")
    code, message = both(typed)
    assert code == 2 and "parameter 'min_words'" in message
    with pytest.raises(winnow.ConfigError) as caught:
        winnow.Pipeline.from_yaml(typed)
    assert str(caught.value) == message
    # A value the stage refuses when it is built: refused by run(), nothing written.
    ranged = write(tmp_path / "ranged.yaml", head + "  - stage: text_length\n    min_chars: -1\n")
    code, message = both(ranged)
    assert code == 2 and "min_chars" in message
    pipeline = winnow.Pipeline.from_yaml(ranged)
    with pytest.raises(winnow.ConfigError) as caught:
        pipeline.run(progress=False)
    assert str(caught.value) == message
    assert not (tmp_path / "out").exists()
    # An unknown keyword: refused when the stage is made, in the loader's words.
    with pytest.raises(winnow.ConfigError, match=r"stage 'word_count': unknown parameter "
                                                 r"'min_wrods' \(known: min_words"):
        st.WordCount(min_wrods=3)
    # A bad type from Python: refused when the pipeline is checked or run.
    bad = winnow.Pipeline(input=str(docs), output=str(tmp_path / "out"),
                          stages=[st.WordCount(min_words="lots")])
    with pytest.raises(winnow.ConfigError, match="parameter 'min_words'"):
        bad.run(progress=False)
    # A run option out of range.
    good = winnow.Pipeline(input=str(docs), output=str(tmp_path / "out"), stages=[])
    with pytest.raises(winnow.ConfigError, match="threads"):
        good.run(threads=-3, progress=False)


def test_bad_input(tmp_path):
    broken = write(tmp_path / "broken.jsonl",
                   '{"id": "a", "text": "fine"}\n{"id": "b", "text": \n')
    yaml_file = write(tmp_path / "p.yaml", f"input: {{paths: [{broken}]}}\noutput: {{path: "
                      f"{tmp_path}/cli}}\nstages:\n  - stage: word_count\n    min_words: 1\n")
    code, message = both(yaml_file)
    assert code == 1 and "broken.jsonl" in message
    pipeline = winnow.Pipeline.from_yaml(yaml_file)
    with pytest.raises(winnow.RunError) as caught:
        pipeline.run(output=tmp_path / "py", progress=False)
    assert str(caught.value) == message and caught.value.exit_code == 1
    with open(tmp_path / "py" / "stats.json") as f:
        assert json.load(f)["status"] == "failed"
    # A missing input: the CLI's exit code 2, with its message.
    missing = write(tmp_path / "m.yaml", f"input: {{paths: [{tmp_path}/nothing.jsonl]}}\n"
                    f"output: {{path: {tmp_path}/m}}\nstages: []\n")
    code, message = both(missing)
    assert code == 2
    with pytest.raises(winnow.ConfigError) as caught:
        winnow.Pipeline.from_yaml(missing).run(progress=False)
    assert str(caught.value) == message


def test_python_stage_exception_is_the_cause(tmp_path, docs):
    def explode(record):
        raise ValueError("no " + record["id"])

    pipeline = winnow.Pipeline(input=str(docs), output=str(tmp_path / "out"),
                               stages=[winnow.PythonStage(explode)])
    with pytest.raises(winnow.RunError, match="python stage 'explode': document 'a'") as caught:
        pipeline.run(progress=False)
    assert isinstance(caught.value.__cause__, ValueError)
    assert str(caught.value.__cause__) == "no a"

    def wrong(record):
        return 3

    with pytest.raises(winnow.RunError, match="returned a int"):
        winnow.Pipeline(input=str(docs), output=str(tmp_path / "out2"),
                        stages=[winnow.PythonStage(wrong)]).run(progress=False)
