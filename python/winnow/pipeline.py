"""Pipeline: the stages between an input and an output, run by the engine (winnow._native),
checked by the same loader and with the same messages as the `winnow` command's YAML."""
import importlib
import json
import os
import re
import tempfile

import yaml

from . import _native
from .progress import make_progress
from .stages import Stage, by_type

# Each in-memory record's position, carried through the run and taken off again.
_ROW_FIELD = "_winnow_row"


class PythonStage(Stage):
    """A stage written in Python: ``function(record)`` sees each document still kept as a dict
    (the input's record with the current text, id and the annotations so far) and returns
    True or None (keep), False (drop, reason "<name>/rejected") or a dict of annotations
    (int, float, str or a list of numbers) written into the record. Its time shows in the
    run's stats like any stage's. It holds the GIL while it runs; native stages do not.

    In a pipeline file it reads ``stage: python`` with ``function: module:name`` (only the
    Python package runs such a file)."""

    type = "python"
    _param_names = ("function", "text_field", "id_field")

    def __init__(self, function, *, name=None, workers=None):
        if not callable(function):
            raise TypeError(f"PythonStage needs a callable, not {type(function).__name__}")
        if name is None:
            fn_name = getattr(function, "__name__", "")
            name = fn_name if fn_name.isidentifier() else "python"
        super().__init__(name=name, workers=workers)
        self.function = function

    def importable_name(self):
        """"module:qualname" when the function can be imported back, else None."""
        module = getattr(self.function, "__module__", None)
        qualname = getattr(self.function, "__qualname__", "")
        if not module or not qualname or "<" in qualname:
            return None
        return f"{module}:{qualname}"

    def key(self):
        return self.importable_name() or f"{self.label}@{id(self.function):x}"

    def to_dict(self, for_yaml=True):
        entry = super().to_dict()
        name = self.importable_name() if for_yaml else self.key()
        if name is None:
            raise _native.ConfigError(
                f"stage '{self.label}': a lambda or local function cannot be written to a "
                "pipeline file; define it at module level")
        entry["function"] = name
        return entry

    def __eq__(self, other):
        return isinstance(other, PythonStage) and self.function is other.function and \
            self.name == other.name

    def __repr__(self):
        return f"PythonStage({getattr(self.function, '__qualname__', self.function)!r}, " \
               f"name={self.name!r})"


def _import_function(spec, where, label):
    module_name, _, qualname = spec.partition(":")
    try:
        target = importlib.import_module(module_name)
        for part in qualname.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError, ValueError) as e:
        raise _native.ConfigError(
            f"{where}: stage '{label}': cannot import function '{spec}': {e}") from e
    return target


class Result:
    """What ``Pipeline.process`` gives: the kept records (with the stages' annotations), the
    dropped ones (with the stage, reason and score that dropped them), the error records and
    the run's stats, each in the type the records came in (a list of dicts, a DataFrame, a
    pyarrow Table)."""

    def __init__(self, kept, dropped, errors, stats):
        self.kept = kept
        self.dropped = dropped
        self.errors = errors
        self.stats = stats

    def __repr__(self):
        return f"Result(kept={len(self.kept)}, dropped={len(self.dropped)}, " \
               f"errors={len(self.errors)})"


