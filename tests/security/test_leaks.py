"""Nothing of the GM's hidden records, nor of a whisper between others, reaches a player or a
spectator, on any channel.

For every system in :data:`leak_samples.SAMPLES`, every hidden sample (GM commands issued
hidden, carrying a canary in each text and id) is followed by every kind of player command.
Then every channel a player or a spectator has is read — the table (state and participants),
the records, the replies to their commands (errors included), odds previews, command checks
(``POST /check``, which must answer exactly as before the hidden commands), the WebSocket
frames (live, and the greeting of a connection opened after the hidden commands), and the
export before and after the seed is revealed — and none may hold the canary or a hidden
record. The hidden commands must leave what they see unchanged (seq aside), the
odds included; and a command or an odds preview naming a hidden id gets exactly the answer
an id nobody made gets. The matrix runs on SQLite; one case runs on PostgreSQL too. A player
the GM removed gets nothing more at all, at every system.

The matrix is a covering design. Its pairs are (hidden sample × player command kind); a cell
is one table and one hidden sample, and it plays *every* player command kind against the
state that sample left: the odds and the check of each before and after the hidden commands,
then each command in turn (one the table accepted is undone by the GM before the next, so each
meets the same state; the undo is one more thing the player's channels must keep secret),
then the exports, the reveal and the frames. So every pair is played, with one table per
hidden sample instead of one per pair; the probes of one hidden sample share a table too (each
is refused, so it leaves the table as it was). :func:`test_the_cells_cover_every_pair` proves
the selection loses nothing, over the sample data: a new sample or probe is covered as it is
added.

The cells of one system share one application and database (:func:`app_for`): building an
app (its database, migrations and process pool) per cell was most of the suite's time. A
table sees nothing of another, so sharing changes nothing a cell checks; the shared app
switches the rate limits off (hundreds of tables and joins from one address), which a cell
never relied on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, fields, replace
from typing import Any

import pytest
from leak_samples import CANARY, SAMPLES, UNDO_LAST, UNKNOWN, Probe, Samples, Step, Whisper
from starlette.websockets import WebSocketDisconnect

from asgi_client import TestClient
from spieltisch.store import EventStore
from spieltisch.web.app import Settings, create_app
from spieltisch.web.limits import RateLimits

MAY_CONFLICT = {
    ("magical-kitties", "scene"),  # the GM ended the scene in secret: open checks conflict
    ("kilkenny", "roll"),  # a hidden roll takes the turn in the GM's fold only
    ("kilkenny", "roll_and_move"),
    ("free-dice", "turns"),  # the GM moved the fight on in secret: the player's turn is over
    ("free-dice", "ending"),  # the GM ended the fight in secret
    ("dnd5e", "turn_and_attack"),  # the GM ended Ada's turn in secret: it is the goblin's
    ("kreiswanderer", "ambush"),  # Ada fights in the GM's fold: she may not rest there
    ("kreiswanderer", "join"),  # the same: Ada fights the reinforcements in the GM's fold
    ("dnd5e", "ready_fired"),  # Ada readied in secret: her action is used
    ("dnd5e", "secret_monster_shields_spell"),  # Ada cast at a secret creature: action used
    ("dnd5e", "secret_monster_shields_darts"),
    ("dnd5e", "legendary"),  # Ada's turn ended in secret (held open for a secret dragon)
    ("dnd5e", "lair_action"),  # the GM ended turns in secret to reach count 20
    ("dnd5e", "rest"),  # the GM ended the fight in secret (for a secret creature's rest)
    ("dnd5e", "secret_hit_dice"),  # the same, for a secret creature's hit dice
    ("dnd5e", "secret_breath"),  # the GM began a new fight in secret (a secret hound's turn)
}
"""Hidden samples after which a player's command may be refused as ``table.hidden_conflict``
when it is executed (the answer names nothing hidden; its check says it is fine, being
decided on what the player sees). Each is documented in docs/table-api.md, "What a player
can infer"."""


