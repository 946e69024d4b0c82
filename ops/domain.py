"""The one shape of every app's domain errors (tests/test_error_shape.py).

A domain error is a refusal the services raise on bad input or a state that forbids
the action; interfaces turn it into a form error, an HTTP 4xx, an htmx fragment or
a websocket error frame, and nothing was half-written. Each carries:

- `code`: a stable snake_case word clients and interfaces decide on;
- `params`: JSON-ready facts (the table, the amount, ...);
- `message`: safe to show to the user, in the active language. It is kept lazy
  (`lazy_message`) and rendered when read, so each interface renders it in its own
  user's language.

Each app has one base (`GameError`, `EconomyError`, ...) with its own code and
default message; its errors subclass it.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    code = "error"
    default_message: Any = ""

    def __init__(self, message: Any = None, **params: Any) -> None:
        self.lazy_message = message if message is not None else self.default_message
        self.params: dict[str, Any] = params
        super().__init__(str(self.lazy_message))

    @property
    def message(self) -> str:
        """The message in the active language."""
        return str(self.lazy_message)
