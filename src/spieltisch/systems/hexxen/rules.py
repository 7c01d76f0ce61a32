"""The rules of HeXXen 1733 as small pure functions: dice faces, netting, checks, outcomes.

Every number a rule needs and the text leaves open is a table option
(:class:`.sheet.HexxenOptions`); the functions here take it as an argument. Nothing here rolls:
:mod:`.decide` draws plain d6 values and these functions read them through the face tables of
:mod:`spieltisch.dice.faces`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from spieltisch.dice.faces import symbol_die
from spieltisch.engine.errors import RuleError
from spieltisch.systems.hexxen.sheet import (
    AttackLine,
    DiceUse,
    Die,
    HexxenOptions,
    Trait,
    base_effect,
    effect_id,
    effect_kind,
)

__all__ = [
    "DIE_LETTERS",
    "CheckResult",
    "DiceUse",
    "attack_damage",
    "attack_dice",
    "blood_drops",
    "check_result",
    "check_value",
    "derived_ini",
    "derived_lep",
    "dice_value",
    "elixir_values",
    "hits",
    "immune_to",
    "janus_count",
    "net_modifier",
    "round_ap",
    "trait_bonus",
    "trait_growth",
    "trait_heal",
    "use_effect",
]

MAX_MODIFIER = 5
"""A bonus or a malus is 0 to 5 (a malus is written −1 … −5)."""


def check_value(field: str, value: int, low: int, high: int) -> int:
    """``value`` if it lies in ``low..high``, else :class:`RuleError` ``hexxen.bad_value``."""
    if not low <= value <= high:
        raise RuleError("hexxen.bad_value", field=field, value=value, low=low, high=high)
    return value


def net_modifier(bonus: int, malus: int, options: HexxenOptions) -> int:
    """Bonus and malus netted before the roll (``bonus`` and ``malus`` are the sums of every
    source, each ≥ 0).

    The seed: a bonus is +1 … +5, a malus −1 … −5, then the two are netted. So each side is
    capped at ``max_janus`` first and the capped values are netted (``modifier_cap`` =
    ``each_side``): bonus 4 against malus 5 + 3 is 4 − 5 = −1. Tables made before read it the
    other way round (``net``): 4 − 8 = −4, capped at ``max_janus``.
    """
    cap = options.max_janus
    if options.modifier_cap == "net":
        return max(-cap, min(cap, bonus - malus))
    return min(bonus, cap) - min(malus, cap)


def _symbols(letter: str, rolls: Sequence[int]) -> dict[str, int]:
    kind = symbol_die(letter)
    counts: dict[str, int] = {}
    for roll in rolls:
        face = kind.face(roll)
        assert not isinstance(face, int)
        for key, count in face.items():
            counts[key] = counts.get(key, 0) + count
    return counts


def hits(rolls: Sequence[int], *, gm: bool) -> tuple[int, int]:
    """``(successes, stars)`` of HeXXen dice given as d6 rolls.

    For the GM (``gm``: the ``M`` die) every symbol is a success and no star is left over.
    """
    counts = _symbols("M" if gm else "H", rolls)
    return counts.get("successes", 0), counts.get("stars", 0)


def janus_count(rolls: Sequence[int]) -> int:
    """How many Janus symbols the Janus dice (given as d6 rolls) show."""
    return _symbols("J", rolls).get("janus", 0)


def blood_drops(rolls: Sequence[int]) -> int:
    """The drops the Blut dice (given as d6 rolls) show."""
    return _symbols("B", rolls).get("drops", 0)


@dataclass(frozen=True)
class CheckResult:
    """One netted check: the symbols of the dice and what they add up to."""

    successes: int
    """Successes of the HeXXen dice alone (for the GM: every symbol)."""
    stars: int
    """Espritsterne (hunters only; the GM has none left over)."""
    janus: int
    """Janus symbols rolled along."""
    net: int
    """The netted modifier (> 0 bonus, < 0 malus)."""
    total: int
    """The result: successes ± Janus symbols (+1 per 2 stars under the house rule), ≥ 0."""


def check_result(
    rolls: Sequence[int],
    janus_rolls: Sequence[int],
    net: int,
    *,
    gm: bool,
    options: HexxenOptions,
) -> CheckResult:
    """Count a check: HeXXen dice, then Janus dice as bonus or malus; never below 0."""
    successes, stars = hits(rolls, gm=gm)
    janus = janus_count(janus_rolls)
    total = successes
    if not gm and options.stars_count:
        total += stars // 2
    total = total + janus if net > 0 else max(0, total - janus) if net < 0 else total
    return CheckResult(successes, stars, janus, net, total)


def derived_lep(attributes: Mapping[str, int], extra: int, options: HexxenOptions) -> int:
    """Hunter's LeP: ``lep_base + KKR + WIL`` plus Unempfindlichkeit (``extra``)."""
    return options.lep_base + attributes["KKR"] + attributes["WIL"] + extra


