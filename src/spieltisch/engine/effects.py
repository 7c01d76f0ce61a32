"""Conditions and ongoing effects: levels, stacking, durations and ticks on phases.

What effects a game knows is data: a :class:`Catalog` of :class:`EffectKind` (loaded from a
dict or JSON with :func:`load_catalog`) gives each its highest level, its
:class:`Stacking` rule and an optional :class:`Tick` — an amount per level dealt on a phase
of the system's choosing, after which the level changes (HeXXen: 2 LeP per damage level in
the INI-0 phase, then one level less).

The effects on the table are one :class:`Effects` value. :func:`apply`, :func:`remove` and
:func:`tick` return new values; :func:`tick` also reports what happened
(:class:`TickReport`): the amounts dealt and the effects that ended, which the system turns
into its own events (damage to a track, a message).

A :class:`Duration` counts occurrences of one phase: ``n`` round ends, the start of someone's
next turn, the end of someone's next turn — or never (until removed). An effect ends exactly
at the marker that completes its count. A duration bound to the *end* of someone's turn counts
only turns that started after the effect was applied ("until the end of your next turn" cast
during your turn lasts through your next one).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from spieltisch.engine.encounter import Phase, PhaseEvent
from spieltisch.engine.errors import RuleError

__all__ = [
    "Catalog",
    "Duration",
    "Effect",
    "EffectKind",
    "Effects",
    "Stacking",
    "Tick",
    "TickReport",
    "TickResult",
    "apply",
    "change_level",
    "effects_with_tag",
    "level_of",
    "load_catalog",
    "remove",
    "remove_kind",
    "tick",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Stacking(StrEnum):
    """What applying an effect does when the target already has it."""

    REPLACE = "replace"
    """The new effect replaces the old one (level and duration)."""
    ADD = "add"
    """Levels add up to the kind's highest level; the new duration replaces the old."""
    HIGHEST = "highest"
    """The higher level stays; an equal or lower new level changes nothing."""
    INDEPENDENT = "independent"
    """Every application is its own instance with its own duration."""


class Tick(_Frozen):
    """What an effect does on a phase: an amount, then a change of its level.

    The amount is ``amount + per_level × level``. ``whose="target"`` ticks on turn phases only
    in the target's own turn; ``"any"`` on everyone's. Round phases always tick.
    """

    phase: str
    per_level: Decimal = Decimal(0)
    amount: Decimal = Decimal(0)
    level_change: int = 0
    whose: Literal["target", "any"] = "target"


class EffectKind(_Frozen):
    """One entry of a catalog: an effect or condition a game knows."""

    id: str = Field(min_length=1)
    max_level: int = Field(default=1, ge=1)
    stacking: Stacking = Stacking.REPLACE
    tick: Tick | None = None
    tags: tuple[str, ...] = ()
    """Free labels the system reads (``malus``, ``prevents_actions`` …)."""


class Catalog(_Frozen):
    """The effects of one game by id."""

    kinds: dict[str, EffectKind] = Field(default_factory=dict)

    def get(self, kind: str) -> EffectKind:
        """The kind with this id; ``toolkit.effects.unknown_effect`` otherwise."""
        if kind not in self.kinds:
            raise RuleError("toolkit.effects.unknown_effect", value=kind)
        return self.kinds[kind]


def load_catalog(data: Mapping[str, Any]) -> Catalog:
    """A catalog from data: effect id → its fields (``max_level``, ``stacking``, ``tick`` …).

    Raises ``toolkit.effects.bad_catalog`` naming the effect and the field at fault.
    """
    kinds: dict[str, EffectKind] = {}
    for key, spec in data.items():
        if not isinstance(spec, Mapping):
            raise RuleError("toolkit.effects.bad_catalog", effect=key, field="", value=repr(spec))
        try:
            kinds[key] = EffectKind.model_validate({"id": key, **spec})
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(part) for part in first["loc"])
            raise RuleError(
                "toolkit.effects.bad_catalog",
                effect=key,
                field=field,
                value=repr(first.get("input")),
            ) from None
    return Catalog(kinds=kinds)


