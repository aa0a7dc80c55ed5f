# Pipeline.process over a pyarrow Table. pyarrow is optional and not installable on every
# machine (neither Debian 12 nor the npm registry carries it): without it this file is skipped,
# with the reason, and ctest reports the test as skipped (SKIP_REGULAR_EXPRESSION in
# tests/CMakeLists.txt), never as passed.
import pytest

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed")

from test_in_memory import TEXTS, chain  # noqa: E402


def test_pyarrow_table():
    table = pa.Table.from_pylist([{"text": t} for t in TEXTS])
    result = chain().process(table)
    assert isinstance(result.kept, pa.Table) and result.kept.num_rows == 2
