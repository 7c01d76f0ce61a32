"""The event store: tables, participants and logs in SQLite (default) or PostgreSQL.

The parts: :mod:`.events` (the :class:`EventStore` facade), and one module per job behind it:
:mod:`.writes` (the write path), :mod:`.loading` (reading a table), :mod:`.tables` (a table's
life), :mod:`.people` (participants and invites), :mod:`.seeds` (the dice seeds), :mod:`.play`
(commands and undos). Beside them :mod:`.cache` (tables kept in memory), :mod:`.snapshots`
(folded states as JSON), :mod:`.exchange` (export and import documents), :mod:`.validation`
(checks of user input), :mod:`.types` (the values handed out), :mod:`.db` and :mod:`.models`
(the database and its tables).
"""

from spieltisch.store.cache import StoredTable
from spieltisch.store.db import DATABASE_URL_VARIABLE, default_database_path, resolve_url
from spieltisch.store.events import EventStore, Executed
from spieltisch.store.exchange import EXPORT_FORMAT
from spieltisch.store.types import Created, Joined, Participant, StoreError, TableInfo

__all__ = [
    "DATABASE_URL_VARIABLE",
    "EXPORT_FORMAT",
    "Created",
    "EventStore",
    "Executed",
    "Joined",
    "Participant",
    "StoreError",
    "StoredTable",
    "TableInfo",
    "default_database_path",
    "resolve_url",
]
