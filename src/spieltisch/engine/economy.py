"""Turn economies: named budgets, actions paid over several rounds, and interrupts.

A system describes its budgets as data (:class:`BudgetRule`: D&D's action, bonus action,
reaction and movement in metres; HeXXen's Ap; Kreiswanderer's Ap) and keeps one
:class:`Budgets` value per combatant. Every budget refreshes when a phase of the system's
choosing fires (``turn_start`` of the owner, ``round_start`` …, see
:mod:`spieltisch.engine.encounter`), optionally carrying what was left over up to a cap.

Amounts are :class:`~decimal.Decimal` so that half an Ap and 1.5 m squares stay exact.
Spending more than is left is refused (``toolkit.economy.not_enough``); nothing ever goes
negative. An action that costs more than is left may be *begun* (:func:`begin`): it takes what
is left and completes when later refreshes have paid the rest (:func:`pay_pending`) — the
Kreiswanderer rule. Reactions interrupt the acting combatant's turn and are pushed on an
:class:`InterruptStack`; resuming pops them in reverse order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from spieltisch.engine.encounter import Phase
from spieltisch.engine.errors import RuleError

__all__ = [
    "BudgetRule",
    "Budgets",
    "Interrupt",
    "InterruptStack",
    "PendingAction",
    "acting",
    "begin",
    "can_spend",
    "cancel",
    "grant",
    "interrupt",
    "new_budgets",
    "pay_pending",
    "refresh",
    "resume",
    "spend",
]

ZERO = Decimal(0)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BudgetRule(_Frozen):
    """One named budget: how much it holds, when it refreshes, whether leftovers carry over.

    ``refresh`` is a phase name (:class:`~spieltisch.engine.encounter.Phase` or a system's
    own); ``carry`` keeps what was left and adds the new amount, never above ``cap`` (None:
    no cap). Without ``carry`` a refresh resets the budget to ``amount``.
    """

    name: str
    amount: Decimal = Field(ge=0)
    refresh: str = Phase.TURN_START
    carry: bool = False
    cap: Decimal | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _cap_holds_amount(self) -> BudgetRule:
        if self.cap is not None and self.cap < self.amount:
            raise ValueError("cap below amount")
        return self


class PendingAction(_Frozen):
    """An action begun with too little left: it completes once ``paid`` reaches ``cost``."""

    id: int
    action: str
    budget: str
    cost: Decimal
    paid: Decimal = ZERO
    detail: dict[str, Any] = Field(default_factory=dict)
    """Whatever the system needs to carry the action out once complete (target, weapon …)."""

    @property
    def remaining(self) -> Decimal:
        """What is still to pay."""
        return self.cost - self.paid

    @property
    def complete(self) -> bool:
        """Whether the action is fully paid."""
        return self.paid >= self.cost


class Budgets(_Frozen):
    """What one combatant has left of each budget, and its actions still being paid."""

    left: dict[str, Decimal] = Field(default_factory=dict)
    pending: tuple[PendingAction, ...] = ()
    next_pending: int = 1

    def amount(self, name: str) -> Decimal:
        """What is left of budget ``name``; ``toolkit.economy.unknown_budget`` if none."""
        if name not in self.left:
            raise RuleError("toolkit.economy.unknown_budget", value=name, known=sorted(self.left))
        return self.left[name]


def _amount(value: Decimal | int | str, what: str) -> Decimal:
    try:
        amount = Decimal(value)
    except (ArithmeticError, ValueError, TypeError):
        raise RuleError("toolkit.economy.bad_amount", what=what, value=str(value)) from None
    if not amount.is_finite() or amount < 0:
        raise RuleError("toolkit.economy.bad_amount", what=what, value=str(value))
    return amount


def new_budgets(rules: Iterable[BudgetRule]) -> Budgets:
    """Full budgets: every rule at its amount."""
    return Budgets(left={rule.name: rule.amount for rule in rules})


def refresh(
    budgets: Budgets,
    rules: Iterable[BudgetRule],
    phase: str,
    amounts: Mapping[str, Decimal | int] | None = None,
) -> Budgets:
    """Refresh the budgets whose rule refreshes on ``phase``.

    ``amounts`` overrides a rule's amount for this refresh (HeXXen: 6 Ap minus one per
    Lähmungsstufe); an override below zero counts as zero.
    """
    left = dict(budgets.left)
    for rule in rules:
        if rule.refresh != phase:
            continue
        amount = Decimal(amounts[rule.name]) if amounts and rule.name in amounts else rule.amount
        amount = max(amount, ZERO)
        total = left.get(rule.name, ZERO) + amount if rule.carry else amount
        if rule.cap is not None:
            total = min(total, max(rule.cap, amount))
        left[rule.name] = total
    return budgets.model_copy(update={"left": left})


def can_spend(budgets: Budgets, name: str, cost: Decimal | int) -> bool:
    """Whether ``cost`` of budget ``name`` is left."""
    return budgets.amount(name) >= _amount(cost, name)


def spend(budgets: Budgets, name: str, cost: Decimal | int) -> Budgets:
    """Pay ``cost`` from budget ``name``.

    Raises ``toolkit.economy.not_enough`` (naming budget, cost and what is left) when too little
    is left, ``toolkit.economy.bad_amount`` for a negative cost.
    """
    price = _amount(cost, name)
    have = budgets.amount(name)
    if price > have:
        raise RuleError("toolkit.economy.not_enough", budget=name, cost=str(price), left=str(have))
    return budgets.model_copy(update={"left": {**budgets.left, name: have - price}})


def grant(
    budgets: Budgets, name: str, amount: Decimal | int, cap: Decimal | int | None = None
) -> Budgets:
    """Add ``amount`` to budget ``name`` (D&D's Dash), at most up to ``cap`` if given."""
    extra = _amount(amount, name)
    total = budgets.amount(name) + extra
    if cap is not None:
        total = min(total, max(_amount(cap, name), budgets.amount(name)))
    return budgets.model_copy(update={"left": {**budgets.left, name: total}})


def begin(
    budgets: Budgets,
    name: str,
    action: str,
    cost: Decimal | int,
    detail: Mapping[str, Any] | None = None,
) -> tuple[Budgets, PendingAction]:
    """Begin an action that costs ``cost`` of budget ``name``, paying what is left now.

    Returns the budgets and the action; if it is already :attr:`~PendingAction.complete` it is
    not kept as pending. Otherwise it stays in :attr:`Budgets.pending` until
    :func:`pay_pending` completes it. Raises ``toolkit.economy.nothing_left`` when nothing at
    all is left to begin with.
    """
    price = _amount(cost, name)
    have = budgets.amount(name)
    if have <= 0 < price:
        raise RuleError("toolkit.economy.nothing_left", budget=name, cost=str(price))
    paid = min(have, price)
    pending = PendingAction(
        id=budgets.next_pending,
        action=action,
        budget=name,
        cost=price,
        paid=paid,
        detail=dict(detail or {}),
    )
    update: dict[str, Any] = {
        "left": {**budgets.left, name: have - paid},
        "next_pending": budgets.next_pending + 1,
    }
    if not pending.complete:
        update["pending"] = (*budgets.pending, pending)
    return budgets.model_copy(update=update), pending


def pay_pending(budgets: Budgets) -> tuple[Budgets, tuple[PendingAction, ...]]:
    """Pay the pending actions from what is left, oldest first; returns those now complete."""
    left = dict(budgets.left)
    still: list[PendingAction] = []
    done: list[PendingAction] = []
    for action in budgets.pending:
        pay = min(left.get(action.budget, ZERO), action.remaining)
        left[action.budget] = left.get(action.budget, ZERO) - pay
        paid = action.model_copy(update={"paid": action.paid + pay})
        (done if paid.complete else still).append(paid)
    return budgets.model_copy(update={"left": left, "pending": tuple(still)}), tuple(done)


def cancel(budgets: Budgets, action_id: int) -> Budgets:
    """Give up a pending action; what was paid for it is lost."""
    if all(action.id != action_id for action in budgets.pending):
        raise RuleError("toolkit.economy.unknown_action", value=action_id)
    kept = tuple(action for action in budgets.pending if action.id != action_id)
    return budgets.model_copy(update={"pending": kept})


# -- interrupts ------------------------------------------------------------------------------


class Interrupt(_Frozen):
    """A reaction in progress: who reacts, whose action it interrupted, and why."""

    reactor: str
    interrupted: str | None
    trigger: str = ""


class InterruptStack(_Frozen):
    """Reactions that interrupted the acting combatant, innermost last."""

    frames: tuple[Interrupt, ...] = ()

    @property
    def open(self) -> bool:
        """Whether a reaction is in progress (the interrupted turn waits)."""
        return bool(self.frames)


def acting(stack: InterruptStack, turn_owner: str | None) -> str | None:
    """Who acts now: the innermost reactor, or else the combatant whose turn it is."""
    return stack.frames[-1].reactor if stack.frames else turn_owner


def interrupt(
    stack: InterruptStack,
    budgets: Budgets,
    reactor: str,
    turn_owner: str | None,
    *,
    trigger: str = "",
    budget: str = "reaction",
    cost: Decimal | int = 1,
) -> tuple[InterruptStack, Budgets]:
    """``reactor`` reacts, paying ``cost`` of ``budget`` from its ``budgets``.

    The one acting now (:func:`acting`) is interrupted. Raises ``toolkit.economy.not_enough``
    when the reactor has too little left.
    """
    paid = spend(budgets, budget, cost)
    frame = Interrupt(reactor=reactor, interrupted=acting(stack, turn_owner), trigger=trigger)
    return stack.model_copy(update={"frames": (*stack.frames, frame)}), paid


def resume(stack: InterruptStack) -> tuple[InterruptStack, Interrupt]:
    """End the innermost reaction; the interrupted one acts again.

    Raises ``toolkit.economy.no_interrupt`` when no reaction is in progress.
    """
    if not stack.frames:
        raise RuleError("toolkit.economy.no_interrupt")
    return stack.model_copy(update={"frames": stack.frames[:-1]}), stack.frames[-1]