def derived_ini(attributes: Mapping[str, int], extra: int) -> int:
    """Hunter's INI: ``SIN + GES`` plus Reflexe (``extra``)."""
    return attributes["SIN"] + attributes["GES"] + extra


def round_ap(paralysis: int, armour: int, options: HexxenOptions) -> int:
    """A hunter's Ap this round: ``base_ap`` − 1 per Lähmungsstufe (− armour if the option
    ``ap_minus_armour`` is on), never below 0."""
    ap = options.base_ap - paralysis
    if options.ap_minus_armour:
        ap -= armour
    return max(0, ap)


def attack_damage(damage: int, margin: int, armour: int, extra: int, options: HexxenOptions) -> int:
    """LeP an attack costs: nothing below ``hit_threshold`` net successes; else the line's
    Schaden + the net successes (+ ``damage_offset``, default 0) + the extra damage of its
    Blut- and Elixierwürfel − armour, never below 0."""
    if margin < options.hit_threshold:
        return 0
    lost = damage + margin + options.damage_offset + extra
    if options.armour_reduces:
        lost -= armour
    return max(0, lost)


def elixir_values(rolls: Sequence[int]) -> list[int]:
    """The numbers the Elixier dice (given as d6 rolls) show."""
    kind = symbol_die("E")
    faces = [kind.face(roll) for roll in rolls]
    return [face for face in faces if isinstance(face, int)]


DIE_LETTERS: dict[Die, str] = {"blood": "B", "elixir": "E"}
"""The face table (:mod:`spieltisch.dice.faces`) of each special die."""


def dice_value(die: Die, rolls: Sequence[int]) -> int:
    """The number Blut dice (their drops) or Elixier dice (their values) show, added up."""
    return blood_drops(rolls) if die == "blood" else sum(elixir_values(rolls))


def attack_dice(line: AttackLine, traits: Sequence[Trait], edition: int) -> list[DiceUse]:
    """The Blut- and Elixierwürfel an attack rolls on a hit, in the order they are rolled: the
    line's bare dice (their number adds to the damage), the line's dice with an effect, then
    those of the NSC's properties (``Giftig``, ``Zusatzschaden``). Before edition 3 a bare
    Elixierwürfel is only reported (by the caller) and properties do nothing."""
    uses = [DiceUse(die="blood", count=line.blood)] if line.blood else []
    if edition >= 3 and line.elixir:
        uses.append(DiceUse(die="elixir", count=line.elixir))
    uses.extend(line.dice)
    if edition < 3:
        return uses
    for trait in traits:
        if trait.does == "attack_dice" and trait.die is not None and trait.count:
            uses.append(
                DiceUse(
                    die=trait.die,
                    count=trait.count,
                    effect=trait.effect,
                    tag=trait.tag,
                    source=trait.name,
                )
            )
    return uses


def use_effect(use: DiceUse) -> str | None:
    """What the number of ``use`` gives: ``"lep"`` (damage), an effect id (with its tag), or
    ``None`` when its effect words are no rule of the table (refused when the NSC is made)."""
    if use.effect is None:
        return "lep"
    kind = effect_kind(use.effect)
    if kind is None or kind == "lep":
        return kind
    return effect_id(kind, use.tag)


def trait_bonus(traits: Sequence[Trait]) -> int:
    """The bonus the properties give every check of the NSC (``Entschlossen``)."""
    return sum(t.count for t in traits if t.does == "check_bonus")


def trait_growth(traits: Sequence[Trait]) -> int:
    """Hex the properties give the NSC in every INI-0 phase (``Hexenquell``)."""
    return sum(t.count for t in traits if t.does == "hex_growth")


def trait_heal(traits: Sequence[Trait]) -> list[Trait]:
    """The properties that heal the NSC in every INI-0 phase (``Regeneration``)."""
    return [t for t in traits if t.does == "heal" and t.die is not None and t.count]


def immune_to(traits: Sequence[Trait], kind: str) -> str | None:
    """The property that makes the NSC immune to the effect ``kind`` (an effect id, maybe
    tagged): one naming its tag (``Furcht``) or its kind (``Malusstufen``); else ``None``."""
    base, tag = base_effect(kind)
    for trait in traits:
        if trait.does != "immune" or trait.effect is None:
            continue
        named = trait.effect.strip().lower()
        if (tag is not None and named == tag.lower()) or effect_kind(trait.effect) == base:
            return trait.name
    return None
