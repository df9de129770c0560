"""A Together state as the JSON kept on its Round row, and back.

The layout, seed, deal time and shared clock have columns of their own on
the round; everything else of the state (current faces, seats, moves, turn,
the bots' plan) is one JSON object here. That object is storage only: what
clients see is built by rooms.state, which leaves the plan out.

`dumps` writes its keys in the order PostgreSQL's jsonb keeps them (by
length, then bytes) and its text as jsonb prints it, so the text a move
writes is the text the next move reads back: rooms.sql then knows the
state without decoding it again.
"""

import json
from datetime import datetime
from typing import Any

from games.engine.layout import Layout
from games.play import Clock
from rooms.together import PLAYING, Move, Seat, Together, Watcher


def _jsonb_order(names: Any) -> tuple[str, ...]:
    return tuple(sorted(names, key=lambda name: (len(name.encode()), name.encode())))


_SEAT = _jsonb_order(Seat.__dataclass_fields__)
_MOVE = _jsonb_order(Move.__dataclass_fields__)
_WATCHER = _jsonb_order(Watcher.__dataclass_fields__)
_STATE = _jsonb_order(
    ("faces", "seats", "moves", "turn", "turn_no", "turn_start_ms")
    + ("status", "relays", "plan", "watchers")
)


def _fields(record: Seat | Move | Watcher, order: tuple[str, ...]) -> dict[str, Any]:
    """A record's fields by name, in `order`. These records hold plain
    values only, so this is what dataclasses.asdict gives without its
    recursive copy, which was a third of a Together move's CPU."""
    values = vars(record)
    return {name: values[name] for name in order}


def dump(state: Together) -> dict[str, Any]:
    moves = [_fields(m, _MOVE) for m in state.moves]
    for move in moves:
        move["pair"] = list(move["pair"])
    fields = {
        "faces": list(state.faces),
        "seats": [_fields(s, _SEAT) for s in state.seats],
        "moves": moves,
        "turn": state.turn,
        "turn_no": state.turn_no,
        "turn_start_ms": state.turn_start_ms,
        "status": state.status,
        "relays": state.relays,
        "plan": [list(p) for p in state.plan],
        "watchers": [_fields(w, _WATCHER) for w in state.watchers],
    }
    return {name: fields[name] for name in _STATE}


def dumps(state: Together) -> str:
    """`dump` as JSON text, as jsonb prints it (non-ASCII as it is)."""
    return json.dumps(dump(state), ensure_ascii=False)


def load(
    layout: Layout,
    seed: str,
    dealt_at: datetime,
    clock: Clock,
    paused: bool,
    data: dict[str, Any],
) -> Together:
    return Together(
        layout=layout,
        faces=tuple(data["faces"]),
        seed=seed,
        dealt_at=dealt_at,
        clock=clock,
        seats=tuple(Seat(**s) for s in data["seats"]),
        moves=tuple(
            Move(**{**m, "pair": tuple(m["pair"])}) for m in data.get("moves", ())
        ),
        turn=data.get("turn"),
        turn_no=data.get("turn_no", 0),
        turn_start_ms=data.get("turn_start_ms", 0),
        status=data.get("status", PLAYING),
        paused=paused,
        relays=data.get("relays", 0),
        plan=tuple(tuple(p) for p in data.get("plan", ())),
        watchers=tuple(Watcher(**w) for w in data.get("watchers", ())),
    )
