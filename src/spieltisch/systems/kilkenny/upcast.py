"""Kilkenny Cats: versions of its event shapes and rules, and its upcasters (the one place).

Every event here is at version 1: none has changed shape since versions were introduced (see
:mod:`spieltisch.engine.upcast`). When an event's shape changes, raise its ``class_version``
(a ``ClassVar[int]`` on the event model) and add its upcaster here, for example::

    def upcast_rolled_v1_v2(event: dict[str, Any]) -> dict[str, Any]:
        # what a version-1 event meant, in the shape of version 2
        return {**event, "bonus": 0}

    UPCASTERS = {"rolled": (upcast_rolled_v1_v2,)}

Raise :data:`RULES_VERSION` when a rule changes what a command decides. Either way the frozen
exports in ``tests/frozen/`` must keep loading, undoing and verifying.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from spieltisch.engine.upcast import Upcaster

__all__ = ["RULES_VERSION", "UPCASTERS"]

RULES_VERSION = 2
"""The version of the rules, carried in exports and snapshots."""

UPCASTERS: Mapping[str, Sequence[Upcaster]] = {}
"""Event kind → its upcasters in order (``v1→v2``, ``v2→v3``, …); none yet."""
