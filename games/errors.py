"""The errors of an action, named by what went wrong, for solo runs and rooms.

Each carries the protocol's `code`; the API answers Refused with 400 and
the others with 409 (a run's or a room's own lookups answer 404 and 403 on
their pages). Pure Python, as the rules that raise them: a rule names the
sentence that tells a person why (`says`, with the values it quotes in
`params`) and never words it. The edges word it in the page's language
(games.wording, rooms.wording: gettext, the page's digits), registered here
when their apps are ready; an edge that refuses in its own words gives the
`message` itself.
"""

from collections.abc import Callable, Mapping

# A sentence's wording: from the values it quotes to the text, in the
# language active when it is read.
Wording = Callable[[Mapping[str, int]], str]

_wordings: dict[str, Wording] = {}


def add_wordings(wordings: Mapping[str, Wording]) -> None:
    """Word these sentences from now on (an app's ready() calls this)."""
    _wordings.update(wordings)


class ActionError(Exception):
    """An action the rules or the room refuse; `code` is the API's code."""

    def __init__(
        self,
        code: str,
        message: str | None = None,
        tile: int | None = None,
        *,
        says: str | None = None,
        params: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__(code if message is None else message)
        self.code = code
        self.says = says or code
        self.params: Mapping[str, int] = params or {}
        self.tile = tile
        self._message = message

    @property
    def message(self) -> str:
        """What a person is told, worded when asked (in the language then
        active); the sentence's name when nothing words it."""
        if self._message is not None:
            return self._message
        wording = _wordings.get(self.says)
        return self.says if wording is None else wording(self.params)


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
