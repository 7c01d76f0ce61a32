"""The events of a HeXXen table: what happened, with every die rolled (as d6 values)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from spieltisch.engine.encounter import Start
from spieltisch.systems.hexxen.sheet import Die, Hunter, Npc, PendingAttack, _Frozen

__all__ = [
    "EVENTS",
    "AbbauResult",
    "AttackDeclared",
    "AttackRolled",
    "BoundSet",
    "CheckRolled",
    "ContestRolled",
    "DiceRolled",
    "EffectApplied",
    "EffectRemoved",
    "EffectTicked",
    "Event",
    "FightEnded",
    "FightStarted",
    "HexGained",
    "HunterCreated",
    "HunterEdited",
    "LepChanged",
    "MapSet",
    "ModifierSet",
    "NpcCheckRolled",
    "NpcCreated",
    "NpcRevealed",
    "Placed",
    "PowerUsed",
    "Regenerated",
    "ResourceChanged",
    "Roll",
    "SkillSet",
    "TargetResult",
    "TurnAdvanced",
]


class _Event(_Frozen):
    pass


class Roll(_Event):
    """One netted check: HeXXen dice (``H`` hunter, ``M`` GM), Janus dice, the result."""

    die: Literal["H", "M"]
    dice: tuple[int, ...]
    janus: tuple[int, ...] = ()
    bonus: int = 0
    malus: int = 0
    net: int = 0
    successes: int
    stars: int = 0
    janus_symbols: int = 0
    total: int


class HunterCreated(_Event):
    """A hunter joined the table."""

    kind: Literal["hunter_created"] = "hunter_created"
    hunter: Hunter


class HunterEdited(_Event):
    """A hunter's sheet was corrected: the whole new sheet (LeP and INI derived again)."""

    kind: Literal["hunter_edited"] = "hunter_edited"
    hunter: Hunter


class SkillSet(_Event):
    """A skill got a new value."""

    kind: Literal["skill_set"] = "skill_set"
    hunter: str
    skill: str
    value: int
    attribute: str


class NpcCreated(_Event):
    """An NSC entered, with its parsed Wertekasten."""

    kind: Literal["npc_created"] = "npc_created"
    npc: Npc


class BoundSet(_Event):
    """Gebunden or freistehend: a flag, or with ``other`` the pair; ``freed``: the pairs a
    flag set to free ended (so the map does not bind them again)."""

    _added = frozenset({"other", "freed"})

    kind: Literal["bound_set"] = "bound_set"
    target: str
    bound: bool
    other: str | None = None
    freed: tuple[str, ...] = ()


class ModifierSet(_Event):
    """A lasting bonus and malus."""

    kind: Literal["modifier_set"] = "modifier_set"
    target: str
    bonus: int
    malus: int


class EffectApplied(_Event):
    """An ongoing effect was given (or raised)."""

    kind: Literal["effect_applied"] = "effect_applied"
    target: str
    effect: str
    level: int
    source: str | None = None


class EffectRemoved(_Event):
    """An ongoing effect ended."""

    kind: Literal["effect_removed"] = "effect_removed"
    target: str
    effect: str


class LepChanged(_Event):
    """LeP lost (negative) or regained."""

    kind: Literal["lep_changed"] = "lep_changed"
    target: str
    amount: int


class ResourceChanged(_Event):
    """Ideen, Coups or Esprit spent or gained."""

    kind: Literal["resource_changed"] = "resource_changed"
    hunter: str
    resource: str
    delta: int


class FightStarted(_Event):
    """A fight began: the encounter step, and Jz."""

    kind: Literal["fight_started"] = "fight_started"
    step: Start
    jz: int


class AbbauResult(_Event):
    """An Abbau check in the INI-0 phase: who rolled against which effect, the levels gone."""

    target: str
    effect: str
    roll: Roll
    removed: int


class TurnAdvanced(_Event):
    """A turn ended; budgets refresh and effects tick by the markers that follow. The Abbau
    checks of the INI-0 phase ride along, so their levels fall before the next round's Ap."""

    _added = frozenset({"abbau"})

    kind: Literal["turn_advanced"] = "turn_advanced"
    abbau: tuple[AbbauResult, ...] = ()


class EffectTicked(_Event):
    """An ongoing effect acted in its phase: the LeP it cost (the level falls in the
    :class:`TurnAdvanced` before it)."""

    kind: Literal["effect_ticked"] = "effect_ticked"
    target: str
    effect: str
    level: int
    amount: int
    phase: str
    round: int


class FightEnded(_Event):
    """The fight ended; the hunters' Ap are refilled (``refilled``: hunter → Ap)."""

    _added = frozenset({"refilled"})

    kind: Literal["fight_ended"] = "fight_ended"
    refilled: dict[str, int] = Field(default_factory=dict)


class HexGained(_Event):
    """An NSC gained (or lost) Hex: the GM's doing (``gm``) or its growth at INI 0."""

    kind: Literal["hex_gained"] = "hex_gained"
    npc: str
    amount: int
    reason: Literal["gm", "growth"] = "gm"
    round: int | None = None