class Pipeline:
    """Stages between an input and an output.

    input: a path (file, folder or glob), a list of them, or the pipeline file's ``input``
    section as a dict (``{"paths": [...], "text_field": "content"}``). output: a folder, or
    the ``output`` section as a dict. settings: the file's other top-level keys
    (``threads``, ``on_error``, ``batch_size``, ``seed``, ``fuse``, ``autoscale`` ...).
    """

    def __init__(self, input=None, output=None, stages=(), **settings):
        self.input = _section(input, "paths")
        self.output = _section(output, "path")
        self.stages = list(stages)
        for stage in self.stages:
            if not isinstance(stage, Stage):
                raise TypeError(f"not a stage: {stage!r} (a winnow.stages class or PythonStage)")
        self.settings = dict(settings)
        self._source = "<pipeline>"
        self._source_text = None  # the file's text, while the pipeline is as loaded

    # -- the pipeline file -------------------------------------------------------------
    @classmethod
    def from_yaml(cls, path):
        """Reads a pipeline file; it is checked as the `winnow` command checks it (same
        messages). A ``stage: python`` imports its ``function: module:name``."""
        with open(path, encoding="utf-8") as f:
            text = f.read()
        return cls._from_text(text, str(path))

    @classmethod
    def from_yaml_string(cls, text, source="<string>"):
        return cls._from_text(text, source)

    @classmethod
    def _from_text(cls, text, source):
        has_python = False
        try:
            root = yaml.safe_load(text)
        except yaml.YAMLError:
            root = None  # the engine's loader says what is wrong, and where
        if isinstance(root, dict):
            has_python = any(isinstance(s, dict) and s.get("stage") == "python"
                             for s in (root.get("stages") or []))
        _native.check(text, source, has_python)
        root = root or {}
        stages = []
        for entry in root.get("stages") or []:
            entry = dict(entry)
            kind = entry.pop("stage")
            name = entry.pop("name", None)
            workers = entry.pop("workers", None)
            if kind == "python":
                fn = _import_function(str(entry["function"]), source, name or kind)
                stages.append(PythonStage(fn, name=name, workers=workers))
            else:
                stages.append(by_type[kind](name=name, workers=workers, **entry))
        settings = {k: v for k, v in root.items() if k not in ("input", "output", "stages")}
        pipeline = cls(root.get("input"), root.get("output"), stages, **settings)
        pipeline._source = source
        pipeline._source_text = (text, pipeline.to_dict(for_yaml=False))
        return pipeline

    def to_dict(self, for_yaml=True):
        root = {}
        if self.input:
            root["input"] = dict(self.input)
        if self.output:
            root["output"] = dict(self.output)
        root.update(self.settings)
        text_field = (self.input or {}).get("text_field", "text")
        id_field = (self.input or {}).get("id_field", "id")
        stages = []
        for stage in self.stages:
            if isinstance(stage, PythonStage):
                entry = stage.to_dict(for_yaml)
                if text_field != "text":
                    entry["text_field"] = text_field
                if id_field != "id":
                    entry["id_field"] = id_field
            else:
                entry = stage.to_dict()
            stages.append(entry)
        root["stages"] = stages
        return root

    def to_yaml(self, path=None):
        """The pipeline file (the `winnow` command runs it, unless it has Python stages);
        written to `path` when given."""
        text = _dump(self.to_dict())
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return text

    def _engine_text(self):
        """The text the engine loads: the file as read while unchanged (so messages name its
        lines), else the pipeline as YAML."""
        current = self.to_dict(for_yaml=False)
        if self._source_text and self._source_text[1] == current and not any(
                isinstance(s, PythonStage) for s in self.stages):
            return self._source_text[0], self._source
        return _dump(current), self._source

    def _functions(self):
        return {s.key(): s.function for s in self.stages if isinstance(s, PythonStage)}

    def check(self):
        """Checks the pipeline as the loader does (raises ConfigError); returns its
        fingerprint, the hash of what decides the output bytes."""
        text, source = self._engine_text()
        return _native.check(text, source, bool(self._functions()))

    # -- running --------------------------------------------------------------------------
    def run(self, *, input=None, output=None, threads=None, overwrite=False, progress=True,
            output_format=None, on_error=None, batch_size=None, autoscale=None, fuse=None,
            gpus=None, passes="all"):
        """Runs the pipeline as ``winnow run`` does (the keyword arguments are its options)
        and returns the run's stats (stats.json) as a dict. Raises ConfigError for what the
        command refuses with exit code 2 (nothing is read), RunError when the run fails,
        KeyboardInterrupt on Ctrl-C once the run has stopped cleanly (finished shards stay
        complete, nothing half-written is left; running again resumes).

        progress: True (a tqdm bar when tqdm is installed, in Jupyter too; else a bar on a
        terminal), False, or a function(pass, documents, bytes_read, total_bytes, seconds)."""
        if isinstance(input, (str, os.PathLike)):
            input = [input]
        options = {
            "inputs": [str(p) for p in input] if input else None,
            "output": str(output) if output is not None else None,
            "threads": threads, "overwrite": overwrite, "output_format": output_format,
            "on_error": on_error, "batch_size": batch_size, "autoscale": autoscale,
            "fuse": fuse, "gpus": gpus, "passes": passes,
        }
        text, source = self._engine_text()
        bar = make_progress(progress)
        try:
            outcome = _native.run(text, source, options, self._functions(),
                                  bar.update if bar else None)
        finally:
            if bar:
                bar.close()
        with open(os.path.join(outcome["output_dir"], "stats.json"), encoding="utf-8") as f:
            return json.load(f)

    def process(self, records, *, threads=None, progress=False, batch_size=None,
                on_error=None):
        """Runs the stages over records in memory: a list of dicts, a pandas DataFrame or a
        pyarrow Table (each row a record with the input's text field). Returns a Result with
        the kept records (with annotations), the dropped ones (with ``winnow_drop``: stage,
        reason, score, the score None when the stage gives none; in a DataFrame the columns
        ``drop_stage``, ``drop_reason``, ``drop_score``), the error records and the stats, in
        the type given. A DataFrame's index follows its rows; a record without an id gets the
        engine's generated one (from its position). Dedup stages see only these records.

        on_error: "skip" by default here (a record without text is an error record in
        ``result.errors``: position, DataFrame index label, error, message naming it as
        "record 4 of the list", excerpt), unless the pipeline's settings say otherwise;
        "fail" raises RunError at the first such record."""
        kind, rows, index, columns = _to_rows(records)
        settings = dict(self.settings)
        if on_error is not None:
            settings["on_error"] = on_error
        settings.setdefault("on_error", "skip")
        with tempfile.TemporaryDirectory(prefix="winnow-") as tmp:
            path = os.path.join(tmp, "records.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                for i, row in enumerate(rows):
                    # The position goes first, so an error's excerpt can give it back and lose
                    # it again (_error_record).
                    row = {_ROW_FIELD: i, **row}
                    f.write(json.dumps(row, ensure_ascii=False, default=_json_default))
                    f.write("\n")
            pipeline = Pipeline(dict(self.input or {}, paths=[path]),
                                {"path": os.path.join(tmp, "out"), "format": "jsonl",
                                 "write_rejected": True},
                                self.stages, **settings)
            pipeline.input.pop("format", None)
            try:
                stats = pipeline.run(threads=threads, progress=progress,
                                     batch_size=batch_size)
            except _native.RunError as e:
                # The temporary file is gone when the caller reads this: name the record. And
                # skipped records land in result.errors here, not in an errors/ folder.
                message = _name_records(str(e), path, kind, index).replace(
                    "set on_error: skip to log such records to errors/ and go on",
                    "on_error='skip' gives such records in result.errors")
                raise _native.RunError(message) from None
            out = os.path.join(tmp, "out")
            kept = _read_jsonl(os.path.join(out, "records.jsonl"))
            dropped = _read_jsonl(os.path.join(out, "rejected", "records.jsonl"))
            errors = _read_jsonl(os.path.join(out, "errors", "records.jsonl"))
        errors = [_error_record(e, path, kind, index) for e in errors]
        return Result(_from_rows(kind, kept, index, columns, False),
                      _from_rows(kind, dropped, index, columns, True), errors, stats)

    def __repr__(self):
        return f"Pipeline(input={self.input!r}, output={self.output!r}, stages={self.stages!r})"


def _section(value, key):
    if value is None:
        return {}
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, (str, os.PathLike)):
        return {key: [str(value)] if key == "paths" else str(value)}
    return {key: [str(v) for v in value]}


