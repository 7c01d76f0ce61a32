"""How ``first_edition_log.json`` was made: run with the code before the fixes of issue 24
(commit 5480409), a table touching every rule they changed; its records and final state.

    PYTHONPATH=<old src> python make_first_edition_log.py first_edition_log.json
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))
from kw_helpers import goblin, hero, source_at

from spieltisch.engine.table import Table
from spieltisch.engine.visibility import Actor, Role
from spieltisch.systems.kreiswanderer import Kreiswanderer

GM = Actor(id="gm", role=Role.GM)
t = Table(Kreiswanderer())
t.execute(hero(), GM, source_at([]))
t.execute(goblin(), GM, source_at([]))
# accumulated, every roll adds TW
t.execute(
    {
        "kind": "accumulate_start",
        "id": "a",
        "being": "ada",
        "attribute": "geschick",
        "skill": "schmieden",
        "rolls": 2,
    },
    GM,
    source_at([]),
)
t.execute({"kind": "accumulate_roll", "id": "a"}, GM, source_at([1]))
t.execute({"kind": "accumulate_roll", "id": "a"}, GM, source_at([1]))
# depth 3 at 0
t.execute(
    {"kind": "check", "being": "gob", "attribute": "geschick", "skill": "alchemie"},
    GM,
    source_at([5]),
)
t.execute(
    {
        **hero("bea"),
        "sheet": {
            **hero()["sheet"],
            "name": "Bea",
            "skills": {"alchemie": {"depth": 3, "value": 0}},
        },
    },
    GM,
    source_at([]),
)
t.execute(
    {"kind": "check", "being": "bea", "attribute": "geschick", "skill": "alchemie"},
    GM,
    source_at([5]),
)
# comparative critical
t.execute(
    {
        "kind": "comparative",
        "being": "ada",
        "attribute": "geschick",
        "skill": "schwerter",
        "opponent": "gob",
        "opponent_attribute": "geschick",
        "opponent_skill": "messer",
    },
    GM,
    source_at([10, 6, 1]),
)
# split naps
t.execute({"kind": "adjust_track", "being": "ada", "track": "tp", "value": 15}, GM, source_at([]))
t.execute(
    {"kind": "rest", "being": "ada", "sleep_halfhours": 1, "rest_halfhours": 1}, GM, source_at([])
)
t.execute({"kind": "rest", "being": "ada", "sleep_halfhours": 1}, GM, source_at([]))
# fight: self attack, burning, fight end, fallen goblin acting
t.execute({"kind": "start_combat", "combatants": ["ada", "gob"]}, GM, source_at([7, 4, 2, 9]))
t.execute({"kind": "assign_dice", "being": "ada", "dodge": 1}, GM, source_at([]))
t.execute({"kind": "assign_dice", "being": "gob", "dodge": 1}, GM, source_at([]))
t.execute(
    {"kind": "attack", "being": "ada", "target": "ada", "weapon": "Fackel"}, GM, source_at([9])
)
t.execute({"kind": "end_turn"}, GM, source_at([]))
t.execute({"kind": "adjust_track", "being": "gob", "track": "tp", "value": 0}, GM, source_at([]))
t.execute({"kind": "dodge", "being": "gob"}, GM, source_at([]))
t.execute({"kind": "end_turn"}, GM, source_at([]))
t.execute({"kind": "end_turn"}, GM, source_at([]))
t.execute({"kind": "end_turn"}, GM, source_at([]))  # gob's turn though fallen
t.execute({"kind": "use_begabung", "being": "ada", "begabung": "lichtfunke"}, GM, source_at([]))
t.execute({"kind": "end_combat"}, GM, source_at([]))
t.execute({"kind": "start_combat", "combatants": ["ada", "gob"]}, GM, source_at([7, 4, 2, 9]))
t.execute({"kind": "assign_dice", "being": "ada", "dodge": 1}, GM, source_at([]))
t.execute({"kind": "assign_dice", "being": "gob", "dodge": 1}, GM, source_at([]))
t.execute({"kind": "end_turn"}, GM, source_at([]))
t.execute({"kind": "end_turn"}, GM, source_at([]))
t.execute(
    {"kind": "edit_being", "being": "ada", "sheet": {**hero()["sheet"], "hp": 22}},
    GM,
    source_at([]),
)
with open(sys.argv[1], "w") as out:
    records = [r.model_dump(mode="json") for r in t.records]
    json.dump({"records": records, "state": t.state.model_dump(mode="json")}, out)
