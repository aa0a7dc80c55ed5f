# A Python host may set a locale whose decimal point is a comma (locale.setlocale under
# de_DE.UTF-8): C's strtod, std::stod and printf follow LC_NUMERIC, so a number the engine read
# or wrote through them would change meaning. The same pipeline must give the same result
# under de_DE.UTF-8 as under C.
import contextlib
import locale

import pytest

import winnow
from winnow import stages as st

LOCALE = "de_DE.UTF-8"  # scripts/setup generates it

TEXTS = [
    "A line that says something.\nA line that says something.\nAnother line here.\n",
    "The cat sat on the mat and the cat sat on the mat and the cat sat on the mat again.",
    "Plain prose, written once: rivers carve valleys slowly while glaciers grind mountains; "
    "winds lift dust across deserts, oceans dissolve salt from rocks, and forests hold soil "
    "that rain would otherwise wash toward distant estuaries full of migrating birds.",
    "Every morning the baker lights her oven before dawn, kneads rye dough with caraway, "
    "shapes twelve loaves by hand, and sells them warm to neighbours who queue outside.",
]


@contextlib.contextmanager
def numeric_locale(name):
    saved = locale.setlocale(locale.LC_ALL)
    try:
        locale.setlocale(locale.LC_ALL, name)
    except locale.Error:
        pytest.skip(f"the {name} locale is not generated on this machine (scripts/setup "
                    "generates it with locale-gen)")
    try:
        yield
    finally:
        locale.setlocale(locale.LC_ALL, saved)


def pipeline():
    # Floats in the forms the engine parses: YAML floats (dup_line_frac, select's max),
    # "n:fraction" strings (gopher's n-gram limits, their defaults too), and floats written
    # back (the annotations, the drop scores).
    return winnow.Pipeline(stages=[
        st.GopherRepetition(name="gopher_defaults", annotate=True),
        st.GopherRepetition(name="gopher_strict", dup_line_frac=0.25,
                            top_n_grams=["2:0.15", "3:0.125"], dup_n_grams=["5:0.1"],
                            annotate=True),
        st.Select(field="gopher_strict_dup_line_frac", max=0.5),
    ], on_error="fail")


def summary(result):
    kept = result.kept
    dropped = [(r["id"], r["winnow_drop"]) for r in result.dropped]
    return kept, dropped, result.stats["totals"]


def test_same_result_under_a_comma_decimal_locale():
    records = [{"id": f"r{i}", "text": t} for i, t in enumerate(TEXTS)]
    reference = summary(pipeline().process(records))
    with numeric_locale(LOCALE):
        assert locale.localeconv()["decimal_point"] == ","
        under_de = summary(pipeline().process(records))
    assert under_de == reference
    # The run did decide something, with the fractions as written.
    kept, dropped, totals = reference
    assert totals["documents"] == 4 and dropped and kept
    assert any(stage_reason["stage"] == "gopher_defaults" for _, stage_reason in dropped)