class _Dumper(yaml.SafeDumper):
    pass


# Lists of scalars inline ([a, b]), as the examples write them.
def _represent_list(dumper, data):
    flow = all(not isinstance(v, (dict, list)) for v in data) and len(data) > 0
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(list, _represent_list)


def _dump(root):
    return yaml.dump(root, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=100)


def _json_default(value):
    if hasattr(value, "item"):
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def _read_jsonl(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _to_rows(records):
    """(kind, rows, index, columns) for a list of dicts, a DataFrame or a pyarrow Table."""
    module = type(records).__module__.split(".")[0]
    if module == "pandas":
        frame = records
        text = frame.to_json(orient="records", lines=True, force_ascii=False, date_format="iso",
                             default_handler=str)
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        return "pandas", rows, frame.index, list(frame.columns)
    if module == "pyarrow":
        return "pyarrow", records.to_pylist(), None, list(records.column_names)
    rows = list(records)
    for row in rows:
        if not isinstance(row, dict):
            raise TypeError(f"records must be dicts, a DataFrame or a pyarrow Table, not "
                            f"{type(row).__name__}")
    return "list", rows, None, None


def _where(kind, position, index):
    """How a message names the record at `position` of what process() was given."""
    if kind == "pandas":
        label = index[position] if index is not None else position
        return f"row {position + 1} of the DataFrame (index {label!r})"
    if kind == "pyarrow":
        return f"row {position + 1} of the Table"
    return f"record {position + 1} of the list"


def _name_records(message, path, kind, index):
    """`message` with "<temporary file>:<line>" (line n holds record n - 1) said as the
    record it is, and any other mention of the file as "the records"."""
    def record(match):
        return _where(kind, int(match.group(1)) - 1, index)

    message = re.sub(re.escape(path) + r":(\d+)", record, message)
    return message.replace(path, "the records")


def _error_record(error, path, kind, index):
    """An error record of the temporary file as one of the records given: where it is
    (``position``, from 0, as in records[position]; a DataFrame's ``index`` label too), what
    went wrong, and the excerpt as the record's own JSON, without the position process()
    added."""
    position = None
    excerpt = error.get("excerpt") or ""
    found = re.match(r'\{"' + _ROW_FIELD + r'": (\d+)(, )?', excerpt)
    if found:
        position = int(found.group(1))
        excerpt = "{" + excerpt[found.end():]
    elif isinstance(error.get("line"), int) and error["line"] > 0:
        position = error["line"] - 1
    out = {"position": position}
    if kind == "pandas" and position is not None and index is not None:
        label = index[position]
        out["index"] = label.item() if hasattr(label, "item") else label
    out["error"] = error.get("error")
    out["message"] = _name_records(error.get("message", ""), path, kind, index)
    out["excerpt"] = excerpt
    return out


def _from_rows(kind, rows, index, columns, dropped):
    positions = [row.pop(_ROW_FIELD, None) for row in rows]
    if dropped:
        # Every drop has a score, None when the stage that dropped it gives none.
        for row in rows:
            if isinstance(row.get("winnow_drop"), dict):
                row["winnow_drop"].setdefault("score", None)
    if kind == "list":
        return rows
    if dropped:
        for row in rows:
            drop = row.pop("winnow_drop", None) or {}
            row["drop_stage"] = drop.get("stage")
            row["drop_reason"] = drop.get("reason")
            row["drop_score"] = drop.get("score")
    if kind == "pandas":
        import pandas as pd

        frame_index = [index[p] for p in positions] if index is not None and all(
            p is not None for p in positions) else None
        frame = pd.DataFrame(rows, index=frame_index)
        # The input's columns first, in their order, then what the stages added.
        order = [c for c in columns if c in frame.columns] + \
            [c for c in frame.columns if c not in columns]
        if not rows:
            frame = pd.DataFrame(columns=order)
        return frame[order]
    import pyarrow as pa

    return pa.Table.from_pylist(rows)
