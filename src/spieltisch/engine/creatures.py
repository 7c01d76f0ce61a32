"""Creatures of a fight: stats, tracks, tags, owner and side, and what each viewer sees.

A :class:`Creature` is a hunter, an NSC, a hero or a monster — any piece that fights. Its
``stats`` are plain numbers by name (``kkr``, ``speed_walk`` …), its ``tracks`` are values
that go up and down between a floor and a maximum (:class:`Track`: HeXXen life points may fall
to −10), its ``tags`` are markings and resistances with optional values and details
(:class:`Tag`: ``resistance`` 2 against ``PH``; ``langzeiteffekt`` for ``feuer``).

A creature the GM marks ``secret`` (an ambush waiting) is seen by the GM and by whoever owns
it, by nobody else: :func:`visible_to` and :func:`visible_creatures` are the one place that
decides it, using :class:`~spieltisch.engine.visibility.Viewer`.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Size
from spieltisch.engine.visibility import Viewer

__all__ = [
    "Creature",
    "Tag",
    "Track",
    "damage",
    "heal",
    "hostile",
    "set_track",
    "unnamed_viewer",
    "visible_creatures",
    "visible_to",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Track(_Frozen):
    """A value between ``floor`` and ``maximum`` (life points, hit points, magic points)."""

    current: int
    maximum: int
    floor: int = 0

    @model_validator(mode="after")
    def _in_range(self) -> Track:
        if not self.floor <= self.current <= self.maximum:
            raise ValueError("current outside floor..maximum")
        return self

    def lowered(self, amount: int) -> Track:
        """``amount`` less, never below the floor."""
        return self.model_copy(update={"current": max(self.floor, self.current - amount)})

    def raised(self, amount: int) -> Track:
        """``amount`` more, never above the maximum."""
        return self.model_copy(update={"current": min(self.maximum, self.current + amount)})

    @property
    def at_floor(self) -> bool:
        """Whether the track is as low as it goes."""
        return self.current == self.floor


class Tag(_Frozen):
    """A marking or property: a name, an optional value and an optional detail."""

    name: str
    value: int | None = None
    detail: str | None = None


class Creature(_Frozen):
    """A fighting piece of any system."""

    id: str
    name: str = ""
    side: str
    owner: str | None = None
    """The participant who plays it (None: the GM)."""
    secret: bool = False
    """Hidden from everyone but the GM and its owner."""
    size: Size = Size.MEDIUM
    stats: dict[str, Decimal] = Field(default_factory=dict)
    tracks: dict[str, Track] = Field(default_factory=dict)
    tags: tuple[Tag, ...] = ()

    def stat(self, name: str, default: Decimal | int | None = None) -> Decimal:
        """A stat's value; ``default`` if it has none, else ``toolkit.creatures.unknown_stat``."""
        if name in self.stats:
            return self.stats[name]
        if default is not None:
            return Decimal(default)
        raise RuleError("toolkit.creatures.unknown_stat", creature=self.id, value=name)

    def track(self, name: str) -> Track:
        """A track; ``toolkit.creatures.unknown_track`` if it has none by that name."""
        if name not in self.tracks:
            raise RuleError("toolkit.creatures.unknown_track", creature=self.id, value=name)
        return self.tracks[name]

    def tagged(self, name: str, detail: str | None = None) -> tuple[Tag, ...]:
        """The tags called ``name`` (and with ``detail``, if given)."""
        return tuple(
            tag
            for tag in self.tags
            if tag.name == name and (detail is None or tag.detail == detail)
        )

    def has_tag(self, name: str, detail: str | None = None) -> bool:
        """Whether the creature carries such a tag."""
        return bool(self.tagged(name, detail))

    def tag_total(self, name: str, detail: str | None = None) -> int:
        """The sum of the values of such tags (a tag without value counts 1)."""
        return sum(1 if tag.value is None else tag.value for tag in self.tagged(name, detail))


def _amount(amount: int) -> int:
    if amount < 0:
        raise RuleError("toolkit.creatures.bad_amount", value=amount)
    return amount


def _with_track(creature: Creature, name: str, track: Track) -> Creature:
    return creature.model_copy(update={"tracks": {**creature.tracks, name: track}})


def damage(creature: Creature, track: str, amount: int) -> Creature:
    """Lower ``track`` by ``amount`` (not below its floor); a negative amount is refused."""
    return _with_track(creature, track, creature.track(track).lowered(_amount(amount)))


def heal(creature: Creature, track: str, amount: int) -> Creature:
    """Raise ``track`` by ``amount`` (not above its maximum); a negative amount is refused."""
    return _with_track(creature, track, creature.track(track).raised(_amount(amount)))


def set_track(creature: Creature, track: str, value: int) -> Creature:
    """Set ``track`` to ``value``; ``toolkit.creatures.out_of_range`` outside floor..maximum."""
    old = creature.track(track)
    if not old.floor <= value <= old.maximum:
        raise RuleError(
            "toolkit.creatures.out_of_range",
            creature=creature.id,
            track=track,
            value=value,
            floor=old.floor,
            maximum=old.maximum,
        )
    return _with_track(creature, track, old.model_copy(update={"current": value}))


def hostile(a: Creature, b: Creature) -> bool:
    """Whether two creatures are foes: they stand on different sides."""
    return a.side != b.side


def visible_to(creature: Creature, viewer: Viewer) -> bool:
    """Whether ``viewer`` sees ``creature``: the GM always, its owner always, others unless secret.

    The owner is the participant in ``owner`` or whoever has the creature's id among its pieces.
    """
    if viewer.is_gm or not creature.secret:
        return True
    owned = creature.owner is not None and creature.owner == viewer.participant
    return owned or creature.id in viewer.pieces


def unnamed_viewer(creatures: Iterable[Creature], viewer: Viewer) -> Viewer:
    """``viewer`` without its participant id when :func:`visible_to` decides nothing by that
    id among ``creatures``: no secret creature is owned by it by name.

    What :func:`visible_to` decides is then the same for every participant of that role and
    pieces, so a system whose view reads the viewer only through :func:`visible_to` and the
    pieces may give all of them one view (see ``GameSystem.view_viewer``).
    """
    if viewer.is_gm or viewer.participant is None:
        return viewer
    if any(c.secret and c.owner == viewer.participant for c in creatures):
        return viewer
    return Viewer(viewer.role, None, viewer.pieces)


def visible_creatures(creatures: Iterable[Creature], viewer: Viewer) -> tuple[Creature, ...]:
    """The creatures ``viewer`` sees, in the given order."""
    return tuple(creature for creature in creatures if visible_to(creature, viewer))
