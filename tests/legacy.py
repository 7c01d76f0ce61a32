"""Tables of format 2, whose draws are numbered across the whole log.

Every table made before dice streams is one, and stays one (it keeps its derivation, so its
dice verify for ever); a store makes new ones only by importing a format-2 export. The empty
export here is the smallest such import: a table of that format with no record yet, whose
first epoch the store commits to afresh.
"""

from __future__ import annotations

from spieltisch.store import EventStore
from spieltisch.store.types import Created


def log_format_table(store: EventStore, system: str, *, language: str = "en") -> Created:
    """A new, empty table of format 2 in ``store`` (the caller is its GM)."""
    return store.import_table(
        {
            "format": "spieltisch-table/2",
            "table": "vor-den-stroemen",
            "system": system,
            "options": {},
            "language": language,
            "fair": {"epochs": [{"start": 0, "commitment": "00" * 32, "seed": None}]},
            "participants": [],
            "records": [],
        }
    )
