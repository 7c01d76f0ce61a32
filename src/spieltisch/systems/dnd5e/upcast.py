"""D&D 5e: versions of its event shapes and rules, and its upcasters (the one place).

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

RULES_VERSION = 8
"""The version of the rules, carried in exports and snapshots (2: cover from the map, jump
checks rolled, exhaustion by level, condition durations, legendary actions holding a turn's
end open; the frozen exports of version 1 reach none of these — no cover between, no jump
checks, no legendary monster — and replay as they were. 3: squeezing found from the map's
walls, ground heights, flying heights, dragging a grappled creature; the frozen exports of
version 2 have no ground heights, no large creature beside a wall and no drag, so they
replay as they were; the fields added to ``moved``, ``move``, ``fall`` and the steps are
left out while at their default, so no event changed shape. Also 3: spells that act fully —
volleys split over their targets, lasting spell effects; tables made before keep their reading
through the option ``edition``: stored without it they are edition 1, see
:meth:`.system.Dnd5e.upgrade_options`). 4: lasting effects on every saving throw (a hit's
rider save, a save action's save, the save that ends a condition, a death save), as rules
edition 3; tables of edition 2 keep rolling those saves without them, and the fields added
to ``attacked``, ``save_action``, ``condition_saved`` and ``death_saved`` are left out while
empty). 5: Shield against the attack that triggers it, as rules edition 4 (a hit on a creature
that may cast Shield waits for its decision: ``attacked`` with ``held``, left out while false,
then the command ``shield``; spells that count their targets; Spirit Guardians' area, which
strikes and slows, with the event ``aura_struck`` and the ``spell_cast`` fields
``damage_type`` and ``spared`` left out while unset; opportunity attacks with heights as a
third axis); tables of edition 3 and before resolve
every hit at once, count no targets and make no area, as they did, so no recorded event
changed shape or meaning). 6: an innate caster's DC and attack bonus its stat block does not
state follow from its proficiency bonus and ability, and the mephits' one-spell traits are
read, spells of one creature counted and Hold Person's targets kept within 9 m, a flyer's
step up or down in place, and Shield against spell attacks and Magic Missile (``spell_cast``
with ``held``, left out while empty, the state's ``held_spell`` and the event
``spell_landed``), as rules edition 5; tables of edition 4 and before keep DC 10 and +0,
resolve spells at once and count as before, so no recorded event changed shape or
meaning). 7: Chain Lightning's targets counted and leaping from the first, as rules edition 6.
8: a grapple, shove or escape uses up the Help that gave either side's check advantage, and
Hide and Search the Help on their check, as rules edition 7 (``contested`` with
``active_helped`` and ``passive_helped``, ``action_taken`` with ``helped``, each left out
while false); tables of edition 6 and before leave that Help standing, as they did, so no
recorded event changed shape or meaning)."""

UPCASTERS: Mapping[str, Sequence[Upcaster]] = {}
"""Event kind → its upcasters in order (``v1→v2``, ``v2→v3``, …); none yet."""