class Duration(_Frozen):
    """How long an effect lasts: until ``count`` occurrences of ``phase`` (None: until removed).

    ``who`` binds a turn phase to one combatant's turns.
    """

    phase: str | None = None
    who: str | None = None
    count: int = Field(default=1, ge=1)

    @classmethod
    def rounds(cls, n: int, phase: str = Phase.ROUND_END) -> Duration:
        """``n`` rounds, the current one included: ends at the ``n``-th round end from now."""
        return cls(phase=phase, count=n)

    @classmethod
    def until_turn_start(cls, who: str) -> Duration:
        """Until the start of ``who``'s next turn."""
        return cls(phase=Phase.TURN_START, who=who)

    @classmethod
    def until_turn_end(cls, who: str) -> Duration:
        """Until the end of ``who``'s next turn (a turn that starts after applying)."""
        return cls(phase=Phase.TURN_END, who=who)

    @classmethod
    def until_removed(cls) -> Duration:
        """No end of its own: removed by the rules or a level falling to 0."""
        return cls()


class Effect(_Frozen):
    """One effect on one target."""

    id: int
    kind: str
    target: str
    level: int = 1
    source: str | None = None
    duration: Duration = Duration()
    remaining: int = 1
    """Occurrences of the duration's phase still to come."""
    armed: bool = True
    """Whether the duration counts yet (False until a bound turn starts, see the module)."""


class Effects(_Frozen):
    """All effects on the table."""

    items: tuple[Effect, ...] = ()
    next_id: int = 1

    def on(self, target: str) -> tuple[Effect, ...]:
        """The effects on ``target``."""
        return tuple(effect for effect in self.items if effect.target == target)

    def get(self, effect_id: int) -> Effect:
        """The effect with this id; ``toolkit.effects.unknown_instance`` otherwise."""
        for effect in self.items:
            if effect.id == effect_id:
                return effect
        raise RuleError("toolkit.effects.unknown_instance", value=effect_id)


class TickResult(_Frozen):
    """An effect's tick: the amount it dealt at the level it had."""

    effect: int
    kind: str
    target: str
    level: int
    amount: Decimal
    phase: str


class TickReport(_Frozen):
    """What a phase did to the effects: the ticks, and the effects that ended (as they were)."""

    ticks: tuple[TickResult, ...] = ()
    expired: tuple[Effect, ...] = ()


def _armed_from_start(duration: Duration) -> bool:
    return duration.who is None or duration.phase in (None, Phase.TURN_START)


def _new(
    effects: Effects, kind: str, target: str, level: int, source: str | None, duration: Duration
) -> Effect:
    return Effect(
        id=effects.next_id,
        kind=kind,
        target=target,
        level=level,
        source=source,
        duration=duration,
        remaining=duration.count,
        armed=_armed_from_start(duration),
    )


def apply(
    effects: Effects,
    catalog: Catalog,
    kind: str,
    target: str,
    *,
    level: int = 1,
    duration: Duration | None = None,
    source: str | None = None,
) -> tuple[Effects, Effect]:
    """Put an effect on ``target`` following its kind's stacking rule.

    Returns the effects and the instance that now holds the effect. Raises
    ``toolkit.effects.unknown_effect`` and ``toolkit.effects.bad_level`` (level outside
    1..max).
    """
    spec = catalog.get(kind)
    if not 1 <= level <= spec.max_level:
        raise RuleError("toolkit.effects.bad_level", effect=kind, value=level, max=spec.max_level)
    duration = duration or Duration()
    same = [e for e in effects.items if e.kind == kind and e.target == target]
    if same and spec.stacking is Stacking.HIGHEST and same[0].level >= level:
        return effects, same[0]
    if same and spec.stacking is Stacking.ADD:
        old = same[0]
        total = min(old.level + level, spec.max_level)
        merged = _new(effects, kind, target, total, source, duration)
        merged = merged.model_copy(update={"id": old.id})
        items = tuple(merged if e.id == old.id else e for e in effects.items)
        return effects.model_copy(update={"items": items}), merged
    fresh = _new(effects, kind, target, level, source, duration)
    kept = effects.items
    if spec.stacking is not Stacking.INDEPENDENT:
        kept = tuple(e for e in kept if not (e.kind == kind and e.target == target))
    new = effects.model_copy(update={"items": (*kept, fresh), "next_id": effects.next_id + 1})
    return new, fresh