NO_RATE_LIMITS = RateLimits(**{f.name: "" for f in fields(RateLimits)})
"""The shared app of a system opens hundreds of tables from one address."""


@pytest.fixture(scope="module")
def app_for(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], TestClient]]:
    """``app_for(system)``: the application the cells of ``system`` share (running, on its own
    SQLite file). The cells come grouped by system, so one app is open at a time: asking for
    another system closes the previous one (its pool and store) first."""
    current: dict[str, Any] = {}
    stack = ExitStack()

    def app(system: str) -> TestClient:
        nonlocal stack
        if current.get("system") != system:
            stack.close()
            stack = ExitStack()
            folder = tmp_path_factory.mktemp(f"leaks-{system}")
            store = EventStore(f"sqlite:///{folder / 'store.sqlite3'}")
            stack.callback(store.close)
            settings = replace(Settings.from_env(), rates=NO_RATE_LIMITS)
            client = stack.enter_context(TestClient(create_app(store, settings=settings)))
            current.update(system=system, client=client)
        shared: TestClient = current["client"]
        return shared

    try:
        yield app
    finally:
        stack.close()


@contextmanager
def connect(client: TestClient, table_id: str, token: str) -> Iterator[Any]:
    """Open a table's WebSocket as the holder of ``token`` (the one place that knows how)."""
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "auth", "token": token})
        yield ws


@dataclass
class Seen:
    """Everything one participant (player or spectator) was sent, as text."""

    name: str
    headers: dict[str, str]
    texts: list[str] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)

    def keep(self, response: Any) -> Any:
        self.texts.append(response.text)
        return response


