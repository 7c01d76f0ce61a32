"""Contact: where the hidden and the visible world touch, over HTTP, for every system with
positions (:data:`leak_samples.CONTACTS`).

Two promises (``docs/table-api.md``, "Contact"):

* probing costs a real command: a player's ``POST /check`` (and odds preview) of a command
  aimed at a square answers the same on every square whether or not a secret creature
  stands there, so only executing it (logged, seen by the GM) can find it;
* executing a visible command that runs into the secret creature discovers it: the record is
  visible and marked ``contact``, the player and the spectator now see the creature, the GM's
  map never has two tokens on one square, and nothing else hidden (what carries
  :data:`leak_samples.CANARY`) reaches them on any channel.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from leak_samples import CANARY, CONTACTS, LURKER, ContactSamples, Step, Who

from spieltisch.engine.system import Contact
from spieltisch.systems.registry import get_system


class Run:
    """A table of one system: GM, player (Paul), spectator; the visible set-up played."""

    def __init__(self, client: TestClient, make_party: Any, samples: ContactSamples) -> None:
        self.client = client
        self.samples = samples
        self.party = make_party(client, samples.system, options=samples.options)
        self.texts: list[str] = []
        for who, step in samples.setup:
            reply = self.do(who, step)
            assert reply.status_code == 200, reply.text

    @property
    def url(self) -> str:
        return f"/api/tables/{self.party.id}"

    def headers(self, who: Who) -> dict[str, str]:
        return self.party.gm if who == "gm" else self.party.player

    def do(self, who: Who, step: Step, *, hidden: bool = False) -> Any:
        headers = self.headers(who)
        command = step(self.party.view(headers)["state"]) if callable(step) else step
        assert isinstance(command, dict)
        return self.party.do(headers, command, hidden=hidden)

    def hide(self) -> None:
        for step in self.samples.secret:
            reply = self.do("gm", step, hidden=True)
            assert reply.status_code == 200, reply.text

    def checks(self, headers: dict[str, str]) -> list[Any]:
        """``POST /check`` of the probe on every square (in batches of the request's limit)."""
        commands = [self.samples.probe(square) for square in self.samples.squares]
        results: list[Any] = []
        for start in range(0, len(commands), 50):
            reply = self.client.post(
                f"{self.url}/check",
                headers=headers,
                json={"commands": commands[start : start + 50]},
            )
            assert reply.status_code == 200, reply.text
            self.texts.append(reply.text)
            results.extend(reply.json()["results"])
        return results

    def odds(self, headers: dict[str, str]) -> list[tuple[int, Any]]:
        answers = []
        for square in (self.samples.square, self.samples.squares[-1]):
            reply = self.client.post(
                f"{self.url}/odds", headers=headers, json={"command": self.samples.probe(square)}
            )
            self.texts.append(reply.text)
            answers.append((reply.status_code, reply.json()))
        return answers


def _systems() -> Iterator[Any]:
    for samples in CONTACTS:
        yield pytest.param(samples, id=samples.system)


def _runs() -> Iterator[Any]:
    for samples in CONTACTS:
        marks = []
        if samples.pending is not None:
            marks.append(pytest.mark.xfail(reason=samples.pending, strict=True))
        for kind in samples.runs:
            yield pytest.param(samples, kind, id=f"{samples.system}-{kind}", marks=marks)


@pytest.mark.parametrize("samples", list(_systems()))
def test_a_check_on_every_square_answers_the_same_with_or_without_a_secret_creature(
    client: TestClient, make_party: Any, samples: ContactSamples
) -> None:
    run = Run(client, make_party, samples)
    party = run.party
    before = {"player": run.checks(party.player), "spectator": run.checks(party.spectator)}
    odds = run.odds(party.player)
    run.hide()
    assert run.checks(party.player) == before["player"]
    assert run.checks(party.spectator) == before["spectator"]
    assert run.odds(party.player) == odds
    assert any(result["ok"] for result in before["player"])  # the probe can succeed at all
    for text in run.texts:
        assert CANARY not in text and LURKER not in text


@pytest.mark.parametrize(("samples", "kind"), list(_runs()))
def test_a_visible_command_that_runs_into_a_secret_creature_discovers_it(
    client: TestClient, make_party: Any, samples: ContactSamples, kind: str
) -> None:
    assert isinstance(get_system(samples.system), Contact), "the system has no contact hook"
    run = Run(client, make_party, samples)
    party = run.party
    who, step = samples.runs[kind]
    with (
        party.socket(party.player_token) as player_ws,
        party.socket(party.spectator["Authorization"].split()[1]) as spectator_ws,
    ):
        frames = [player_ws.receive_text(), spectator_ws.receive_text()]
        run.hide()  # hidden records reach neither socket: the next frame is the contact's
        reply = run.do(who, step)
        assert reply.status_code == 200, reply.text
        record = reply.json()["records"][0]
        assert record["contact"] is True and record["hidden"] is False
        frames += [player_ws.receive_text(), spectator_ws.receive_text()]
        assert all(
            record["seq"] in {r["seq"] for r in json.loads(f)["records"]} for f in frames[2:]
        )
        if who == "player":
            run.texts.append(reply.text)
    for headers in (party.player, party.spectator):
        state = party.view(headers)["state"]
        assert LURKER in json.dumps(state), "the touched creature is visible to the table"
        records = party.records(headers)
        assert record["seq"] in {r["seq"] for r in records}
        export = client.get(f"{run.url}/export", headers=headers)
        run.texts += [json.dumps(state), json.dumps(records), export.text]
    gm_state = party.view(party.gm)["state"]
    squares = Counter(square for _, square in samples.positions(gm_state))
    assert all(count == 1 for count in squares.values()), squares
    for text in [*run.texts, *frames]:
        assert CANARY not in text, f"a hidden text reached a player: {text[:300]}"
