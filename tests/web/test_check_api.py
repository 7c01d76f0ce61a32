"""``POST /api/tables/{id}/check``: would each command be accepted now, and if not, why.

The answer is checked against what executing the same command then gives (same code, same
localized message), and asking writes nothing."""

from __future__ import annotations

from typing import Any

MIA = {
    "kind": "create_kitty",
    "id": "mia",
    "name": "Mia",
    "attributes": {"cute": 3, "cunning": 2, "fierce": 1},
    "talents": ["Climbing"],
    "powers": [{"name": "Teleport"}],
    "flaw": "Lazy",
    "human": {"name": "Jenny", "problems": []},
}
CUTE = {"kind": "check", "kitty": "mia", "attribute": "cute"}
AVOID = {"kind": "avoid_injury", "kitty": "mia"}


def _check(party: Any, who: dict[str, str], *commands: dict[str, Any], **body: Any) -> Any:
    reply = party.client.post(
        f"/api/tables/{party.id}/check", headers=who, json={"commands": list(commands), **body}
    )
    assert reply.status_code == 200, reply.text
    return reply.json()


def _same_as_executing(party: Any, who: dict[str, str], command: dict[str, Any]) -> None:
    """The check's answer for ``command``, then executing it: they agree."""
    answer = _check(party, who, command)["results"][0]
    done = party.do(who, command)
    if answer["ok"]:
        assert done.status_code == 200, done.text
        assert answer == {"ok": True, "error": None}
    else:
        assert done.status_code != 200
        assert answer["error"] == done.json()["error"]


def test_answers_agree_with_executing(client: Any, make_party: Any) -> None:
    party = make_party(client, "magical-kitties")
    gm, player = party.gm, party.player
    _same_as_executing(party, player, CUTE)  # no kitty yet: unknown kitty
    _same_as_executing(party, player, MIA)
    _same_as_executing(party, player, {"kind": "start_episode"})  # GM only
    _same_as_executing(party, gm, {"kind": "start_episode"})
    _same_as_executing(party, gm, {"kind": "start_scene"})
    _same_as_executing(party, player, AVOID)  # no fresh injury to avoid
    _same_as_executing(party, player, {"kind": "give_aua", "kitty": "mia"})  # GM only
    _same_as_executing(party, player, CUTE)
    _same_as_executing(party, party.spectator, CUTE)  # spectators do not act


def test_several_at_once_in_order_writing_nothing(client: Any, make_party: Any) -> None:
    party = make_party(client, "magical-kitties")
    assert party.do(party.player, MIA).status_code == 200
    before = party.view(party.gm)
    records = party.records()
    body = _check(
        party, party.player, MIA, AVOID, {"kind": "no_such_kind"}, {"kind": "say", "text": "hi"}
    )
    codes = [None if r["ok"] else r["error"]["code"] for r in body["results"]]
    assert codes == ["kitties.duplicate_id", "kitties.no_fresh_injury", "rule.bad_command", None]
    assert body["seq"] == before["seq"] == 1
    assert party.view(party.gm) == before and party.records() == records


def test_the_message_is_in_the_tables_language_or_the_asked_one(
    client: Any, make_party: Any
) -> None:
    party = make_party(client, "magical-kitties")
    party.do(party.player, MIA)
    reply = party.client.post(
        f"/api/tables/{party.id}/check?lang=de", headers=party.player, json={"commands": [MIA]}
    )
    assert reply.json()["results"][0]["error"]["message"] == (
        "Kätzchen: die Kennung 'mia' gibt es schon."
    )


def test_a_player_may_not_ask_as_for_a_hidden_record(client: Any, make_party: Any) -> None:
    party = make_party(client, "magical-kitties")
    body = _check(party, party.player, MIA, hidden=True)
    assert body["results"][0]["error"]["code"] == "rule.forbidden"
    assert _check(party, party.gm, MIA, hidden=True)["results"][0]["ok"] is True


def test_too_many_commands_are_refused(client: Any, make_party: Any) -> None:
    party = make_party(client, "magical-kitties")
    reply = party.client.post(
        f"/api/tables/{party.id}/check", headers=party.gm, json={"commands": [CUTE] * 65}
    )
    assert reply.status_code == 422
