"""The web table: HTTP and WebSocket API (and, later, the pages) around the event store."""

from spieltisch.web.app import create_app

__all__ = ["create_app"]
