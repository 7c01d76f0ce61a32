"""A hostile player, for every system: probes what the GM hid and sends what no client would.

One table per system (``leak_samples.SAMPLES``) with every hidden sample the GM can make at
once; a player (and a spectator) then tries, over HTTP:

* ``POST /check`` and the odds preview of every player command of the sample, and at the
  systems with positions (``leak_samples.CONTACTS``) of a command aimed at every square of
  the map — the answers must be those given before the GM hid anything;
* every command that names a hidden thing's id (``Samples.probes``), sent, checked and
  previewed, against its twin naming an id nobody made: the same answer, the id aside;
* malformed bodies on every endpoint: deep nesting, huge and out-of-range numbers, wrong
  types, and every field of every player command replaced by each of them.

Nothing may answer 5xx, no answer may carry what the GM hid (:data:`leak_samples.CANARY`,
the contact's :data:`leak_samples.LURKER`), and a refused command changes nothing. Counting
hidden dice by the draw index is the one known leak left (``test_dice_streams.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import fields, replace
from typing import Any

import pytest
from leak_samples import (
    CANARY,
    CONTACTS,
    LURKER,
    SAMPLES,
    UNDO_LAST,
    UNKNOWN,
    ContactSamples,
    Samples,
    Whisper,
)

from asgi_client import TestClient
from spieltisch.store import EventStore
from spieltisch.web.app import Settings, create_app
from spieltisch.web.limits import RateLimits

NO_RATE_LIMITS = RateLimits(**{f.name: "" for f in fields(RateLimits)})

DEEP = "[" * 100_000
"""A body nested far beyond any limit."""

BAD_VALUES: list[Any] = [
    10**40,
    -(10**40),
    2**63,
    1.5e308,
    "\x00\x1b[31m",
    "x" * 5000,
    [[[[[[[[[[[[]]]]]]]]]]]],
    {"$ref": "#"},
    None,
    True,
]
"""What replaces each field of a player command."""


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    store = EventStore(f"sqlite:///{tmp_path / 'probe.sqlite3'}")
    settings = replace(Settings.from_env(), rates=NO_RATE_LIMITS)
    try:
        with TestClient(create_app(store, settings=settings)) as test_client:
            yield test_client
    finally:
        store.close()


class Probe:
    """A table of one system as the hostile player meets it: every reply is kept as text."""

    def __init__(self, client: TestClient, make_party: Any, system: str, options: Any) -> None:
        self.client = client
        self.party = make_party(client, system, options=options)
        self.texts: list[str] = []
        self.statuses: list[tuple[int, str]] = []

    @property
    def url(self) -> str:
        return f"/api/tables/{self.party.id}"

    def send(self, method: str, path: str, headers: dict[str, str], body: Any = None) -> Any:
        """A request; ``body`` JSON, or raw text when it is a ``str``."""
        content = body if isinstance(body, str) else None
        reply = self.client.request(
            method,
            path,
            headers={**headers, "Content-Type": "application/json"},
            content=content,
            json=None if content is not None or body is None else body,
        )
        self.texts.append(reply.text)
        self.statuses.append((reply.status_code, f"{method} {path} {str(body)[:120]}"))
        return reply

    def step(self, headers: dict[str, str], step: Any, hidden: bool = False) -> Any:
        command = step(self.party.view(headers)["state"]) if callable(step) else step
        return self.send(
            "POST", f"{self.url}/commands", headers, {"command": command, "hidden": hidden}
        )

    def answers(self, headers: dict[str, str], commands: list[dict[str, Any]]) -> list[Any]:
        """The check and the odds of each command, as ``headers`` gets them."""
        found: list[Any] = []
        for start in range(0, len(commands), 50):
            reply = self.send(
                "POST", f"{self.url}/check", headers, {"commands": commands[start : start + 50]}
            )
            assert reply.status_code == 200, reply.text
            found.extend(reply.json()["results"])
        for command in commands:
            reply = self.send("POST", f"{self.url}/odds", headers, {"command": command})
            found.append((reply.status_code, reply.text))
        return found

    def seq(self) -> int:
        return int(self.party.view()["seq"])

    def assert_no_server_error(self) -> None:
        failed = [what for status, what in self.statuses if status >= 500]
        assert failed == [], failed

    def assert_nothing_hidden_reached_them(self, *secrets: str) -> None:
        for text in self.texts:
            for secret in secrets:
                assert secret not in text, f"a hidden text reached a player: {text[:300]}"


def _hide_everything(probe: Probe, samples: Samples) -> None:
    """Every hidden sample of the system, as far as they go together (one that builds on
    something another took away is refused; that is fine, it is only the GM's set-up)."""
    gm = probe.party.gm
    for steps in samples.hidden.values():
        for step in steps:
            if isinstance(step, Whisper) or step is UNDO_LAST:
                continue
            reply = probe.step(gm, step, hidden=True)
            assert reply.status_code < 500, reply.text
    probe.texts.clear()  # the GM's own answers


def _player_commands(probe: Probe, samples: Samples) -> list[dict[str, Any]]:
    state = probe.party.view(probe.party.player)["state"]
    return [step(state) if callable(step) else step for step in samples.player.values()]


def _mutations(command: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for name in command:
        if name == "kind":
            continue
        for value in BAD_VALUES:
            yield {**command, name: value}
    yield {**command, "unknown": 1}
    yield {"kind": command["kind"]}


def _by_system() -> Iterator[Any]:
    contacts = {samples.system: samples for samples in CONTACTS}
    for samples in SAMPLES:
        yield pytest.param(samples, contacts.get(samples.system), id=samples.system)


@pytest.mark.parametrize(("samples", "contact"), list(_by_system()))
def test_a_hostile_player_learns_nothing_and_breaks_nothing(
    client: TestClient, make_party: Any, samples: Samples, contact: ContactSamples | None
) -> None:
    probe = Probe(client, make_party, samples.system, samples.options)
    party = probe.party
    for who, step in samples.setup:
        reply = probe.step(party.gm if who == "gm" else party.player, step)
        assert reply.status_code == 200, reply.text
    commands = _player_commands(probe, samples)
    looks = {
        name: probe.answers(headers, commands)
        for name, headers in (("player", party.player), ("spectator", party.spectator))
    }
    _hide_everything(probe, samples)

    # Checks and odds answer as before the GM hid anything.
    for name, headers in (("player", party.player), ("spectator", party.spectator)):
        assert probe.answers(headers, commands) == looks[name], name

    # A hidden id answers as an id nobody made, sent, checked and previewed (the answers
    # name the id the player gave, so they are compared with the twin's, not searched).
    kept = len(probe.texts)
    for hidden in samples.probes:
        twin = json.loads(json.dumps(hidden.command).replace(hidden.hidden_id, UNKNOWN))
        mine = probe.answers(party.player, [hidden.command])
        theirs = probe.answers(party.player, [twin])
        assert json.dumps(mine).replace(hidden.hidden_id, UNKNOWN) == json.dumps(theirs)
        seq = probe.seq()
        sent = probe.step(party.player, hidden.command)
        if sent.status_code != 200:
            assert probe.seq() == seq
            other = probe.step(party.player, twin)
            assert other.status_code == sent.status_code
            assert other.json()["error"]["code"] == sent.json()["error"]["code"]
    del probe.texts[kept:]

    # Malformed bodies on every endpoint, and every field of every command replaced.
    seq = probe.seq()
    made = 0
    for command in commands:
        for bad in _mutations(command):
            for path in ("commands", "check", "odds"):
                body = {"commands": [bad]} if path == "check" else {"command": bad}
                reply = probe.send("POST", f"{probe.url}/{path}", party.player, body)
                if path == "commands" and reply.status_code == 200:
                    made += len(reply.json()["records"])
    bodies: list[Any] = [
        DEEP,
        '{"command": {"kind": "roll", "expression": "1d6", "x": ' + "9" * 5000 + "}}",
        '{"command": NaN}',
        "not json",
        [],
        {"command": []},
        {"command": {"kind": []}},
        {"command": {"kind": "roll"}, "expected_seq": -1},
        {"command": {"kind": "roll"}, "expected_seq": 10**30},
        {"commands": "roll"},
        {"commands": [{}] * 65},
        {"seq": 10**30},
        {"seq": -1},
        {"seq": "1"},
        {"seed": 5},
        {"seed": "\x00"},
        {"invite": ["x"], "name": 5},
    ]
    paths = [
        ("POST", f"{probe.url}/{end}")
        for end in ("commands", "check", "odds", "undo", "player-seeds", "reveal", "invites")
    ]
    paths += [
        ("POST", f"{probe.url}/join"),
        ("POST", "/api/tables"),
        ("POST", "/api/tables/import"),
        ("DELETE", f"{probe.url}/participants/{UNKNOWN}"),
        ("GET", f"{probe.url}/records?since=-99999999999999999999999"),
    ]
    for method, path in paths:
        for body in bodies:
            for headers in (party.player, party.spectator):
                reply = probe.send(method, path, headers, body)
                if path.endswith("/commands") and reply.status_code == 200:
                    made += len(reply.json()["records"])
    assert probe.seq() == seq + made, "a refused request changed the table"
    probe.assert_no_server_error()
    probe.assert_nothing_hidden_reached_them(CANARY)

    if contact is not None:  # every square of the map, with and without a secret creature
        _every_square(client, make_party, contact)


def _every_square(client: TestClient, make_party: Any, samples: ContactSamples) -> None:
    probe = Probe(client, make_party, samples.system, samples.options)
    party = probe.party
    for who, step in samples.setup:
        reply = probe.step(party.gm if who == "gm" else party.player, step)
        assert reply.status_code == 200, reply.text
    aimed = [samples.probe(square) for square in samples.squares]
    before = probe.answers(party.player, aimed)
    for step in samples.secret:
        assert probe.step(party.gm, step, hidden=True).status_code == 200
    probe.texts.clear()
    assert probe.answers(party.player, aimed) == before
    probe.assert_no_server_error()
    probe.assert_nothing_hidden_reached_them(CANARY, LURKER)


def test_a_hostile_player_cannot_count_hidden_dice(client: TestClient, make_party: Any) -> None:
    """Two tables alike but for how many dice the GM rolled in secret: what the player's seed
    answers, and the draw indexes of the player's next visible roll, are the same."""
    answers = []
    for hidden in ("1d6", "5d6"):
        probe = Probe(client, make_party, "free-dice", {})
        party = probe.party
        probe.step(party.gm, {"kind": "roll", "expression": hidden}, hidden=True)
        seed = probe.send("POST", f"{probe.url}/player-seeds", party.player, {"seed": "a"})
        rolled = probe.step(party.player, {"kind": "roll", "expression": "2d6"})
        assert seed.status_code == 200 and rolled.status_code == 200, rolled.text
        draws = [[d["index"] for d in r["draws"]] for r in rolled.json()["records"]]
        answers.append((seed.json()["start"], draws))
    assert answers[0] == answers[1]
