"""winnow: curate training data for foundation models, from Python.

The same engine as the ``winnow`` command: a pipeline is a list of stages (one class per stage
of the engine's registry, in ``winnow.stages``) between an input and an output::

    import winnow
    from winnow import stages

    pipeline = winnow.Pipeline(
        input="data/", output="out/",
        stages=[stages.WordCount(min_words=50), stages.ExactDedup()])
    stats = pipeline.run(threads=8)       # the run's stats.json, as a dict

``Pipeline.from_yaml`` / ``to_yaml`` read and write the command's pipeline files;
``Pipeline.process`` runs the stages over records in memory (a list of dicts, a pandas
DataFrame, a pyarrow Table); ``PythonStage`` puts a Python function in a pipeline.
"""
from . import _native
from ._native import ConfigError, RunError, WinnowError
from . import stages
from .pipeline import Pipeline, PythonStage, Result

__version__ = _native.version

# Exit codes of the `winnow` command for the same failures.
ConfigError.exit_code = 2
RunError.exit_code = 1

__all__ = ["Pipeline", "PythonStage", "Result", "stages", "WinnowError", "ConfigError",
           "RunError", "__version__"]
