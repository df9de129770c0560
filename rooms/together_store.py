"""A Together state as the JSON kept on its Round row, and back.

The layout, seed, deal time and shared clock have columns of their own on
the round; everything else of the state (current faces, seats, moves, turn,
the bots' plan) is one JSON object here. That object is storage only: what
clients see is built by rooms.state, which leaves the plan out.
"""

from dataclasses import fields
from datetime import datetime
from typing import Any

from games.engine.layout import Layout
from games.play import Clock
from rooms.together import PLAYING, Move, Seat, Together, Watcher


def _names(record: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(record))


_SEAT = _names(Seat)
_MOVE = _names(Move)
_WATCHER = _names(Watcher)


def _fields(record: Seat | Move | Watcher, order: tuple[str, ...]) -> dict[str, Any]:
    """A record's fields by name (`order`, its fields' names). These records hold plain
    values only, so this is what dataclasses.asdict gives without its
    recursive copy, which was a third of a Together move's CPU."""
    values = vars(record)
    return {name: values[name] for name in order}


def dump(state: Together) -> dict[str, Any]:
    moves = [_fields(m, _MOVE) for m in state.moves]
    for move in moves:
        move["pair"] = list(move["pair"])
    return {
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
