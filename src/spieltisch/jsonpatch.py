"""RFC 6902 JSON Patch between two JSON values: :func:`diff` makes one, :func:`apply` applies it.

The live table sends each viewer the change of its view instead of the whole view (see
docs/table-api.md), so the diff is made for the shapes views have: objects whose few keys
change, and lists that grow at one end and drop at the other (a bounded window of recent
rolls). Only ``add``, ``remove`` and ``replace`` are produced, every path is a plain JSON
Pointer (RFC 6901) with explicit array indexes, and the operations are meant to be applied in
order. Equal means equal as JSON text would be: ``1``, ``1.0`` and ``true`` differ.

The browser applies the same operations (``applyPatch`` in ``static/js/core.js``).
"""

from __future__ import annotations

import copy
import json
from typing import Any

__all__ = ["PatchError", "apply", "diff"]

Operation = dict[str, Any]


class PatchError(ValueError):
    """A patch that does not fit the document it is applied to."""


def diff(old: Any, new: Any) -> list[Operation]:
    """The operations that turn the JSON value ``old`` into ``new`` (none when they are equal)."""
    operations: list[Operation] = []
    _diff(old, new, "", operations)
    return operations


def apply(document: Any, patch: list[Operation]) -> Any:
    """``document`` with ``patch`` applied (``document`` itself is left unchanged).

    Raises :class:`PatchError` when an operation names a path the document lacks.
    """
    root = [copy.deepcopy(document)]  # a holder, so that the path "" can be replaced
    for operation in patch:
        op, path = operation.get("op"), operation.get("path")
        if not isinstance(path, str) or op not in ("add", "remove", "replace"):
            raise PatchError(f"unsupported operation {operation!r}")
        if path == "":
            if op == "remove":
                raise PatchError("the whole document cannot be removed")
            root[0] = operation["value"]
            continue
        parent: Any = root
        key: str | int = 0
        for token in _tokens(path):
            parent, key = _step(parent, key), token
        if isinstance(parent, list):
            index = _index(parent, key, op == "add")
            if op == "add":
                parent.insert(index, operation["value"])
            elif op == "remove":
                del parent[index]
            else:
                parent[index] = operation["value"]
        elif isinstance(parent, dict):
            if op != "add" and key not in parent:
                raise PatchError(f"no member {key!r} at {path!r}")
            if op == "remove":
                del parent[key]
            else:
                parent[key] = operation["value"]
        else:
            raise PatchError(f"{path!r} is inside a scalar")
    return root[0]


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _tokens(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise PatchError(f"a path starts with '/': {path!r}")
    return [token.replace("~1", "/").replace("~0", "~") for token in path[1:].split("/")]


def _step(container: Any, key: str | int) -> Any:
    if isinstance(container, list):
        return container[_index(container, key, False)]
    if isinstance(container, dict) and key in container:
        return container[key]
    raise PatchError(f"no member {key!r}")


def _index(items: list[Any], key: str | int, adding: bool) -> int:
    if isinstance(key, int):
        return key
    if key == "-" and adding:
        return len(items)
    if not key.isdigit() or (len(key) > 1 and key.startswith("0")):
        raise PatchError(f"not an array index: {key!r}")
    index = int(key)
    if index > len(items) or (index == len(items) and not adding):
        raise PatchError(f"index {index} out of range")
    return index


def _text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _same(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same JSON (``==`` first, the cheap and usual answer)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict | list):
        return bool(a == b) and _text(a) == _text(b)
    if isinstance(a, float):
        return repr(a) == repr(b)
    return bool(a == b)


def _diff(a: Any, b: Any, path: str, out: list[Operation]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            if key not in b:
                out.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in b.items():
            where = f"{path}/{_escape(key)}"
            if key in a:
                _diff(a[key], value, where, out)
            else:
                out.append({"op": "add", "path": where, "value": value})
    elif isinstance(a, list) and isinstance(b, list):
        _diff_list(a, b, path, out)
    elif not _same(a, b):
        out.append({"op": "replace", "path": path, "value": b})


def _diff_list(a: list[Any], b: list[Any], path: str, out: list[Operation]) -> None:
    """Keep the common head and tail; a middle that only slid (items dropped at its front,
    others added at its end, or the other way round) becomes removes and adds, any other
    middle is diffed item by item."""
    start, end_a, end_b = 0, len(a), len(b)
    while start < end_a and start < end_b and _same(a[start], b[start]):
        start += 1
    while end_a > start and end_b > start and _same(a[end_a - 1], b[end_b - 1]):
        end_a, end_b = end_a - 1, end_b - 1
    old, new = a[start:end_a], b[start:end_b]
    dropped = _slid(old, new)
    if dropped is not None:  # old[dropped:] starts new: drop the head, add the rest at the end
        out.extend({"op": "remove", "path": f"{path}/{start}"} for _ in range(dropped))
        kept = len(old) - dropped
        for offset, value in enumerate(new[kept:]):
            out.append({"op": "add", "path": f"{path}/{start + kept + offset}", "value": value})
        return
    added = _slid(new, old)
    if added is not None:  # new[added:] starts old: add a head, drop the rest at the end
        for offset, value in enumerate(new[:added]):
            out.append({"op": "add", "path": f"{path}/{start + offset}", "value": value})
        kept = len(new) - added
        out.extend(
            {"op": "remove", "path": f"{path}/{start + len(new)}"} for _ in range(len(old) - kept)
        )
        return
    common = min(len(old), len(new))
    for offset in range(common):
        _diff(old[offset], new[offset], f"{path}/{start + offset}", out)
    out.extend({"op": "remove", "path": f"{path}/{start + common}"} for _ in old[common:])
    for offset, value in enumerate(new[common:]):
        out.append({"op": "add", "path": f"{path}/{start + common + offset}", "value": value})


def _slid(old: list[Any], new: list[Any]) -> int | None:
    """The smallest ``k`` > 0 with ``old[k:]`` a non-empty prefix of ``new``, if there is one."""
    if not old or not new:
        return None
    for k in range(1, len(old)):
        tail = len(old) - k
        if (
            tail <= len(new)
            and _same(old[k], new[0])
            and all(_same(old[k + i], new[i]) for i in range(1, tail))
        ):
            return k
    return None