def remove(effects: Effects, effect_id: int) -> Effects:
    """Remove one effect; ``toolkit.effects.unknown_instance`` if there is none by that id."""
    effects.get(effect_id)
    return effects.model_copy(
        update={"items": tuple(e for e in effects.items if e.id != effect_id)}
    )


def remove_kind(effects: Effects, kind: str, target: str) -> Effects:
    """Remove every instance of ``kind`` on ``target`` (none is fine)."""
    items = tuple(e for e in effects.items if not (e.kind == kind and e.target == target))
    return effects.model_copy(update={"items": items})


def change_level(
    effects: Effects, catalog: Catalog, effect_id: int, delta: int
) -> tuple[Effects, Effect | None]:
    """Raise or lower an effect's level (at most its kind's highest); at 0 it is removed.

    Returns the effects and the changed effect, or None if it was removed.
    """
    effect = effects.get(effect_id)
    level = min(effect.level + delta, catalog.get(effect.kind).max_level)
    if level <= 0:
        return remove(effects, effect_id), None
    changed = effect.model_copy(update={"level": level})
    items = tuple(changed if e.id == effect_id else e for e in effects.items)
    return effects.model_copy(update={"items": items}), changed


def level_of(effects: Effects, kind: str, target: str) -> int:
    """The highest level of ``kind`` on ``target`` (0 if it has none)."""
    return max((e.level for e in effects.items if e.kind == kind and e.target == target), default=0)


def _concerns(event: PhaseEvent, phase: str, who: str | None) -> bool:
    if event.phase != phase:
        return False
    return who is None or event.combatant is None or event.combatant == who


def tick(effects: Effects, catalog: Catalog, event: PhaseEvent) -> tuple[Effects, TickReport]:
    """Let one phase marker act on every effect: ticks first, then durations.

    A tick deals its amount at the current level and then changes the level; an effect whose
    level falls to 0 ends. A duration counts the marker if it is its phase (and, when bound to
    someone, that one's turn); it ends at the last count.
    """
    ticks: list[TickResult] = []
    expired: list[Effect] = []
    kept: list[Effect] = []
    for effect in effects.items:
        rule = catalog.get(effect.kind).tick
        if rule is not None and _concerns(
            event, rule.phase, effect.target if rule.whose == "target" else None
        ):
            amount = rule.amount + rule.per_level * effect.level
            ticks.append(
                TickResult(
                    effect=effect.id,
                    kind=effect.kind,
                    target=effect.target,
                    level=effect.level,
                    amount=amount,
                    phase=event.phase,
                )
            )
            if rule.level_change:
                level = min(effect.level + rule.level_change, catalog.get(effect.kind).max_level)
                if level <= 0:
                    expired.append(effect)
                    continue
                effect = effect.model_copy(update={"level": level})
        duration = effect.duration
        if duration.phase is not None:
            if (
                not effect.armed
                and event.phase == Phase.TURN_START
                and event.combatant == duration.who
            ):
                effect = effect.model_copy(update={"armed": True})
            if effect.armed and _concerns(event, duration.phase, duration.who):
                if effect.remaining <= 1:
                    expired.append(effect)
                    continue
                effect = effect.model_copy(update={"remaining": effect.remaining - 1})
        kept.append(effect)
    report = TickReport(ticks=tuple(ticks), expired=tuple(expired))
    return effects.model_copy(update={"items": tuple(kept)}), report


def effects_with_tag(
    effects: Effects, catalog: Catalog, target: str, tag: str
) -> tuple[Effect, ...]:
    """The effects on ``target`` whose kind carries ``tag``."""
    return tuple(e for e in effects.on(target) if tag in catalog.get(e.kind).tags)
