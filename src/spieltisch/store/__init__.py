"""The event store: tables, participants and logs in SQLite (default) or PostgreSQL."""

from spieltisch.store.db import DATABASE_URL_VARIABLE, default_database_path, resolve_url
from spieltisch.store.events import (
    EXPORT_FORMAT,
    Created,
    EventStore,
    Executed,
    Joined,
    Participant,
    StoredTable,
    StoreError,
    TableInfo,
)

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
