"""An application that is gone leaves nothing behind: its store, tables and routes are freed.

FastAPI keeps the callables of every route in process-wide caches. A route defined as a
closure inside ``create_app`` would be held there with everything it closes over, so every
application a process ever made (a server restarted in the same process, each test's) would
stay in memory with its store and its cached tables.
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from asgi_client import TestClient
from spieltisch.web.app import create_app


def _used_app(folder: Path) -> weakref.ref[object]:
    """An application that served its pages, its API and a table, then was dropped."""
    app = create_app(db_path=str(folder / "gone.sqlite"))
    with TestClient(app) as client:
        for url in ("/", "/docs", "/openapi.json", "/static/js/table.js"):
            assert client.get(url).status_code == 200, url
        created = client.post("/api/tables", json={"system": "free-dice"}).json()
        token = {"Authorization": f"Bearer {created['token']}"}
        assert client.get(f"/api/tables/{created['table']}", headers=token).status_code == 200
    return weakref.ref(app)


def test_an_application_is_freed_once_dropped(tmp_path: Path) -> None:
    gone = _used_app(tmp_path)
    gc.collect()
    assert gone() is None, [type(r).__name__ for r in gc.get_referrers(gone())]
