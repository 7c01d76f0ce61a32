"""The data of a HeXXen table: options, hunters, NSC, their stat lines and the state."""

from __future__ import annotations

import json
import re
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StrictBool,
    StrictInt,
    model_serializer,
    model_validator,
)

from spieltisch.engine.creatures import Track
from spieltisch.engine.economy import Budgets
from spieltisch.engine.effects import Catalog, Effects, load_catalog
from spieltisch.engine.encounter import Encounter
from spieltisch.engine.grid import Grid
from spieltisch.engine.system import Discovery, exact_int
from spieltisch.engine.text import Ref

__all__ = [
    "ATTRIBUTES",
    "RESOURCES",
    "AttackLine",
    "Binding",
    "Decay",
    "DiceUse",
    "Die",
    "HexxenOptions",
    "HexxenState",
    "Hunter",
    "LastRoll",
    "Npc",
    "NpcKind",
    "PendingAttack",
    "PerDifference",
    "PowerLine",
    "Range",
    "Trait",
    "base_effect",
    "bound_with",
    "catalog",
    "decay_of",
    "default_skills",
    "effect_id",
    "effect_kind",
    "handlungen_of",
    "is_bound",
    "property_catalog",
    "targets_of_note",
    "trait_of",
]

ATTRIBUTES: tuple[str, ...] = ("KKR", "ATH", "GES", "SIN", "WIS", "WIL")
"""The six attributes of hunters and NSC."""

RESOURCES: tuple[str, ...] = ("ideen", "coups", "esprit")
"""A hunter's resources."""

