"""Who sees what at a table: roles, the viewer, and the one rule for hidden records.

The rule: the GM sees every record; everyone else sees a record unless it is hidden, or it has
an audience (a whisper: sender and recipient) they are not in.

This module is the single place that decides whether a participant sees a record. The states
a viewer sees follow from it (:meth:`spieltisch.engine.table.Table.state_for`): the GM sees
the fold of every record, everyone else the fold of the records they see — never the GM's
state. What a system shows of such a state to a viewer is its own ``view`` function.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from spieltisch.engine.table import Record

__all__ = ["GM_VIEWER", "Actor", "Role", "Viewer", "sees", "visible"]


class Role(StrEnum):
    """A participant's role at a table."""

    GM = "gm"
    PLAYER = "player"
    SPECTATOR = "spectator"


class Actor(BaseModel):
    """Who issues a command: a participant id and role."""

    model_config = ConfigDict(frozen=True)

    id: str
    role: Role


@dataclass(frozen=True)
class Viewer:
    """Someone looking at a table: a role and the pieces (kitties, seats …) they own."""

    role: Role
    participant: str | None = None
    pieces: frozenset[str] = field(default_factory=frozenset)

    @property
    def is_gm(self) -> bool:
        """Whether this viewer sees everything."""
        return self.role is Role.GM

    @property
    def key(self) -> tuple[str, str | None, frozenset[str]]:
        """What a view depends on: viewers with the same key see the same."""
        return (self.role.value, None if self.is_gm else self.participant, self.pieces)


GM_VIEWER = Viewer(Role.GM)
"""The game master (and the administrator): sees every record."""


def sees(viewer: Viewer | Role, record: Record) -> bool:
    """Whether ``viewer`` sees ``record``: the GM sees everything; others see a record unless
    it is hidden, or it has an audience they are not in.

    A bare role names nobody, so it is in no audience: ask with a :class:`Viewer` (who has a
    participant id) to see the whispers one is part of.
    """
    if isinstance(viewer, Role):
        viewer = Viewer(viewer)
    if viewer.is_gm:
        return True
    if record.hidden:
        return False
    return record.audience is None or viewer.participant in record.audience


def visible(viewer: Viewer | Role, records: Iterable[Record]) -> list[Record]:
    """The records of ``records`` that ``viewer`` sees, in order."""
    return [record for record in records if sees(viewer, record)]
