"""Fields added to the table's commands, events and creatures after logs were written.

A log replays by deciding its commands again and comparing what comes out, as JSON, with
what was logged. A field added later with a default would show up in every replayed record
and differ from the old one; a model lists such fields in ``later`` and leaves them out of its
JSON while they hold their default, so old records read and replay as they were written.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, SerializerFunctionWrapHandler, model_serializer

__all__ = ["Later"]


class Later(BaseModel):
    """A model whose ``later`` fields are left out of its JSON while at their default."""

    later: ClassVar[frozenset[str]] = frozenset()

    @model_serializer(mode="wrap")
    def _without_later_defaults(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            fields = type(self).model_fields
            for name in self.later:
                if name in data and getattr(self, name) == fields[name].get_default(
                    call_default_factory=True
                ):
                    del data[name]
        return data
