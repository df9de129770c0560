"""A Together state as the JSON kept on its Round row, and back.

The layout, seed, deal time and shared clock have columns of their own on
the round; everything else of the state (current faces, seats, moves, turn,
the bots' plan) is one JSON object here. That object is storage only: what
clients see is built by rooms.state, which leaves the plan out.
"""

from dataclasses import asdict
from datetime import datetime

from games.engine.layout import Layout
from games.play import Clock
from rooms.together import PLAYING, Move, Seat, Together, Watcher


def dump(state: Together) -> dict:
    return {
        "faces": list(state.faces),
        "seats": [asdict(s) for s in state.seats],
        "moves": [{**asdict(m), "pair": list(m.pair)} for m in state.moves],
        "turn": state.turn,
        "turn_no": state.turn_no,
        "turn_start_ms": state.turn_start_ms,
        "status": state.status,
        "relays": state.relays,
        "plan": [list(p) for p in state.plan],
        "watchers": [asdict(w) for w in state.watchers],
    }


def load(
    layout: Layout,
    seed: str,
    dealt_at: datetime,
    clock: Clock,
    paused: bool,
    data: dict,
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
