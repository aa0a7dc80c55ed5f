"""One class per stage of the engine's registry, made at import: ``word_count`` is
``WordCount``, with the stage's parameters as keyword arguments (their defaults and help in
the signature and docstring). Every stage also takes ``name`` (the instance name, in drop
reasons "name/reason") and ``workers`` (pin the worker count). ``winnow stages`` on the command
line lists the same stages.
"""
import inspect
import keyword

import yaml

from . import _native

# The registry's type names (core/stage_params.cpp) as Python's.
_PY_TYPES = {"integer": "int", "number": "float", "boolean": "bool", "string": "str",
             "list of strings": "list[str]"}


def _py_name(name):
    """The keyword argument of a parameter: a Python keyword gets a trailing underscore
    (select's `in` is `in_`)."""
    return name + "_" if keyword.iskeyword(name) else name


def _default_value(param):
    text = param["default"]
    if param["required"] or text == "":
        return None
    kind = param["type"]
    try:
        if kind == "integer":
            return int(text)
        if kind == "number":
            return float(text)
        if kind == "boolean":
            return text.lower() in ("true", "yes", "on", "1")
        if kind == "string":
            return text
        return yaml.safe_load(text)
    except (ValueError, yaml.YAMLError):
        return text


class Stage:
    """A stage of a pipeline: its registry type and the parameters given (the others take the
    registry's defaults when the pipeline is built)."""

    type = None  # the registry name ("word_count")
    _param_names = ()

    def __init__(self, *, name=None, workers=None, **params):
        params = {k[:-1] if k.endswith("_") and k[:-1] in self._param_names else k: v
                  for k, v in params.items()}
        unknown = [key for key in params if key not in self._param_names]
        if unknown:
            # The words of the pipeline loader (core/stage_params.cpp).
            known = ", ".join(self._param_names) or "none"
            raise _native.ConfigError(
                f"stage '{name or self.type}': unknown parameter '{unknown[0]}' (known: {known})")
        self.name = name
        self.workers = workers
        self.params = {key: _plain(value) for key, value in params.items()}

    @property
    def label(self):
        return self.name or self.type

    def to_dict(self):
        """The stage as in a pipeline file's `stages:` list."""
        entry = {"stage": self.type}
        if self.name is not None:
            entry["name"] = self.name
        if self.workers is not None:
            entry["workers"] = int(self.workers)
        entry.update(self.params)
        return entry

    def __repr__(self):
        args = [f"{k}={v!r}" for k, v in self.params.items()]
        if self.name is not None:
            args.insert(0, f"name={self.name!r}")
        return f"{type(self).__name__}({', '.join(args)})"

    def __eq__(self, other):
        return type(self) is type(other) and self.to_dict() == other.to_dict()


def _plain(value):
    """numpy scalars and tuples as the plain values YAML writes."""
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _class_name(stage_name):
    return "".join(part[:1].upper() + part[1:] for part in stage_name.split("_"))


def _make_class(spec):
    params = spec["params"]
    lines = [spec["summary"], "", f"Stage ``{spec['name']}``: takes {spec['takes']}"
             + (f", gives {spec['gives']}" if spec["gives"] else "") + ".", ""]
    if params:
        lines.append("Parameters:")
    signature = []
    for p in params:
        default = "required" if p["required"] else (
            f"default {p['default']}" if p["default"] else "unset")
        lines.append(f"    {_py_name(p['name'])} ({_PY_TYPES.get(p['type'], p['type'])}, {default}): "
                     f"{p['help']}")
        signature.append(inspect.Parameter(
            _py_name(p["name"]), inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty if p["required"] else _default_value(p)))
    lines.append("    name (str): instance name (default the type); reasons read 'name/reason'")
    lines.append("    workers (int): pin the worker count (then neither autoscaled nor fused)")
    signature += [inspect.Parameter("name", inspect.Parameter.KEYWORD_ONLY, default=None),
                  inspect.Parameter("workers", inspect.Parameter.KEYWORD_ONLY, default=None)]
    cls = type(_class_name(spec["name"]), (Stage,), {
        "__doc__": "\n".join(lines),
        "__module__": __name__,
        "type": spec["name"],
        "_param_names": tuple(p["name"] for p in params),
        "defaults": {p["name"]: _default_value(p) for p in params},
    })
    cls.__signature__ = inspect.Signature(signature)
    return cls


#: registry name -> class, for every stage of the engine
by_type = {}
for _spec in _native.stage_specs():
    _cls = _make_class(_spec)
    by_type[_spec["name"]] = _cls
    globals()[_cls.__name__] = _cls

__all__ = ["Stage", "by_type"] + sorted(cls.__name__ for cls in by_type.values())
