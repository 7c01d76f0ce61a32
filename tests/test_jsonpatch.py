"""The JSON Patch the live table sends: applying ``diff(a, b)`` to ``a`` gives ``b``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.jsonpatch import PatchError, apply, diff

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4)
)
keys = st.sampled_from(["a", "b", "", "~", "/", "a/b", "~1", "0", "-"]) | st.text(max_size=3)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=30,
)


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@given(values, values)
def test_applying_the_diff_gives_the_new_value(old: Any, new: Any) -> None:
    patch = diff(old, new)
    assert _text(apply(old, patch)) == _text(new)
    assert json.loads(json.dumps(patch)) == patch  # the patch itself is JSON


@given(values)
def test_a_value_differs_from_itself_in_nothing(value: Any) -> None:
    assert diff(value, json.loads(json.dumps(value))) == []


@given(st.lists(values, max_size=8), st.lists(values, max_size=8), st.integers(0, 5))
def test_lists_that_slide_and_change(items: list[Any], more: list[Any], dropped: int) -> None:
    """The shape of a bounded window: drop some at the front, add some at the end (or the
    other way round), with or without changing something in between."""
    slid = items[dropped:] + more
    for old, new in ((items, slid), (slid, items), ({"w": items}, {"w": slid})):
        assert _text(apply(old, diff(old, new))) == _text(new)


def test_a_sliding_window_costs_what_slid() -> None:
    """Fifty rolls, one dropped and one added: two operations, not fifty."""
    rolls = [{"total": i, "dice": [i % 6 + 1]} for i in range(50)]
    old = {"rolls": rolls, "fight": None}
    new = {"rolls": [*rolls[1:], {"total": 50, "dice": [3]}], "fight": None}
    patch = diff(old, new)
    assert patch == [
        {"op": "remove", "path": "/rolls/0"},
        {"op": "add", "path": "/rolls/49", "value": {"total": 50, "dice": [3]}},
    ]


def test_json_equality_is_strict() -> None:
    assert diff([1], [True]) == [{"op": "replace", "path": "/0", "value": True}]
    assert diff({"x": 1}, {"x": 1.0}) == [{"op": "replace", "path": "/x", "value": 1.0}]
    assert diff({"a/b": 1, "~": 2}, {"a/b": 1, "~": 3}) == [
        {"op": "replace", "path": "/~0", "value": 3}
    ]


@pytest.mark.parametrize(
    ("document", "patch"),
    [
        ({"a": 1}, [{"op": "remove", "path": "/b"}]),
        ({"a": [1]}, [{"op": "replace", "path": "/a/1", "value": 2}]),
        ({"a": [1]}, [{"op": "add", "path": "/a/01", "value": 2}]),
        ({"a": 1}, [{"op": "add", "path": "/a/x", "value": 2}]),
        ({"a": 1}, [{"op": "move", "path": "/a", "from": "/b"}]),
        ({"a": 1}, [{"op": "replace", "path": "a", "value": 2}]),
        ({"a": 1}, [{"op": "remove", "path": ""}]),
    ],
)
def test_a_patch_that_does_not_fit_is_refused_and_changes_nothing(
    document: Any, patch: list[dict[str, Any]]
) -> None:
    before = _text(document)
    with pytest.raises(PatchError):
        apply(document, patch)
    assert _text(document) == before
