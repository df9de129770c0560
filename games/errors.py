"""The errors of an action, named by what went wrong, for solo runs and rooms.

Each carries the protocol's `code` and a message a person can read; the
API answers Refused with 400 and the others with 409 (a run's or a room's
own lookups answer 404 and 403 on their pages). Pure Python, as the rules
that raise them.
"""


class ActionError(Exception):
    """An action the rules or the room refuse; `code` is the API's code."""

    def __init__(self, code: str, message: str, tile: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.tile = tile


class Refused(ActionError):
    """The request itself is wrong: an illegal pair, a bad choice."""


class Conflict(ActionError):
    """The request does not fit the current state (finished, stale, busy)."""


class NotFound(ActionError):
    """No such room (or it has closed)."""

    def __init__(self, message: str = "no such room") -> None:
        super().__init__("not_found", message)


class Forbidden(ActionError):
    """Not this person's to do: not seated, not the host, removed."""