_DATA = Path(__file__).parent / "data"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    _added: ClassVar[frozenset[str]] = frozenset()
    """Fields added after tables were recorded: left out of the JSON while they hold their
    default, so an event of a table made before dumps exactly as it was recorded."""

    @model_serializer(mode="wrap")
    def _without_added_defaults(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if self._added and isinstance(data, dict):
            fields = type(self).model_fields
            for name in self._added:
                if name in data and getattr(self, name) == fields[name].get_default(
                    call_default_factory=True
                ):
                    del data[name]
        return data


class Decay(_Frozen):
    """How an ongoing effect loses its levels in the INI-0 phase."""

    mode: Literal["auto", "check", "none"] = "none"
    """``auto``: one level a round; ``check``: an Abbau check a round; ``none``: until removed."""
    skill: Ref | None = None
    """The skill a hunter rolls for the Abbau check (an NSC rolls its attribute)."""
    per_success: StrictBool = True
    """Each success of the Abbau check removes a level (else one level on any success)."""


def _default_decay() -> dict[str, Decay]:
    return {
        "outer_damage": Decay(mode="auto"),
        "inner_damage": Decay(mode="auto"),
        "malus": Decay(mode="none"),
        "paralysis": Decay(mode="none"),
        "Furcht": Decay(mode="check", skill="Geistesstärke"),
    }


class HexxenOptions(_Frozen):
    """The table options: every default the rules leave open (see docs/games/hexxen.md)."""

    max_pool: StrictInt = Field(default=10, ge=1, le=30)
    """Most HeXXen dice a hunter's check rolls (attribute + skill, capped)."""
    stars_count: StrictBool = False
    """House rule: every 2 Espritsterne of a hunter add 1 success."""
    discovery: Discovery = "table"
    """Who is shown a secret NSC a hunter's ``place`` runs into (contact): the table, or
    that hunter's player alone (``"player"``; see ``docs/table-api.md``, "Contact")."""
    edition: Annotated[Literal[1, 2, 3], BeforeValidator(exact_int)] = 3
    """How the table reads the rules where an earlier release read them otherwise: ``3`` the
    seed's reading with Blut- and Elixierwürfel that act and NSC properties applied (the
    default); ``2`` that reading before (an Elixierwürfel on an attack line only reported,
    properties only names); ``1`` the reading of tables made before it (their stored
    options lack this field, see :meth:`.system.Hexxen.upgrade_options`): an effect word the
    table cannot apply is only reported, a ``Bandenstufe`` line is taken in any Wertekasten,
    a power takes any number of targets, an NSC without attributes defends a comparative
    check with its strongest attack's dice, a bound NSC's melee line hits any hunter, and a
    power's ``[tag]`` is not kept."""
    max_janus: StrictInt = Field(default=5, ge=1, le=10)
    """Most bonus and most malus of a check (``modifier_cap``), so most Janus dice."""
    modifier_cap: Literal["each_side", "net"] = "each_side"
    """``each_side``: every source of bonus adds up and is capped at ``max_janus``, so is every
    source of malus, then both are netted (the seed); ``net``: everything is netted first and
    the net is capped (the reading of tables made before)."""
    base_ap: StrictInt = Field(default=6, ge=0, le=20)
    """A hunter's Ap per round before Lähmungsstufen."""
    ap_minus_armour: StrictBool = False
    """Subtract the hunter's armour from his Ap per round (as a published sheet does)."""
    defense_ap: StrictInt = Field(default=1, ge=0, le=6)
    """Ap a defensive reaction (parry, dodge) costs."""
    hit_threshold: StrictInt = Field(default=1, ge=1, le=10)
    """Net successes an attack needs after the defence to hit."""
    damage_offset: StrictInt = Field(default=0, ge=-10, le=10)
    """LeP lost = Schaden + net successes + this (default 0, the published rule; −1 is the
    reading of tables made before), minus armour."""
    armour_reduces: StrictBool = True
    """Armour is subtracted from the LeP an attack costs."""
    max_level: StrictInt = Field(default=5, ge=1, le=10)
    """Highest level of an ongoing effect."""
    damage_per_level: StrictInt = Field(default=2, ge=0, le=10)
    """LeP outer and inner damage deal per level in the INI-0 phase."""
    lep_base: StrictInt = Field(default=7, ge=0, le=30)
    """Hunter's LeP = this + KKR + WIL (+ Unempfindlichkeit)."""
    lep_floor: StrictInt = Field(default=-10, ge=-50, le=0)
    """How low a hunter's LeP may fall."""
    npc_handlungen: StrictInt = Field(default=1, ge=1, le=10)
    """An NSC's Handlungen per round when its stat block names none."""
    decay: dict[Ref, Decay] = Field(default_factory=_default_decay, max_length=40)
    """How ongoing effects lose levels at INI 0, by tag (``Furcht``) or by kind (``malus``);
    a tag's rule wins over its kind's. Default: damage −1 a round, Malus- and Lähmungsstufen
    until removed, ``[Furcht]`` by an Abbau check with Geistesstärke."""
    binding_from_map: StrictBool = True
    """Two opposing tokens on neighbouring squares of the battle map are bound (gebunden) —
    unless the GM set that pair otherwise; tables made before read only ``set_bound``."""
    ini_roll: StrictBool = False
    """House rule for ``start_fight`` with ``roll_ini``: INI + 1d6 (the seed rolls no INI)."""


class Range(StrEnum):
    """Nahkampf (only when bound) or Fernkampf (only when free)."""

    N = "N"
    F = "F"


def handlungen_of(line: AttackLine | PowerLine, usage: Range) -> int:
    """The Handlungen a line costs used in melee (``N``) or at range (``F``): ``NN`` two."""
    return line.handlungen.get(usage, 1)


Die = Literal["blood", "elixir"]
"""A special die: Blutwürfel (drops 0, 1, 1, 2, 2, 3) or Elixierwürfel (1, 2, 3, 4, 5, 3)."""


class DiceUse(_Frozen):
    """Blut- or Elixierwürfel a line rolls, and what the number they show gives."""

    die: Die
    count: int = Field(ge=1, le=99)
    effect: str | None = None
    """The effect words as written (``innerer Schaden``): that many levels of the ongoing
    effect, or LeP for ``Schaden``; ``None``: the number adds to the attack's damage."""
    tag: str | None = None
    """The condition's name (``[Gift]``)."""
    source: str | None = None
    """The property the dice come from (``Giftig``), ``None`` for the line's own."""


class AttackLine(_Frozen):
    """``(N) Klauenhieb Angriff 10, Schaden 3``: an NSC's attack."""

    _added = frozenset({"handlungen", "dice"})

    name: str
    range: tuple[Range, ...]
    attack: int = Field(ge=0, le=99)
    damage: int = Field(ge=0, le=99)
    blood: int = Field(default=0, ge=0, le=99)
    elixir: int = Field(default=0, ge=0, le=99)
    handlungen: dict[Range, int] = Field(default_factory=dict)
    """Handlungen per use where more than one (``(NN)``: two in melee)."""
    dice: tuple[DiceUse, ...] = ()
    """Blut- or Elixierwürfel whose number gives levels of an effect on a hit
    (``, 1 Blutwürfel innerer Schaden [Gift]``)."""


class PerDifference(_Frozen):
    """What each Differenzerfolg of a comparative check does — or, with ``die``, what the
    number of ``amount`` such dice gives each target the NSC is ahead of."""

    _added = frozenset({"die"})

    amount: int = Field(ge=0, le=99)
    effect: str
    tag: str | None = None
    die: Die | None = None
    """``1 Elixierwürfel Malusstufen``: the effect's amount is the number the dice show,
    rolled for each target the NSC is ahead of (not multiplied by the Differenzerfolge)."""


class PowerLine(_Frozen):
    """A Handlungskraft: a comparative check against a hunter's skill, paid with Hex."""

    _added = frozenset({"handlungen"})

    @property
    def max_targets(self) -> int | None:
        """How many targets the power takes: any number for ``(Gruppe)``, ``n`` for a note
        ``(1–n Ziele)``, else one (``None``: any number)."""
        return targets_of_note(self.note)

    name: str
    range: tuple[Range, ...]
    dice: int = Field(ge=0, le=99)
    against: str
    per_difference: PerDifference
    hex: int = Field(ge=0, le=99)
    hex_per_target: bool = False
    note: str | None = None
    handlungen: dict[Range, int] = Field(default_factory=dict)
    """Handlungen per use where more than one (``NN|F``: two in melee, one at range)."""


class NpcKind(StrEnum):
    """Anführer (level As, open-ended) or Bande (level 1–3)."""

    ANFUEHRER = "anfuehrer"
    BANDE = "bande"


TraitRule = Literal["heal", "attack_dice", "immune", "check_bonus", "hex_growth"]
"""What a known property does (``data/properties.json``)."""


class Trait(_Frozen):
    """An NSC property (Eigenschaft) as the table reads it: its text as written and, for a
    property of the catalogue (``data/properties.json``), what it does."""

    text: str
    name: str
    does: TraitRule | None = None
    """``None``: unknown to the table, shown and not applied."""
    count: int = 0
    """Dice it rolls, bonus or Hex it gives (a number after the name overrides the default)."""
    die: Die | None = None
    effect: str | None = None
    """The effect words its dice give (``innerer Schaden``) or it is immune to (a tag such as
    ``Furcht`` or effect words such as ``Malusstufen``)."""
    tag: str | None = None


class Npc(_Frozen):
    """An NSC with its Wertekasten and its state in the fight."""

    _added = frozenset({"attributes", "pool", "hex_growth", "hex_growth_per_jz", "traits"})

    id: str
    name: str
    kind: NpcKind
    level: int
    lep: Track
    ini: int = 0
    hex: Track = Track(current=0, maximum=0)
    hex_per_jz: bool = False
    lep_per_jz: bool = False
    handlungen: int = 1
    widernatuerlich: bool = False
    properties: tuple[str, ...] = ()
    attacks: tuple[AttackLine, ...] = ()
    powers: tuple[PowerLine, ...] = ()
    bound: bool = False
    """Gebunden (in melee) or freistehend."""
    bonus: int = 0
    malus: int = 0
    """A malus that applies to every check of this NSC (besides its Malusstufen)."""
    secret: bool = False
    attributes: dict[str, int] = Field(default_factory=dict)
    """KKR, ATH, GES, SIN, WIS, WIL as the Wertekasten gives them: an Anführer's checks."""
    pool: int | None = None
    """A Bande's fixed dice pool for its checks (``Würfelpool 6``)."""
    hex_growth: int = 0
    """Hex the NSC gains in every INI-0 phase (``Hex +1 pro Runde``)."""
    hex_growth_per_jz: bool = False
    traits: tuple[Trait, ...] = ()
    """Its properties as the table reads them (edition 3; before, ``properties`` alone)."""


class Hunter(_Frozen):
    """A Jäger: attributes, skills, derived values, resources and his state in the fight."""

    id: str
    name: str
    attributes: dict[str, int]
    skills: dict[str, int]
    skill_attributes: dict[str, str]
    """Skill → the attribute whose value joins it in a check."""
    armour: int = 0
    unempfindlichkeit: int = 0
    reflexe: int = 0
    lep: Track
    ini: int
    ideen: int = 0
    coups: int = 0
    esprit: int = 0
    bonus: int = 0
    malus: int = 0
    bound: bool = False


class LastRoll(_Frozen):
    """The last check of the table, for the view."""

    kind: str
    actor: str
    detail: dict[str, Any]


class PendingAttack(_Frozen):
    """An attack an NSC declared; it is rolled when the hunter has chosen his defence."""

    npc: str
    attack: str
    target: str
    bonus: int = 0
    malus: int = 0


class Binding(_Frozen):
    """The GM's (or a hunter's player's) word on one pair: bound with each other or not."""

    a: str
    b: str
    bound: bool


class HexxenState(_Frozen):
    """The folded state of a HeXXen table."""

    _added = frozenset({"bindings"})

    @model_validator(mode="before")
    @classmethod
    def _edition_known(cls, data: Any) -> Any:
        # A snapshot written before the options had an edition was folded with the reading of
        # its time; refusing it makes the store fold the log again with the upgraded options.
        options = data.get("options") if isinstance(data, dict) else None
        if isinstance(options, dict) and "edition" not in options:
            raise ValueError("a snapshot from before the rules edition: fold again")
        return data

    options: HexxenOptions = HexxenOptions()
    hunters: dict[str, Hunter] = Field(default_factory=dict)
    npcs: dict[str, Npc] = Field(default_factory=dict)
    encounter: Encounter | None = None
    budgets: dict[str, Budgets] = Field(default_factory=dict)
    effects: Effects = Effects()
    last: LastRoll | None = None
    checks: int = 0
    """How many checks were rolled at this table."""
    pending: PendingAttack | None = None
    """The attack waiting for the hunter's defence."""
    grid: Grid = Grid(width=12, height=8)
    """The battle map."""
    positions: dict[str, str] = Field(default_factory=dict)
    """Hunter or NSC id → the square of its token."""
    bindings: tuple[Binding, ...] = ()
    """Pairs set bound or free by command (they win over the map)."""


@cache
def _data() -> dict[str, Any]:
    with (_DATA / "effects.json").open(encoding="utf-8") as handle:
        loaded: dict[str, Any] = json.load(handle)
    return loaded


@cache
def default_skills() -> dict[str, str]:
    """The default skill list: skill → attribute (data/skills.json)."""
    with (_DATA / "skills.json").open(encoding="utf-8") as handle:
        loaded: dict[str, str] = json.load(handle)
    return loaded


@cache
def property_catalog() -> dict[str, dict[str, Any]]:
    """The properties the table knows and what each does (data/properties.json)."""
    with (_DATA / "properties.json").open(encoding="utf-8") as handle:
        loaded: dict[str, dict[str, Any]] = json.load(handle)
    return loaded


_TRAIT = re.compile(r"^(?P<name>[^\d(]+?)\s*(?P<count>\d+)?\s*(?:\((?P<note>[^)]*)\))?$")


def trait_of(text: str) -> Trait:
    """A property item (``Regeneration 2``, ``Giftig (Biss)``) as the table reads it: the
    catalogue's rule for its name (case-insensitive), a number after the name overriding its
    count; an unknown name is kept as text (``does`` is ``None``)."""
    found = _TRAIT.match(text.strip())
    name = found.group("name").strip() if found else text.strip()
    known = {key.lower(): key for key in property_catalog()}
    key = known.get(name.lower())
    if key is None:
        return Trait(text=text, name=name)
    rule = property_catalog()[key]
    count = int(found.group("count")) if found and found.group("count") else rule.get("count", 0)
    return Trait(
        text=text,
        name=key,
        does=rule["does"],
        count=count,
        die=rule.get("die"),
        effect=rule.get("effect"),
        tag=rule.get("tag"),
    )


def effect_id(base: str, tag: str | None) -> str:
    """The id of an ongoing effect on the table: its kind, with its tag (``malus[Furcht]``)."""
    return f"{base}[{tag}]" if tag else base


def base_effect(kind: str) -> tuple[str, str | None]:
    """``(kind, tag)`` of an effect id (see :func:`effect_id`)."""
    if kind.endswith("]") and "[" in kind:
        base, tag = kind[:-1].split("[", 1)
        return base, tag
    return kind, None


def decay_of(options: HexxenOptions, kind: str) -> Decay:
    """How the effect ``kind`` loses levels: its tag's rule, else its kind's."""
    base, tag = base_effect(kind)
    if tag and tag in options.decay:
        return options.decay[tag]
    return options.decay.get(base, Decay())


@cache
def _catalog(max_level: int, per_level: int, kinds: tuple[tuple[str, str], ...]) -> Catalog:
    base = _data()["catalog"]
    data: dict[str, Any] = {}
    for kind, mode in kinds:
        entry = json.loads(json.dumps(base[base_effect(kind)[0]]))
        entry["max_level"] = max_level
        tick = entry.get("tick")
        if tick is not None:
            tick["per_level"] = per_level
            tick["level_change"] = -1 if mode == "auto" else 0
        elif mode == "auto":
            entry["tick"] = {"phase": "ini0", "level_change": -1, "whose": "any"}
        data[kind] = entry
    return load_catalog(data)


def catalog(options: HexxenOptions, kinds: tuple[str, ...] = ()) -> Catalog:
    """The ongoing effects (data/effects.json) with the table's level cap, damage per level
    and decay: the four kinds and every tagged one in ``kinds``."""
    wanted = sorted({*_data()["catalog"], *kinds})
    modes = tuple((kind, decay_of(options, kind).mode) for kind in wanted)
    return _catalog(options.max_level, options.damage_per_level, modes)


def effect_kind(word: str, edition: int = 2) -> str | None:
    """The effect a power's ``per_difference.effect`` names: an effect id, ``"lep"`` for
    plain LeP damage, or ``None`` when the word is no rule of the table (refused when the NSC
    is created; edition 1 only reports it, with the word list of its time)."""
    key = "effect_words" if edition >= 2 else "effect_words_edition_1"
    words: dict[str, str] = _data()[key]
    return words.get(" ".join(word.strip().lower().split()))


EffectTarget = Literal["hunter", "npc"]


def targets_of_note(note: str | None) -> int | None:
    """The number of targets a power's note allows (see :attr:`PowerLine.max_targets`)."""
    text = (note or "").strip().lower()
    if "gruppe" in text:
        return None
    found = re.search(r"(\d+)\s*[-–]\s*(\d+)\s*ziel", text) or re.search(r"(\d+)()\s*ziel", text)
    if found:
        return max(int(found.group(1)), int(found.group(2) or 0))
    return 1


def _adjacent(a: str, b: str) -> bool:
    ax, ay, bx, by = _xy(a) + _xy(b)
    return (ax, ay) != (bx, by) and max(abs(ax - bx), abs(ay - by)) <= 1


def _xy(square: str) -> tuple[int, int]:
    from spieltisch.engine.grid import parse_square

    found = parse_square(square)
    return found.x, found.y


def bound_with(state: HexxenState, who: str) -> set[str]:
    """Everyone ``who`` is bound with: the pairs set by command, and — with
    ``binding_from_map`` — the opposing tokens on neighbouring squares not set free."""
    said: dict[str, bool] = {}
    for pair in state.bindings:
        if who in (pair.a, pair.b):
            said[pair.b if pair.a == who else pair.a] = pair.bound
    found = {other for other, bound in said.items() if bound}
    at = state.positions.get(who)
    if state.options.binding_from_map and at is not None:
        hunter = who in state.hunters
        for other, square in state.positions.items():
            opposing = (other in state.npcs) if hunter else (other in state.hunters)
            if opposing and other not in said and _adjacent(at, square):
                found.add(other)
    return found


def is_bound(state: HexxenState, who: str) -> bool:
    """Gebunden: bound with someone, or flagged bound by ``set_bound`` without a partner."""
    piece = state.hunters.get(who) or state.npcs.get(who)
    return bool(piece is not None and piece.bound) or bool(bound_with(state, who))
