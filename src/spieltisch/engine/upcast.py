"""Versions of event shapes, and upcasters that read old events in today's shape.

Logs last for years, but the code that reads them changes. Every event type has a version,
its ``class_version`` (a class attribute of the event model; absent means 1), and each
game system has one small module, ``systems/<system>/upcast.py``, that builds its
:class:`EventShapes`: the event union, a *rules version* and the upcasters. An upcaster is a
pure function ``upcast_v<n>_v<n+1>`` from the JSON of an event of version ``n`` to the JSON of
version ``n + 1`` (in the style of the event-sourcing libraries: old events are upgraded where
they are read, never rewritten in the database or the export they came from).

The stored JSON of an event names its version as ``"class_version"`` only from version 2 on;
an event without it is version 1 (every event written before versions existed). An export
carries the versions of all its event types and the rules version (``"versions"``, see
:meth:`EventShapes.describe`); an export without them reads as version 1 throughout.

Every place that reads events reads them through here: loading a table (the records entering
a :class:`~spieltisch.engine.table.Table`), catching up with other writers, undo (which
re-folds the records already read), replay and verification, import. An event of a version
newer than the code knows is refused (``table.newer_event``) instead of misread.

The *rules version* of a system counts changes to what its rules decide. It is carried in
exports and in snapshots (a snapshot folded under other rules or shapes is not used; the
table folds from its log instead). Replay decides old commands with today's rules, so a rule
change must keep old logs replaying: change only what old records do not reach, or read the
old events so that they agree (an upcaster), and document the reading. The frozen exports in
``tests/frozen/`` hold the code to that.

Pure: no I/O.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from spieltisch.engine.errors import EngineError

__all__ = [
    "VERSION_FIELD",
    "EventShapes",
    "Upcaster",
    "event_classes",
    "shapes_of",
]

VERSION_FIELD = "class_version"
"""The key naming an event's version in its stored JSON (written from version 2 on)."""

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""Turns the JSON of an event of version ``n`` into the JSON of version ``n + 1``."""


def event_classes(union: Any) -> list[type[BaseModel]]:
    """The event models of a (possibly annotated, possibly nested) union of event models."""
    found: list[type[BaseModel]] = []
    if isinstance(union, type) and issubclass(union, BaseModel):
        return [union]
    origin = typing.get_origin(union)
    if origin is typing.Annotated:
        return event_classes(typing.get_args(union)[0])
    if origin is typing.Union or origin is types.UnionType:
        for member in typing.get_args(union):
            found.extend(event_classes(member))
        return found
    raise TypeError(f"not a union of event models: {union!r}")


def _kind(model: type[BaseModel]) -> str:
    default = model.model_fields["kind"].default
    if not isinstance(default, str):
        raise TypeError(f"{model.__name__}: an event needs a literal default for 'kind'")
    return default


@dataclass(frozen=True)
class EventShapes:
    """The event types of one system with their versions, and how to read older shapes.

    Build it with :meth:`of`. ``versions`` maps every event kind to its current version;
    ``upcasters[kind]`` lists the upcasters of that kind in order (``v1→v2``, ``v2→v3``, …).
    """

    versions: Mapping[str, int]
    upcasters: Mapping[str, tuple[Upcaster, ...]] = field(default_factory=dict)
    rules: int = 1
    """The system's rules version (see the module)."""

    @classmethod
    def of(
        cls,
        union: Any,
        *,
        rules: int = 1,
        upcasters: Mapping[str, Iterable[Upcaster]] | None = None,
    ) -> EventShapes:
        """The shapes of the events in ``union``: each model's ``class_version`` (1 if it has
        none) and, for a kind at version ``n``, exactly ``n - 1`` upcasters in order.

        Raises :class:`TypeError` when a kind lacks an upcaster or has one too many, so a
        shape change without its upcaster fails as soon as the system is imported.
        """
        versions: dict[str, int] = {}
        for model in event_classes(union):
            version = getattr(model, "class_version", 1)
            if not isinstance(version, int) or version < 1:
                raise TypeError(f"{model.__name__}.class_version must be a positive int")
            versions[_kind(model)] = version
        steps = {kind: tuple(chain) for kind, chain in (upcasters or {}).items()}
        unknown = sorted(set(steps) - set(versions))
        if unknown:
            raise TypeError(f"upcasters for unknown event kinds: {unknown}")
        for kind, version in versions.items():
            if len(steps.get(kind, ())) != version - 1:
                raise TypeError(
                    f"event {kind!r} is at version {version}: it needs {version - 1} "
                    f"upcaster(s) (v1→v2 … v{version - 1}→v{version}), "
                    f"has {len(steps.get(kind, ()))}"
                )
        if rules < 1:
            raise TypeError("the rules version starts at 1")
        return cls(versions, steps, rules)

    def merged(self, other: EventShapes) -> EventShapes:
        """These shapes and ``other``'s (e.g. a system's and the chat's); kinds are unique."""
        clash = set(self.versions) & set(other.versions)
        if clash:
            raise TypeError(f"event kinds defined twice: {sorted(clash)}")
        return EventShapes(
            {**self.versions, **other.versions},
            {**self.upcasters, **other.upcasters},
            self.rules,
        )

    @property
    def current(self) -> bool:
        """Whether every event is still at version 1 (nothing to upcast, no markers)."""
        return all(version == 1 for version in self.versions.values())

    def describe(self) -> dict[str, Any]:
        """The versions as an export carries them: ``{"rules": n, "events": {kind: v}}``."""
        return {"rules": self.rules, "events": dict(sorted(self.versions.items()))}

    @property
    def stamp(self) -> str:
        """A short text that changes whenever the rules or an event's shape change (for
        snapshots): ``"r1"``, ``"r2;check_rolled=2"``, …"""
        changed = "".join(f";{k}={v}" for k, v in sorted(self.versions.items()) if v > 1)
        return f"r{self.rules}{changed}"

    def version_of(self, data: Mapping[str, Any], assumed: Mapping[str, int] | None = None) -> int:
        """The version of the stored event ``data``: its own ``class_version``, else what the
        export it came from says for its kind (``assumed``), else 1."""
        kind = data.get("kind")
        stored = data.get(VERSION_FIELD)
        if stored is None and assumed is not None and isinstance(kind, str):
            stored = assumed.get(kind)
        if stored is None:
            return 1
        if not isinstance(stored, int) or isinstance(stored, bool) or stored < 1:
            raise EngineError("table.bad_event_version", kind=kind, version=stored)
        return stored

    def read(self, data: Any, assumed: Mapping[str, int] | None = None) -> Any:
        """The event ``data`` in today's shape, without its version marker: what the event
        models validate. Data that is not an event object is handed on unchanged (the model
        names what is wrong with it)."""
        if not isinstance(data, Mapping):
            return data
        kind = data.get("kind")
        version = self.version_of(data, assumed)
        if not isinstance(kind, str) or kind not in self.versions:
            if version != 1:
                raise EngineError("table.newer_event", kind=kind, version=version, known=0)
            return data  # an unknown kind: the model refuses it by name
        known = self.versions[kind]
        if version > known:
            raise EngineError("table.newer_event", kind=kind, version=version, known=known)
        event = {k: v for k, v in data.items() if k != VERSION_FIELD}
        for step in self.upcasters.get(kind, ())[version - 1 :]:
            event = step(event)
            event["kind"] = kind  # an upcaster does not rename the event
        return event

    def stored(self, data: Any, assumed: Mapping[str, int] | None = None) -> Any:
        """The event ``data`` in today's shape as it is stored: with ``class_version`` when
        that is 2 or more."""
        event = self.read(data, assumed)
        return self.mark(event)

    def mark(self, event: Any) -> Any:
        """A freshly dumped event (today's shape) with its version marker, if it needs one."""
        if not isinstance(event, Mapping):
            return event
        kind = event.get("kind")
        version = self.versions.get(kind, 1) if isinstance(kind, str) else 1
        if version == 1:
            return event
        return {**event, VERSION_FIELD: version}

    def needs_reading(self, events: Iterable[Any], assumed: Mapping[str, int] | None) -> bool:
        """Whether any of ``events`` is not in today's stored shape."""
        events = list(events)
        marked = any(isinstance(e, Mapping) and VERSION_FIELD in e for e in events)
        if self.current and not assumed and not marked:
            return False
        return any(self.stored(event, assumed) != event for event in events)


_MERGED: dict[int, tuple[EventShapes, EventShapes]] = {}


def shapes_of(system: Any) -> EventShapes:
    """The event shapes a table of ``system`` reads: the system's own (its ``shapes``
    attribute; none: every kind at version 1, rules version 1) and the chat's."""
    from spieltisch.engine.chat import Said

    own = getattr(system, "shapes", None)
    if not isinstance(own, EventShapes):
        own = _NONE
    known = _MERGED.get(id(own))
    if known is None or known[0] is not own:
        known = (own, own.merged(EventShapes.of(Said)))
        _MERGED[id(own)] = known
    return known[1]


_NONE = EventShapes({})