class Run:
    """A table of one system with a GM, a player, a spectator and the confidant (a second
    player the whispers go to or come from), driven over HTTP."""

    def __init__(self, client: TestClient, make_party: Any, samples: Samples) -> None:
        self.samples = samples
        self.party = make_party(client, samples.system, options=samples.options)
        self.client = client
        self.confidant = {"Authorization": f"Bearer {self.party.join('player', 'Cora')}"}
        self.ids = {
            "gm": self.party.created["participant"],
            "confidant": self.party.view(self.confidant)["me"]["participant"],
        }
        self.player = Seen("player", self.party.player)
        self.spectator = Seen("spectator", self.party.spectator)
        for who, step in samples.setup:
            headers = self.party.gm if who == "gm" else self.party.player
            reply = self.party.do(headers, self.resolve(step, headers))
            assert reply.status_code == 200, reply.text

    @property
    def url(self) -> str:
        return f"/api/tables/{self.party.id}"

    def resolve(self, step: Step, headers: dict[str, str]) -> dict[str, Any]:
        assert not isinstance(step, Whisper)
        return step(self.party.view(headers)["state"]) if callable(step) else step

    def hide(self, steps: list[Step]) -> list[int]:
        """Issue the GM's hidden steps; the sequence numbers of their records."""
        seqs: list[int] = []
        for step in steps:
            if isinstance(step, Whisper):
                sender = self.party.gm if step.sender == "gm" else self.confidant
                command = {"kind": "whisper", "to": self.ids[step.to], "text": step.text}
                reply = self.party.do(sender, command)
            elif step is UNDO_LAST:
                reply = self.client.post(
                    f"{self.url}/undo",
                    headers=self.party.gm,
                    json={"seq": self.party.view()["seq"]},
                )
            else:
                reply = self.party.do(self.party.gm, self.resolve(step, self.party.gm), hidden=True)
            assert reply.status_code == 200, reply.text
            body = reply.json()
            records = body.get("records") or [body["record"]]
            assert all(record["hidden"] or record["audience"] for record in records)
            seqs.extend(record["seq"] for record in records)
        return seqs

    def odds(self, who: Seen, command: dict[str, Any]) -> tuple[int, str]:
        reply = who.keep(
            self.client.post(f"{self.url}/odds", headers=who.headers, json={"command": command})
        )
        return reply.status_code, reply.text

    def check(self, who: Seen, commands: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
        """The answers of ``POST /check`` for ``commands`` (without the sequence number)."""
        reply = who.keep(
            self.client.post(
                f"{self.url}/check", headers=who.headers, json={"commands": [*commands.values()]}
            )
        )
        assert reply.status_code == 200, reply.text
        results: list[dict[str, Any]] = reply.json()["results"]
        return results

    def what(self, who: Seen, odds_of: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """What ``who`` sees now, but the sequence number (which counts hidden records too),
        with the odds of each command in ``odds_of``."""
        table = who.keep(self.client.get(self.url, headers=who.headers)).json()
        records = who.keep(self.client.get(f"{self.url}/records", headers=who.headers)).json()
        pages = [  # the latest page, and one before an early seq (the page loads older ones)
            who.keep(self.client.get(f"{self.url}/records?{query}", headers=who.headers)).json()
            for query in ("limit=2", "before=3&limit=1")
        ]
        return {
            "state": table["state"],
            "participants": table["participants"],
            "records": records["records"],
            "pages": [(page["records"], page["older"]) for page in pages],
            "odds": {kind: self.odds(who, command) for kind, command in odds_of.items()},
        }

    def undo(self, seqs: list[int]) -> None:
        """The GM undoes the (visible) records ``seqs``, the latest first."""
        for seq in sorted(seqs, reverse=True):
            reply = self.client.post(f"{self.url}/undo", headers=self.party.gm, json={"seq": seq})
            assert reply.status_code == 200, reply.text

    def export(self, who: Seen) -> dict[str, Any]:
        reply = who.keep(self.client.get(f"{self.url}/export", headers=who.headers))
        assert reply.status_code == 200, reply.text
        data: dict[str, Any] = reply.json()
        return data


def _read_until_revealed(socket: Any, seen: Seen) -> None:
    """Every frame up to the one announcing the revealed seed."""
    while True:
        text = socket.receive_text()
        seen.texts.append(text)
        frame = json.loads(text)
        seen.frames.append(frame)
        if frame["type"] == "table" and frame["seed"] is not None:
            return


def _cells() -> Iterator[Any]:
    """One cell per hidden sample of each system, playing every player command kind."""
    for samples in SAMPLES:
        for hidden in samples.hidden:
            yield pytest.param(
                samples,
                hidden,
                tuple(samples.player),
                id=f"{samples.system}-{hidden}",
                marks=pytest.mark.xdist_group(f"leaks-{samples.system}"),
            )


def play_case(
    client: TestClient, make_party: Any, samples: Samples, hidden: str, kinds: Iterable[str]
) -> None:
    """One cell of the matrix: hidden sample ``hidden``, then each of the player's command
    ``kinds`` against that one table state (a command that was accepted is undone by the GM
    before the next, so each meets the state the hidden sample left)."""
    run = Run(client, make_party, samples)
    party = run.party
    viewers = (run.player, run.spectator)
    with (
        connect(client, party.id, party.player_token) as player_socket,
        connect(client, party.id, party.spectator["Authorization"].split()[1]) as spectator_socket,
    ):
        commands = {kind: run.resolve(samples.player[kind], party.player) for kind in kinds}
        before = {seen.name: run.what(seen, commands) for seen in viewers}
        checked = {seen.name: run.check(seen, commands) for seen in viewers}
        secret = run.hide(samples.hidden[hidden])
        # The hidden commands change nothing a player or a spectator sees, their odds included,
        # nor what a check answers (it is decided on what they see alone).
        for seen in viewers:
            assert run.what(seen, commands) == before[seen.name]
            assert run.check(seen, commands) == checked[seen.name]
            # A connection opened now is greeted with the view and who is at the table, as
            # the table answers them: nothing of the hidden records.
            with connect(client, party.id, seen.headers["Authorization"].split()[1]) as late:
                greeting = late.receive_text()
            seen.texts.append(greeting)
            seen.frames.append(json.loads(greeting))
            assert seen.frames[-1]["participants"] == before[seen.name]["participants"]

        for kind, command in commands.items():
            reply = run.player.keep(party.do(party.player, command))
            if reply.status_code != 200 and (samples.system, hidden) not in MAY_CONFLICT:
                assert reply.json()["error"]["code"] != "table.hidden_conflict", (kind, reply.text)
            refused = run.spectator.keep(party.do(party.spectator, command))
            assert refused.status_code == 403, (kind, refused.text)
            for seen in viewers:
                seen.keep(client.get(run.url, headers=seen.headers))
            if reply.status_code == 200:
                run.undo([record["seq"] for record in reply.json()["records"]])

        for seen in viewers:
            run.what(seen, commands)
            early = run.export(seen)
            for record in early["records"]:
                if record["seq"] in secret:  # before the reveal: neither content nor draws
                    assert (record["command"], record["events"], record["claims"]) == (
                        None,
                        [],
                        None,
                    )
                    assert record["draws"] == [] or record["undoes"] is not None

        revealed = client.post(f"{run.url}/reveal", headers=party.gm)
        assert revealed.status_code == 200, revealed.text
        _read_until_revealed(player_socket, run.player)
        _read_until_revealed(spectator_socket, run.spectator)

    for seen in viewers:
        late = run.export(seen)
        for record in late["records"]:
            if record["seq"] in secret:  # kept for verifying the dice: raw draws only
                assert (record["command"], record["events"], record["claims"]) == (None, [], None)
        framed = {r["seq"] for frame in seen.frames for r in frame.get("records", [])}
        undone = {frame["record"]["seq"] for frame in seen.frames if frame["type"] == "undo"}
        assert not (framed | undone) & set(secret)
        for text in seen.texts:
            assert CANARY not in text, f"{seen.name} was sent a hidden text: {text[:300]}"


@pytest.mark.parametrize(("samples", "hidden", "kinds"), list(_cells()))
def test_hidden_records_never_reach_players_or_spectators(
    app_for: Callable[[str], TestClient],
    make_party: Any,
    samples: Samples,
    hidden: str,
    kinds: tuple[str, ...],
) -> None:
    play_case(app_for(samples.system), make_party, samples, hidden, kinds)


def _probes() -> Iterator[Any]:
    """One table per hidden sample that probes name: every probe after it, on that table."""
    for samples in SAMPLES:
        afters = dict.fromkeys(probe.after for probe in samples.probes)
        for after in afters:
            yield pytest.param(
                samples,
                [probe for probe in samples.probes if probe.after == after],
                id=f"{samples.system}-{after}",
                marks=pytest.mark.xdist_group(f"leaks-{samples.system}"),
            )


def _answer(reply: Any, hidden_id: str) -> tuple[int, Any]:
    """Status and body, the id the caller named written as :data:`UNKNOWN`."""
    return reply.status_code, json.loads(reply.text.replace(hidden_id, UNKNOWN))


@pytest.mark.parametrize(("samples", "probes"), list(_probes()))
def test_a_hidden_id_answers_like_an_unknown_one(
    app_for: Callable[[str], TestClient], make_party: Any, samples: Samples, probes: list[Probe]
) -> None:
    client = app_for(samples.system)
    run = Run(client, make_party, samples)
    run.hide(samples.hidden[probes[0].after])
    for probe in probes:  # each is refused, so the table is the same for the next
        twin = json.loads(json.dumps(probe.command).replace(probe.hidden_id, UNKNOWN))
        for path in ("odds", "commands", "check"):
            for headers in (run.party.player, run.party.spectator):
                url = f"{run.url}/{path}"
                body = (
                    (lambda c: {"commands": [c]}) if path == "check" else (lambda c: {"command": c})
                )
                unknown = client.post(url, headers=headers, json=body(twin))
                named = client.post(url, headers=headers, json=body(probe.command))
                assert unknown.status_code != 200 or path in ("odds", "check")
                assert _answer(named, probe.hidden_id) == _answer(unknown, UNKNOWN)
                if path == "check":
                    assert unknown.json()["results"][0]["ok"] is False


def test_the_cells_cover_every_pair() -> None:
    """No loss from the covering design: every (hidden sample × player command kind) pair of
    every system is played in some cell, every probe in some probe cell, and the cells of a
    system carry its one ``xdist_group`` (one app per system and worker)."""
    wanted = {(s.system, hidden, kind) for s in SAMPLES for hidden in s.hidden for kind in s.player}
    cells = [param.values for param in _cells()]
    covered = {(s.system, hidden, kind) for s, hidden, kinds in cells for kind in kinds}
    assert covered == wanted
    assert len(cells) == sum(len(s.hidden) for s in SAMPLES) < len(wanted)
    probed = [
        (s.system, id(p)) for param in _probes() for s, probes in [param.values] for p in probes
    ]
    assert sorted(probed) == sorted((s.system, id(p)) for s in SAMPLES for p in s.probes)
    for param in [*_cells(), *_probes()]:
        (group,) = [mark.args[0] for mark in param.marks if mark.name == "xdist_group"]
        assert group == f"leaks-{param.values[0].system}"


@pytest.mark.postgres
def test_one_case_on_postgres(postgres_server: Any, make_party: Any) -> None:
    store = EventStore(postgres_server.create_database())
    try:
        with TestClient(create_app(store)) as client:
            kitties = next(s for s in SAMPLES if s.system == "magical-kitties")
            play_case(client, make_party, kitties, "attack", ["reroll"])
    finally:
        store.close()


def _shut(reply: Any) -> None:
    assert reply.status_code == 401, reply.text
    assert reply.json()["error"]["code"] == "table.bad_token"


@pytest.mark.parametrize("samples", [pytest.param(s, id=s.system) for s in SAMPLES])
def test_a_removed_player_sees_nothing_more(
    client: TestClient, make_party: Any, samples: Samples
) -> None:
    """The GM removes the player; everything after that (hidden or not) reaches them on no
    channel: every request answers 401, the open socket is closed, a new one refused."""
    run = Run(client, make_party, samples)
    party = run.party
    me = party.view(party.player)["me"]["participant"]
    command = run.resolve(next(iter(samples.player.values())), party.player)
    with connect(client, party.id, party.player_token) as socket:
        run.player.texts.append(socket.receive_text())
        removed = client.delete(f"{run.url}/participants/{me}", headers=party.gm)
        assert removed.status_code == 200, removed.text
        frames = []
        while True:  # the socket is closed with table.removed, nothing after the removal
            try:
                frames.append(json.loads(socket.receive_text()))
            except WebSocketDisconnect as closed:
                assert closed.code == 4401
                break
        assert frames[-1]["type"] == "error"
        assert frames[-1]["error"]["code"] == "table.removed"
    secret = run.hide(next(iter(samples.hidden.values())))
    party.do(party.gm, {"kind": "say", "text": f"{CANARY} after"})
    for path in ("", "/records", "/export"):
        _shut(client.get(f"{run.url}{path}", headers=party.player))
    _shut(party.do(party.player, command))
    _shut(client.post(f"{run.url}/odds", headers=party.player, json={"command": command}))
    _shut(client.post(f"{run.url}/check", headers=party.player, json={"commands": [command]}))
    _shut(client.post(f"{run.url}/player-seeds", headers=party.player, json={"seed": "s"}))
    _shut(client.delete(f"{run.url}/participants/{me}", headers=party.player))
    with connect(client, party.id, party.player_token) as socket:
        refused = json.loads(socket.receive_text())
        assert refused["error"]["code"] == "table.bad_token"
        with pytest.raises(WebSocketDisconnect):
            socket.receive_text()
    assert secret  # the GM played on