class NpcCheckRolled(_Event):
    """An NSC's check on an attribute (Anführer) or its fixed pool (Bande), optionally
    comparative against a hunter's skill."""

    kind: Literal["npc_check_rolled"] = "npc_check_rolled"
    number: int
    npc: str
    attribute: str | None
    dice: int
    roll: Roll
    hunter: str | None = None
    skill: str | None = None
    hunter_roll: Roll | None = None
    margin: int | None = None
    handlungen: int = 0


class CheckRolled(_Event):
    """A hunter's check and what it cost."""

    kind: Literal["check_rolled"] = "check_rolled"
    number: int
    hunter: str
    skill: str
    attribute: str
    pool: int
    roll: Roll
    ap: int = 0
    ideen: int = 0
    coups: int = 0


class ContestRolled(_Event):
    """A hunter's comparative check against an NSC."""

    _added = frozenset({"npc_attribute"})

    kind: Literal["contest_rolled"] = "contest_rolled"
    number: int
    hunter: str
    skill: str
    attribute: str
    npc: str
    roll: Roll
    npc_roll: Roll
    margin: int
    ap: int = 0
    ideen: int = 0
    coups: int = 0
    npc_attribute: str | None = None
    """What the NSC rolled: its attribute, ``pool`` (a Bande) or ``None`` (given dice or,
    edition 1, its strongest attack)."""


class DiceRolled(_Event):
    """Blut- or Elixierwürfel a line or a property rolled: the d6 values, the number they
    show, and what it gave (``lep``: damage, or the ongoing effect given that many levels)."""

    die: Die
    dice: tuple[int, ...]
    value: int
    effect: str
    source: str | None = None
    """The property they came from (``Giftig``), ``None`` for the line's own."""


class AttackRolled(_Event):
    """An NSC's attack: its roll, the hunter's reaction, the hit and the LeP lost."""

    _added = frozenset({"handlungen", "special"})

    kind: Literal["attack_rolled"] = "attack_rolled"
    number: int
    npc: str
    attack: str
    target: str
    roll: Roll
    defense: Literal["none", "parry", "dodge"] = "none"
    defense_skill: str | None = None
    defense_roll: Roll | None = None
    defense_ap: int = 0
    margin: int
    hit: bool
    blood: tuple[int, ...] = ()
    drops: int = 0
    elixir: tuple[int, ...] = ()
    lep_lost: int = 0
    handlungen: int = 1
    special: tuple[DiceRolled, ...] = ()
    """Edition 3: every Blut- and Elixierwürfel of the hit (the line's and its properties');
    their damage is in ``lep_lost``, their levels are given to the target. Before, ``blood``
    and ``elixir`` (reported only)."""


class AttackDeclared(_Event):
    """An NSC declared an attack; the hunter is asked for his defence."""

    kind: Literal["attack_declared"] = "attack_declared"
    pending: PendingAttack


class Placed(_Event):
    """A token stands on a new square."""

    kind: Literal["placed"] = "placed"
    target: str
    to: str


class MapSet(_Event):
    """The battle map got a new size."""

    kind: Literal["map_set"] = "map_set"
    width: int
    height: int


class TargetResult(_Event):
    """One target of a Handlungskraft: his roll and what the Differenzerfolge did."""

    _added = frozenset({"dice"})

    hunter: str
    roll: Roll
    margin: int
    effect: str | None
    """The ongoing effect given (``lep`` for plain LeP damage; ``None`` when the effect is
    only reported or the NSC was not ahead)."""
    amount: int
    dice: tuple[int, ...] = ()
    """The d6 values of the Blut- or Elixierwürfel whose number is ``amount`` (a power
    ``1 Elixierwürfel Malusstufen``), rolled when the NSC is ahead."""


class PowerUsed(_Event):
    """An NSC's Handlungskraft: its roll, the Hex paid and each target's result."""

    _added = frozenset({"handlungen"})

    kind: Literal["power_used"] = "power_used"
    number: int
    npc: str
    power: str
    roll: Roll
    hex: int
    results: tuple[TargetResult, ...]
    handlungen: int = 1


class Regenerated(_Event):
    """An NSC's healing property (``Regeneration``) acted in the INI-0 phase: the dice, the
    number they show and the LeP it regains (never above its maximum)."""

    kind: Literal["regenerated"] = "regenerated"
    npc: str
    property: str
    die: Die
    dice: tuple[int, ...]
    value: int
    lep: int
    round: int


class NpcRevealed(_Event):
    """A secret NSC became visible: a hunter's token met it (contact). Carries the NSC as it
    is now and its square, all the shared fold needs to show it."""

    kind: Literal["npc_revealed"] = "npc_revealed"
    npc: Npc
    at: str | None = None
    by: str | None = None
    """The hunter whose move met it."""


Event = Annotated[
    HunterCreated
    | SkillSet
    | NpcCreated
    | BoundSet
    | ModifierSet
    | EffectApplied
    | EffectRemoved
    | LepChanged
    | ResourceChanged
    | FightStarted
    | TurnAdvanced
    | EffectTicked
    | FightEnded
    | CheckRolled
    | ContestRolled
    | AttackRolled
    | PowerUsed
    | HunterEdited
    | AttackDeclared
    | Placed
    | MapSet
    | HexGained
    | NpcCheckRolled
    | NpcRevealed
    | Regenerated,
    Field(discriminator="kind"),
]
"""Any HeXXen event."""

EVENTS: TypeAdapter[Event] = TypeAdapter(Event)
"""Parses and dumps HeXXen events."""
