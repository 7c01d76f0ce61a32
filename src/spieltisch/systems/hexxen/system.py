"""HeXXen 1733 (the GM's rules) as a :class:`~spieltisch.engine.system.GameSystem`.

:mod:`.decide` turns commands into events, :mod:`.evolve` applies them, :mod:`.view` shows
them, :mod:`.odds` gives the exact odds before a roll; :mod:`.rules` holds every rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import TypeAdapter

from spieltisch.dice.fair import DiceSource
from spieltisch.engine.system import Access, Odds, OddsPart, parse_options
from spieltisch.engine.upcast import EventShapes
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.hexxen import decide as deciding
from spieltisch.systems.hexxen import evolve as evolving
from spieltisch.systems.hexxen import odds as hexxen_odds
from spieltisch.systems.hexxen import rules
from spieltisch.systems.hexxen import view as viewing
from spieltisch.systems.hexxen.commands import (
    COMMANDS,
    ChangeResource,
    Command,
    CreateHunter,
    DeclareAttack,
    Defend,
    EditHunter,
    HunterCheck,
    HunterContest,
    NextTurn,
    NpcAttack,
    NpcCheck,
    NpcPower,
    Place,
    SetBound,
    SetSkill,
)
from spieltisch.systems.hexxen.decide import (
    SYSTEM_ID,
    attack_line,
    attack_of,
    contest_npc_dice,
    hunter_pool,
    npc_check_dice,
    power_line,
)
from spieltisch.systems.hexxen.events import EVENTS, Event
from spieltisch.systems.hexxen.sheet import HexxenOptions, HexxenState
from spieltisch.systems.hexxen.upcast import RULES_VERSION, UPCASTERS

__all__ = ["LEGACY_OPTIONS", "SYSTEM_ID", "Hexxen"]

LEGACY_OPTIONS: dict[str, Any] = {
    "modifier_cap": "net",
    "damage_offset": -1,
    "binding_from_map": False,
}
"""The defaults of the options tables made before the rules edition were played with."""


class Hexxen:
    """The rules of HeXXen 1733 for the GM; see ``docs/games/hexxen.md``."""

    id = SYSTEM_ID
    commands = COMMANDS
    events = EVENTS
    shapes = EventShapes.of(Event, rules=RULES_VERSION, upcasters=UPCASTERS)
    """Versions of the event shapes and rules, and the upcasters (``upcast.py``)."""
    options: TypeAdapter[Any] = TypeAdapter(HexxenOptions)

    def new_state(self, options: Mapping[str, Any]) -> HexxenState:
        """An empty table; ``options`` override :class:`HexxenOptions` (validated)."""
        parsed = parse_options(HexxenOptions, "hexxen.bad_option", options)
        return HexxenState(options=parsed)

    def stamp_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """A new table stores its rules edition (3 unless given), so that its options are
        never taken for those of a table made before the edition existed."""
        return {"edition": 3, **options}

    def upgrade_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options stored without ``edition`` are a table made before: it keeps the reading
        it was played with (edition 1, bonus and malus netted before the cap, damage − 1)
        unless its options said otherwise."""
        if "edition" in options:
            return dict(options)
        return {**LEGACY_OPTIONS, **options, "edition": 1}

    def decide(self, state: HexxenState, command: Command, dice: DiceSource) -> list[Event]:
        """The events of ``command`` (see :mod:`.decide`)."""
        return deciding.decide(state, command, dice)

    def evolve(self, state: HexxenState, event: Event) -> HexxenState:
        """Apply one event (see :mod:`.evolve`)."""
        return evolving.evolve(state, event)

    def odds(self, state: HexxenState, command: Command) -> Odds | None:
        """Exact odds: a hunter's total; for attacks, powers and contests the margin
        (active − defence) with both sides' modifiers and the chosen defence; an attack's or a
        power's Blut and Elixier dice as ``parts`` keyed ``die:effect``."""
        opts = state.options
        if isinstance(command, Defend):
            command = attack_of(state, command)
        if isinstance(command, DeclareAttack):
            command = NpcAttack(
                npc=command.npc,
                attack=command.attack,
                target=command.target,
                bonus=command.bonus,
                malus=command.malus,
            )
        if isinstance(command, HunterCheck):
            hunter = evolving.find_hunter(state, command.hunter)
            _, pool = hunter_pool(state, hunter, command.skill, command.attribute)
            bonus, malus = evolving.modifiers(state, hunter.id, command.bonus, command.malus)
            net = rules.net_modifier(bonus, malus, opts)
            return hexxen_odds.as_odds(hexxen_odds.pool(pool, net, stars_count=opts.stars_count))
        if isinstance(command, NpcAttack):
            npc = evolving.find_npc(state, command.npc)
            line = attack_line(npc, command.attack)
            hunter = evolving.find_hunter(state, command.target)
            active = self._npc_pool(state, npc.id, line.attack, command.bonus, command.malus)
            defence: hexxen_odds.Distribution = (hexxen_odds.Fraction(1),)
            if command.defense != "none":
                skill = command.defense_skill or deciding._DEFENSE_SKILLS[command.defense]
                _, pool = hunter_pool(state, hunter, skill, None)
                defence = self._hunter_pool(
                    state, hunter.id, pool, command.hunter_bonus, command.hunter_malus
                )
            margins = hexxen_odds.as_odds(hexxen_odds.contest(active, defence).margins)
            uses = rules.attack_dice(line, npc.traits, opts.edition)
            return margins.model_copy(update={"parts": self._dice_parts(uses)})
        if isinstance(command, NpcPower):
            return self._power_odds(state, command)
        if isinstance(command, HunterContest):
            hunter = evolving.find_hunter(state, command.hunter)
            npc = evolving.find_npc(state, command.npc)
            _, pool = hunter_pool(state, hunter, command.skill, command.attribute)
            active = self._hunter_pool(state, hunter.id, pool, command.bonus, command.malus)
            attribute = command.npc_attribute or hunter.skill_attributes[command.skill]
            _, dice = contest_npc_dice(state, npc, command.npc_dice, attribute)
            defence = self._npc_pool(state, npc.id, dice, 0, 0)
            return hexxen_odds.as_odds(hexxen_odds.contest(active, defence).margins)
        if isinstance(command, NpcCheck):
            return self._npc_check_odds(state, command)
        return None

    @staticmethod
    def _dice_parts(uses: list[rules.DiceUse]) -> list[OddsPart]:
        """For each Blut- or Elixierwürfel a line rolls on a hit, the chance of each number
        they show, keyed ``die:effect`` (``blood:lep`` damage, ``blood:inner_damage[Gift]``)."""
        parts = []
        for use in uses:
            number = hexxen_odds.special(rules.DIE_LETTERS[use.die], use.count)
            key = f"{use.die}:{rules.use_effect(use)}"
            parts.append(OddsPart(key=key, odds=hexxen_odds.as_odds(number)))
        return parts

    def _npc_check_odds(self, state: HexxenState, command: NpcCheck) -> Odds:
        """An NSC's check: its total; against a hunter, the margin (NSC − hunter)."""
        npc = evolving.find_npc(state, command.npc)
        _, dice = npc_check_dice(state, npc, command.attribute)
        active = self._npc_pool(state, npc.id, dice, command.bonus, command.malus)
        if command.against is None:
            return hexxen_odds.as_odds(active)
        hunter = evolving.find_hunter(state, command.against)
        _, pool = hunter_pool(state, hunter, command.skill or "", None)
        defence = self._hunter_pool(
            state, hunter.id, pool, command.hunter_bonus, command.hunter_malus
        )
        return hexxen_odds.as_odds(hexxen_odds.contest(active, defence).margins)

    def _power_odds(self, state: HexxenState, command: NpcPower) -> Odds:
        """One target: the Differenzerfolge. Several: how many targets the power affects
        (the NSC rolls once for all). Either way ``parts`` holds each target's margins."""
        npc = evolving.find_npc(state, command.npc)
        power = power_line(npc, command.power)
        active = self._npc_pool(state, npc.id, power.dice, command.bonus, command.malus)
        defences = []
        parts = []
        for target in command.targets:
            hunter = evolving.find_hunter(state, target)
            _, pool = hunter_pool(state, hunter, power.against, None)
            defence = self._hunter_pool(state, hunter.id, pool, 0, 0)
            defences.append(defence)
            margins = hexxen_odds.contest(active, defence).margins
            parts.append(OddsPart(key=hunter.id, odds=hexxen_odds.as_odds(margins)))
        if len(defences) == 1:
            main = parts[0].odds
        else:
            main = hexxen_odds.as_odds(hexxen_odds.affected(active, defences))
        effect = power.per_difference
        if effect.die is not None:  # what the dice give each target the NSC is ahead of
            use = rules.DiceUse(
                die=effect.die, count=effect.amount, effect=effect.effect, tag=effect.tag
            )
            parts.extend(self._dice_parts([use]))
        return main.model_copy(update={"parts": parts})

    @staticmethod
    def _npc_pool(
        state: HexxenState, npc: str, dice: int, bonus: int, malus: int
    ) -> hexxen_odds.Distribution:
        b, m = evolving.modifiers(state, npc, bonus, malus)
        return hexxen_odds.pool(dice, rules.net_modifier(b, m, state.options), gm=True)

    @staticmethod
    def _hunter_pool(
        state: HexxenState, hunter: str, dice: int, bonus: int, malus: int
    ) -> hexxen_odds.Distribution:
        b, m = evolving.modifiers(state, hunter, bonus, malus)
        net = rules.net_modifier(b, m, state.options)
        return hexxen_odds.pool(dice, net, stars_count=state.options.stars_count)

    def contact(
        self, state: HexxenState, command: Command, events: list[Event]
    ) -> list[Event] | None:
        """Where a player's ``place`` meets a secret NSC (see :func:`.decide.contact`)."""
        return deciding.contact(state, command, events)

    def access(self, state: HexxenState, command: Command) -> Access:
        """Players create hunters and act for theirs; NSC, effects and the fight are the GM's."""
        if isinstance(command, CreateHunter):
            return Access(piece=command.id, claims=True)
        if isinstance(
            command, HunterCheck | HunterContest | SetSkill | ChangeResource | EditHunter | Defend
        ):
            return Access(piece=command.hunter)
        if isinstance(command, SetBound | Place) and command.target in state.hunters:
            return Access(piece=command.target)
        if isinstance(command, NextTurn) and state.encounter is not None:
            current = state.encounter.current
            if current in state.hunters:
                return Access(piece=current)
        return Access(gm_only=True)

    def automatic_is_heavy(self, state: HexxenState) -> bool:
        """Never: :meth:`automatic` answers at once (the server asks it in its own thread)."""
        return False

    def automatic(self, state: HexxenState) -> Command | None:
        """Nothing: the round-end step (``next_turn``) emits the ticks of ongoing effects."""
        return None

    def view(self, state: HexxenState, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` sees (see :mod:`.view`)."""
        return viewing.view(state, viewer)
