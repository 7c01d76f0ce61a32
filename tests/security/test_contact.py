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
from dataclasses import replace
from typing import Any

import pytest
from leak_samples import CANARY, CONTACTS, LURKER, ContactSamples, Step, Who

from asgi_client import TestClient
from spieltisch.dice.verify import streams_of
from spieltisch.engine.replay import replay_log
from spieltisch.engine.system import Contact
from spieltisch.engine.table import Actor, Record, Role, Table, Viewer
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


def _player_runs() -> Iterator[Any]:
    for samples in CONTACTS:
        for kind, (who, _) in samples.runs.items():
            if who == "player":
                yield pytest.param(samples, kind, id=f"{samples.system}-{kind}")


def _without(records: list[dict[str, Any]], seq: int) -> list[Record]:
    """``records`` as if record ``seq`` had never been made (later ones renumbered)."""
    kept = [Record.model_validate(r) for r in records if r["seq"] != seq]
    return [r.model_copy(update={"seq": n}) for n, r in enumerate(kept, start=1)]


@pytest.mark.parametrize(("samples", "kind"), list(_player_runs()))
def test_with_the_option_only_the_discovering_player_sees_what_was_touched(
    client: TestClient, make_party: Any, samples: ContactSamples, kind: str
) -> None:
    """``discovery: "player"``: the player who ran into the lurker (Paul) sees it; another
    player (Petra) and the spectator get, on every channel, exactly what they would get if
    the discovery had never been made — and nothing hidden."""
    options = {**samples.options, "discovery": "player"}
    run = Run(client, make_party, replace(samples, options=options))
    party = run.party
    petra = {"Authorization": f"Bearer {party.join('player', 'Petra')}"}
    petra_id = party.view(petra)["me"]["participant"]
    paul_id = party.view(party.player)["me"]["participant"]
    others = {"petra": petra, "spectator": party.spectator}
    with party.socket(petra["Authorization"].split()[1]) as petra_ws:
        frames = [petra_ws.receive_text()]
        run.hide()
        reply = run.do(*samples.runs[kind])
        assert reply.status_code == 200, reply.text
        made, *found = reply.json()["records"]
        assert made["contact"] is True and made["audience"] is None
        assert [f["audience"] for f in found] == [[paul_id]] and found[0]["contact"] is True
        frames.append(petra_ws.receive_text())
        party.do(party.gm, {"kind": "say", "text": "weiter"})  # the next frame after it
        frames.append(petra_ws.receive_text())
    discovery = found[0]["seq"]
    assert LURKER in json.dumps(party.view(party.player)["state"]), "Paul sees what he touched"
    assert discovery in {r["seq"] for r in party.records(party.player)}
    texts = [*frames, *run.checks(petra), *run.checks(party.spectator), json.dumps(run.odds(petra))]
    for headers in others.values():
        assert discovery not in {r["seq"] for r in party.records(headers)}
        texts += [
            json.dumps(party.view(headers)),
            json.dumps(party.records(headers)),
            client.get(f"{run.url}/export", headers=headers).text,
        ]
    for text in [*run.texts, *texts]:
        assert LURKER not in text and CANARY not in text, text[:300]
    # As if nothing had been discovered: the same log without the discovery, for the others.
    export = client.get(f"{run.url}/export", headers=party.gm).json()
    system = get_system(samples.system)
    streams = streams_of(export)
    records = [Record.model_validate(r) for r in export["records"]]
    table = Table(system, export["options"], records, streams=streams)
    twin = Table(system, export["options"], _without(export["records"], discovery), streams=streams)
    probes = [samples.probe(square) for square in samples.squares]
    for viewer in (Viewer(Role.PLAYER, petra_id), Viewer(Role.SPECTATOR, "s")):
        assert table.view(viewer) == twin.view(viewer)
        actor = Actor(id=viewer.participant or "", role=viewer.role)
        assert [repr(table.check(p, actor)) for p in probes] == [
            repr(twin.check(p, actor)) for p in probes
        ]
    paul = Viewer(Role.PLAYER, paul_id)
    assert table.view(paul) != twin.view(paul), "the discovery changes Paul's view alone"
    assert table.view(Viewer(Role.GM)) == twin.view(Viewer(Role.GM)), "the GM knew it all along"
    state = table.state_for(Role.PLAYER)
    assert all(
        system.odds(state, p) == system.odds(twin.state_for(Role.PLAYER), p) for p in probes[:3]
    )
    # The log replays (the GM's export and Paul's), and a re-fold from it is the same.
    assert replay_log(system, export["options"], table.records, streams=streams).ok
    forged = [
        r.model_copy(update={"events": []}) if r.seq == discovery else r for r in table.records
    ]
    assert not replay_log(system, export["options"], forged, streams=streams).ok, "checked"
    without = _without(export["records"], discovery)
    assert not replay_log(system, export["options"], without, streams=streams).ok
    mine = client.get(f"{run.url}/export", headers=party.player).json()
    assert replay_log(
        system,
        mine["options"],
        [Record.model_validate(r) for r in mine["records"]],
        streams=streams_of(mine),
    ).ok
