"""Who sits at a table: participants, their tokens, and the invites to join.

Tokens and invite codes are stored as SHA-256 only and compared in constant time. Joining,
leaving and removing take the table's write turn (:meth:`Writes.people_changed`), so every
worker reads the participants again before its next write.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import replace

from sqlalchemy import insert, select, update

from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Role
from spieltisch.store.loading import Cached
from spieltisch.store.models import InviteRow, ParticipantRow
from spieltisch.store.types import Joined, Participant, StoreError, hash_secret
from spieltisch.store.validation import MAX_NAME, check_text
from spieltisch.store.writes import Write, Writes, present

__all__ = [
    "authenticate",
    "authenticate_cached",
    "gone",
    "invite_role",
    "join",
    "new_id",
    "new_invites",
    "new_secret",
    "participants",
    "remove_participant",
]


def new_secret() -> str:
    """A fresh secret (a token or an invite code)."""
    return secrets.token_urlsafe(32)


def new_id() -> str:
    """A fresh id (of a table or a participant): twelve characters of the URL-safe alphabet,
    never beginning with ``-``, which a command line would read as an option (such an id is
    drawn again; ids made before this rule still work, written after ``--``)."""
    while (made := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return made


def authenticate(writes: Writes, table_id: str, token: str | None) -> Participant:
    """The participant whose secret ``token`` this is (compared in constant time)."""
    if not token:
        raise StoreError("table.bad_token", table=table_id)
    wanted = hash_secret(token)
    found = _match(writes.cached_or_load(table_id), wanted)
    if found is None:  # joined through another worker, or a wrong token
        found = _match(writes.reload_participants(table_id, writes.current(table_id)), wanted)
    if found is None:
        raise StoreError("table.bad_token", table=table_id)
    return found


def authenticate_cached(writes: Writes, table_id: str, token: str | None) -> Participant | None:
    """:func:`authenticate` from memory alone (no I/O): the participant if the table is held
    and the token matches one of its participants, else ``None``."""
    if not token:
        return None
    cached = writes.cached(table_id)
    return None if cached is None else _match(cached, hash_secret(token))


def participants(writes: Writes, table_id: str) -> list[Participant]:
    """Everyone at the table: the GM first, then players and spectators by name; those who
    left or were removed last."""
    cached = writes.reload_participants(table_id, writes.current(table_id))
    people = [participant for participant, _ in cached.participants.values()]
    return [p for p in people if not p.removed] + [p for p in people if p.removed]


def invite_role(writes: Writes, table_id: str, invite: str) -> Role:
    """The role an invite code of the table gives (compared in constant time);
    ``table.bad_invite`` for a code the table does not have (or no longer has)."""
    writes.current(table_id)
    wanted = hash_secret(invite or "")
    with writes.engine.connect() as conn:
        invites = conn.execute(
            select(InviteRow.role, InviteRow.code_hash).where(InviteRow.table_id == table_id)
        ).all()
    role: Role | None = None
    for found, code_hash in invites:
        if hmac.compare_digest(code_hash, wanted):
            role = Role(found)
    if role is None:
        raise StoreError("table.bad_invite", table=table_id)
    return role


def join(writes: Writes, table_id: str, invite: str, name: str) -> Joined:
    """Join a table with an invite code: a new participant in the invite's role."""
    role = invite_role(writes, table_id, invite)
    name = check_text(name, "table.bad_name", MAX_NAME)
    participant = Participant(new_id(), name, role)
    token = new_secret()

    def add(write: Write) -> None:
        write.conn.execute(
            insert(ParticipantRow).values(
                table_id=table_id,
                id=participant.id,
                name=name,
                role=role.value,
                token_hash=hash_secret(token),
            )
        )
        writes.people_changed(write)

    writes.write(table_id, add)
    return Joined(participant, token)


def remove_participant(
    writes: Writes, table_id: str, by: Participant, participant_id: str
) -> Participant:
    """Remove a participant (the GM), or leave the table (``by`` names itself); see
    :meth:`spieltisch.store.events.EventStore.remove_participant`."""
    if by.role is not Role.GM and by.id != participant_id:
        raise RuleError("rule.forbidden", action="remove")

    def remove(write: Write) -> Participant:
        present(write, by)
        found = write.cached.participants.get(participant_id)
        if found is None or found[0].removed:
            raise StoreError(
                "table.unknown_participant", table=table_id, participant=participant_id
            )
        target = found[0]
        if target.role is Role.GM:
            raise RuleError("table.gm_stays")
        write.conn.execute(
            update(ParticipantRow)
            .where(ParticipantRow.table_id == table_id, ParticipantRow.id == participant_id)
            .values(removed=True, token_hash=hash_secret(new_secret()))
        )
        writes.people_changed(write)
        return replace(target, removed=True)

    return writes.write(table_id, remove)


def gone(cached: Cached) -> frozenset[str]:
    """The participants who left or were removed (their pieces are nobody's now)."""
    return frozenset(p.id for p, _ in cached.participants.values() if p.removed)


def new_invites(writes: Writes, table_id: str, by: Participant) -> dict[str, str]:
    """Fresh invite codes for every role (GM only); the old codes stop working."""
    if by.role is not Role.GM:
        raise RuleError("rule.forbidden", action="invites")
    invites = {role.value: new_secret() for role in (Role.PLAYER, Role.SPECTATOR)}

    def rotate(write: Write) -> None:
        present(write, by)
        for role, code in invites.items():
            write.conn.execute(
                update(InviteRow)
                .where(InviteRow.table_id == table_id, InviteRow.role == role)
                .values(code_hash=hash_secret(code))
            )

    writes.write(table_id, rotate)
    return invites


def _match(cached: Cached, wanted: str) -> Participant | None:
    found = None
    for participant, stored in cached.participants.values():
        if hmac.compare_digest(stored, wanted) and not participant.removed:
            found = participant
    return found
