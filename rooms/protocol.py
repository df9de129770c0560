"""The shape of every message a client may send (docs/protocol.md).

A message is a JSON object with a "type", an optional "ref" the reply
echoes, and exactly the fields its type lists; anything else is refused
before it reaches an action.
"""

from dataclasses import dataclass

from rooms.bots import LEVELS
from rooms.deals import MODES, PILES
from rooms.race import LIMIT_MINUTES

MAX_MESSAGE_CHARS = 1024
MAX_REF_CHARS = 40
MAX_INT = 2**31 - 1


class BadMessage(ValueError):
    def __init__(self, message: str, ref=None) -> None:
        super().__init__(message)
        self.message = message
        self.ref = ref


@dataclass(frozen=True)
class Whole:
    """A whole number in [low, high] (JSON true/false are not numbers)."""

    low: int = 0
    high: int = MAX_INT

    def check(self, value) -> bool:
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and self.low <= value <= self.high
        )

    def describe(self) -> str:
        return f"a whole number from {self.low} to {self.high}"


@dataclass(frozen=True)
class OneOf:
    choices: tuple

    def check(self, value) -> bool:
        return any(value == c and type(value) is type(c) for c in self.choices)

    def describe(self) -> str:
        return "one of " + ", ".join(map(repr, self.choices))


TILE = Whole(0, 143)
COUNT = Whole(0, 10_000)

SCHEMAS: dict[str, dict] = {
    "take": {"a": TILE, "b": TILE, "move": COUNT},
    "undo": {"move": COUNT},
    "safety": {"move": COUNT},
    "hint": {},
    "shuffle": {},
    "stop": {},
    "pause": {},
    "resume": {},
    "end_now": {},
    "start_game": {},
    "deal": {
        "mode": OneOf(MODES),
        "pile": OneOf(tuple(PILES)),
        "limit": OneOf(LIMIT_MINUTES),
    },
    "add_bot": {"level": OneOf(LEVELS)},
    "remove_bot": {"seat": COUNT},
    "remove": {"seat": COUNT},
    "lock": {"locked": OneOf((True, False))},
    "leave": {},
    "visible": {"visible": OneOf((True, False))},
    "sync": {"since": Whole(0, 2**53)},
    "ping": {},
}


def _ref(message: dict):
    ref = message.get("ref")
    if ref is None:
        return None
    if isinstance(ref, str) and len(ref) <= MAX_REF_CHARS:
        return ref
    if Whole().check(ref):
        return ref
    raise BadMessage(f"'ref' must be a string of up to {MAX_REF_CHARS} characters")


def validate(message) -> tuple[str, dict, object]:
    """(type, fields, ref) of a well-formed message; BadMessage otherwise."""
    if not isinstance(message, dict):
        raise BadMessage("a message must be a JSON object")
    ref = _ref(message)
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise BadMessage(f"unknown message type {kind!r}", ref)
    schema = SCHEMAS[kind]
    extra = set(message) - set(schema) - {"type", "ref"}
    if extra:
        raise BadMessage(f"unexpected fields: {', '.join(sorted(extra))}", ref)
    fields = {}
    for name, rule in schema.items():
        if name not in message:
            raise BadMessage(f"'{name}' is missing", ref)
        if not rule.check(message[name]):
            raise BadMessage(f"'{name}' must be {rule.describe()}", ref)
        fields[name] = message[name]
    return kind, fields, ref
