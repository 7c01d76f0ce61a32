"""Creatures: tracks between floor and maximum, tags, sides, and who sees a secret creature."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from spieltisch.engine.creatures import (
    Creature,
    Tag,
    Track,
    damage,
    heal,
    hostile,
    set_track,
    unnamed_viewer,
    visible_creatures,
    visible_to,
)
from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Size
from spieltisch.engine.visibility import GM_VIEWER, Role, Viewer

HUNTER = Creature(
    id="jaeger",
    name="Jäger",
    side="hunters",
    owner="p1",
    stats={"kkr": Decimal(3), "wil": Decimal(2)},
    tracks={"lep": Track(current=12, maximum=12, floor=-10)},
    tags=(Tag(name="resistance", value=2, detail="PH"), Tag(name="defensive", value=1),
          Tag(name="defensive", value=2), Tag(name="langzeiteffekt", detail="feuer")),
)  # fmt: skip
AMBUSH = Creature(id="wolf", side="beasts", secret=True, size=Size.LARGE)


def test_life_points_fall_to_the_floor_and_heal_to_the_maximum() -> None:
    hurt = damage(HUNTER, "lep", 15)
    assert hurt.track("lep").current == -3
    worse = damage(hurt, "lep", 30)
    assert worse.track("lep").current == -10 and worse.track("lep").at_floor
    assert heal(worse, "lep", 100).track("lep").current == 12
    assert HUNTER.track("lep").current == 12  # the original is unchanged


def test_track_errors() -> None:
    with pytest.raises(RuleError) as negative:
        damage(HUNTER, "lep", -1)
    assert negative.value.code == "toolkit.creatures.bad_amount"
    with pytest.raises(RuleError) as unknown:
        heal(HUNTER, "mp", 1)
    assert unknown.value.params == {"creature": "jaeger", "value": "mp"}
    with pytest.raises(RuleError) as outside:
        set_track(HUNTER, "lep", -11)
    assert outside.value.params == {
        "creature": "jaeger",
        "track": "lep",
        "value": -11,
        "floor": -10,
        "maximum": 12,
    }
    assert set_track(HUNTER, "lep", -10).track("lep").current == -10
    with pytest.raises(ValidationError):
        Track(current=5, maximum=4)


def test_stats_and_tags() -> None:
    assert HUNTER.stat("kkr") + HUNTER.stat("wil") + 7 == 12
    assert HUNTER.stat("ges", 0) == 0
    with pytest.raises(RuleError) as error:
        HUNTER.stat("ges")
    assert error.value.code == "toolkit.creatures.unknown_stat"
    assert HUNTER.tag_total("resistance", "PH") == 2
    assert HUNTER.tag_total("resistance", "BR") == 0
    assert HUNTER.tag_total("defensive") == 3
    assert HUNTER.has_tag("langzeiteffekt", "feuer") and not HUNTER.has_tag("langzeiteffekt", "eis")
    assert HUNTER.tag_total("langzeiteffekt") == 1
    assert hostile(HUNTER, AMBUSH) and not hostile(HUNTER, HUNTER)


def test_secret_creatures_are_the_gms_and_their_owners_alone() -> None:
    player = Viewer(Role.PLAYER, participant="p1", pieces=frozenset({"jaeger"}))
    other = Viewer(Role.PLAYER, participant="p2")
    spectator = Viewer(Role.SPECTATOR)
    secret_pet = HUNTER.model_copy(update={"id": "falke", "secret": True})
    piece = AMBUSH.model_copy(update={"id": "hund"})
    owned_by_pieces = Viewer(Role.PLAYER, participant="p3", pieces=frozenset({"hund"}))
    table = [HUNTER, AMBUSH, secret_pet, piece]
    assert visible_creatures(table, GM_VIEWER) == tuple(table)
    assert visible_creatures(table, player) == (HUNTER, secret_pet)
    assert visible_creatures(table, other) == (HUNTER,)
    assert visible_creatures(table, spectator) == (HUNTER,)
    assert visible_creatures(table, owned_by_pieces) == (HUNTER, piece)
    assert visible_to(AMBUSH, GM_VIEWER) and not visible_to(AMBUSH, player)


@given(
    st.integers(-10, 30),
    st.lists(st.tuples(st.booleans(), st.integers(0, 50)), max_size=20),
)
def test_a_track_stays_between_floor_and_maximum(
    start: int, changes: list[tuple[bool, int]]
) -> None:
    creature = Creature(
        id="x", side="s", tracks={"hp": Track(current=start, maximum=30, floor=-10)}
    )
    for hurt, amount in changes:
        creature = (damage if hurt else heal)(creature, "hp", amount)
        assert -10 <= creature.track("hp").current <= 30


_PEOPLE = st.sampled_from(["p1", "p2", "p3"])


@given(
    st.lists(
        st.builds(
            lambda n, secret, owner: Creature(id=f"c{n}", side="s", secret=secret, owner=owner),
            st.integers(0, 5),
            st.booleans(),
            st.none() | _PEOPLE,
        ),
        max_size=6,
    ),
    st.sampled_from([Role.GM, Role.PLAYER, Role.SPECTATOR]),
    st.none() | _PEOPLE,
    st.frozensets(st.sampled_from(["c0", "c1", "c2"]), max_size=2),
)
def test_an_unnamed_viewer_sees_every_creature_as_the_named_one(
    creatures: list[Creature], role: Role, participant: str | None, pieces: frozenset[str]
) -> None:
    """Dropping the id changes nothing ``visible_to`` decides, and the id is dropped unless
    a secret creature is the participant's by name."""
    viewer = Viewer(role, participant, pieces)
    unnamed = unnamed_viewer(creatures, viewer)
    assert [visible_to(c, unnamed) for c in creatures] == [visible_to(c, viewer) for c in creatures]
    assert unnamed.role is role and unnamed.pieces == pieces
    named = any(c.secret and c.owner == participant for c in creatures)
    assert unnamed.participant == (participant if named or role is Role.GM else None)


def test_the_owner_of_a_secret_creature_keeps_its_name() -> None:
    secret_pet = HUNTER.model_copy(update={"id": "falke", "secret": True})
    owner, other = Viewer(Role.PLAYER, "p1"), Viewer(Role.PLAYER, "p2")
    assert unnamed_viewer([HUNTER, secret_pet], owner) == owner
    assert unnamed_viewer([HUNTER, secret_pet], other) == Viewer(Role.PLAYER)
    assert unnamed_viewer([HUNTER], owner) == Viewer(Role.PLAYER)
