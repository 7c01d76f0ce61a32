"""Budgets, actions paid over several rounds, and the interrupt stack."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from spieltisch.engine.economy import (
    BudgetRule,
    Budgets,
    InterruptStack,
    acting,
    begin,
    can_spend,
    cancel,
    grant,
    interrupt,
    new_budgets,
    pay_pending,
    refresh,
    resume,
    spend,
)
from spieltisch.engine.encounter import Phase
from spieltisch.engine.errors import RuleError

D = Decimal

DND = (
    BudgetRule(name="action", amount=D(1)),
    BudgetRule(name="bonus", amount=D(1)),
    BudgetRule(name="reaction", amount=D(1)),
    BudgetRule(name="movement", amount=D(9)),
)
KREISWANDERER = (BudgetRule(name="ap", amount=D(1), refresh=Phase.ROUND_START, carry=True),)


def test_a_dnd_turn_spends_and_refuses_without_going_negative() -> None:
    budgets = new_budgets(DND)
    budgets = spend(budgets, "movement", D("4.5"))
    budgets = spend(budgets, "action", 1)
    assert budgets.left == {"action": 0, "bonus": 1, "reaction": 1, "movement": D("4.5")}
    with pytest.raises(RuleError) as error:
        spend(budgets, "movement", 6)
    assert error.value.code == "toolkit.economy.not_enough"
    assert error.value.params == {"budget": "movement", "cost": "6", "left": "4.5"}
    assert not can_spend(budgets, "action", 1) and can_spend(budgets, "bonus", 1)
    dashed = grant(budgets, "movement", 9)
    assert dashed.amount("movement") == D("13.5")
    assert refresh(dashed, DND, Phase.TURN_START) == new_budgets(DND)
    assert refresh(dashed, DND, Phase.ROUND_START) == dashed


def test_hexxen_ap_refresh_each_round_minus_paralysis() -> None:
    rules = (BudgetRule(name="ap", amount=D(6), refresh=Phase.ROUND_START),)
    budgets = spend(new_budgets(rules), "ap", 5)
    assert refresh(budgets, rules, Phase.ROUND_START, {"ap": 6 - 2}).amount("ap") == 4
    assert refresh(budgets, rules, Phase.ROUND_START, {"ap": -3}).amount("ap") == 0


def test_carry_over_up_to_a_cap() -> None:
    rules = (BudgetRule(name="ap", amount=D(1), refresh="round_start", carry=True, cap=D(3)),)
    budgets = new_budgets(rules)
    seen = []
    for _ in range(4):
        budgets = refresh(budgets, rules, "round_start")
        seen.append(budgets.amount("ap"))
    assert seen == [2, 3, 3, 3]
    with pytest.raises(ValidationError):
        BudgetRule(name="ap", amount=D(2), cap=D(1))


def test_half_an_ap_stays_exact() -> None:
    budgets = new_budgets(KREISWANDERER)
    budgets = spend(budgets, "ap", D("0.5"))
    budgets = spend(budgets, "ap", D("0.5"))
    assert budgets.amount("ap") == 0


def test_a_costly_action_completes_over_later_rounds() -> None:
    """Kreiswanderer: a 3-Ap technique with 1 Ap a round completes in the third round."""
    budgets = new_budgets(KREISWANDERER)
    budgets, action = begin(budgets, "ap", "wirbelhieb", 3, {"target": "ork"})
    assert (action.paid, action.remaining, action.complete) == (1, 2, False)
    assert budgets.amount("ap") == 0 and budgets.pending == (action,)
    budgets = refresh(budgets, KREISWANDERER, Phase.ROUND_START)
    budgets, done = pay_pending(budgets)
    assert done == () and budgets.pending[0].paid == 2 and budgets.amount("ap") == 0
    budgets = refresh(budgets, KREISWANDERER, Phase.ROUND_START)
    budgets, done = pay_pending(budgets)
    assert [(a.action, a.paid, a.detail) for a in done] == [("wirbelhieb", 3, {"target": "ork"})]
    assert budgets.pending == () and budgets.amount("ap") == 0


def test_an_affordable_action_completes_at_once_and_pending_ones_can_be_dropped() -> None:
    budgets = grant(new_budgets(KREISWANDERER), "ap", 2)
    budgets, action = begin(budgets, "ap", "angriff", 1)
    assert action.complete and budgets.pending == () and budgets.amount("ap") == 2
    budgets, slow = begin(budgets, "ap", "ritual", 5)
    assert budgets.amount("ap") == 0 and slow.paid == 2
    with pytest.raises(RuleError) as empty:
        begin(budgets, "ap", "noch_eins", 1)
    assert empty.value.code == "toolkit.economy.nothing_left"
    assert cancel(budgets, slow.id).pending == ()
    with pytest.raises(RuleError) as unknown:
        cancel(budgets, 99)
    assert unknown.value.code == "toolkit.economy.unknown_action"


def test_bad_amounts_and_unknown_budgets_are_refused() -> None:
    budgets = new_budgets(DND)
    for bad in (-1, "x", "NaN"):
        with pytest.raises(RuleError) as error:
            spend(budgets, "action", bad)  # type: ignore[arg-type]
        assert error.value.code == "toolkit.economy.bad_amount"
    with pytest.raises(RuleError) as unknown:
        spend(budgets, "ki", 1)
    assert unknown.value.code == "toolkit.economy.unknown_budget"
    assert unknown.value.params["known"] == ["action", "bonus", "movement", "reaction"]


def test_reactions_interrupt_and_resume_in_reverse_order() -> None:
    stack = InterruptStack()
    orc, wizard = new_budgets(DND), new_budgets(DND)
    assert acting(stack, "fighter") == "fighter"
    stack, orc = interrupt(stack, orc, "orc", "fighter", trigger="opportunity_attack")
    assert acting(stack, "fighter") == "orc" and orc.amount("reaction") == 0
    stack, wizard = interrupt(stack, wizard, "wizard", "fighter", trigger="shield")
    assert stack.frames[-1].interrupted == "orc" and acting(stack, "fighter") == "wizard"
    with pytest.raises(RuleError) as twice:
        interrupt(stack, orc, "orc", "fighter")
    assert twice.value.code == "toolkit.economy.not_enough"
    stack, frame = resume(stack)
    assert frame.reactor == "wizard" and acting(stack, "fighter") == "orc"
    stack, frame = resume(stack)
    assert not stack.open and acting(stack, "fighter") == "fighter"
    with pytest.raises(RuleError) as error:
        resume(stack)
    assert error.value.code == "toolkit.economy.no_interrupt"


# -- property --------------------------------------------------------------------------------

_amounts = st.decimals(min_value=0, max_value=12, places=1)
_op = st.one_of(
    st.tuples(st.just("spend"), st.sampled_from(["ap", "move"]), _amounts),
    st.tuples(st.just("begin"), st.sampled_from(["ap", "move"]), _amounts),
    st.tuples(st.just("grant"), st.sampled_from(["ap", "move"]), _amounts),
    st.tuples(st.just("refresh"), st.sampled_from(["turn_start", "round_start"]), _amounts),
    st.tuples(st.just("pay"), st.just(""), _amounts),
)
_RULES = (
    BudgetRule(name="ap", amount=D(2), refresh="round_start", carry=True, cap=D(5)),
    BudgetRule(name="move", amount=D(9), refresh="turn_start"),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_op, max_size=40))
def test_budgets_never_go_negative(ops: list[tuple[str, str, Decimal]]) -> None:
    budgets: Budgets = new_budgets(_RULES)
    for op, name, amount in ops:
        before = budgets
        try:
            if op == "spend":
                budgets = spend(budgets, name, amount)
            elif op == "begin":
                budgets, _ = begin(budgets, name, "act", amount)
            elif op == "grant":
                budgets = grant(budgets, name, amount)
            elif op == "refresh":
                budgets = refresh(budgets, _RULES, name)
            else:
                budgets, _ = pay_pending(budgets)
        except RuleError:
            assert budgets == before
        assert all(value >= 0 for value in budgets.left.values())
        assert all(0 <= p.paid < p.cost for p in budgets.pending)
        if op == "refresh" and name == "round_start":
            assert budgets.amount("ap") <= D(5)


def test_budgets_survive_a_json_round_trip() -> None:
    budgets, _ = begin(new_budgets(KREISWANDERER), "ap", "ritual", D("2.5"), {"target": "x"})
    assert Budgets.model_validate_json(budgets.model_dump_json()) == budgets
