"""What clients see: the full state of a room and the patches events carry.

A client keeps the full state it was sent and applies each event to it by
plain merging (docs/protocol.md), so every event carries the new values of
what changed rather than a description of the change: a client that applies
the events it missed ends with exactly the state a fresh client gets.
"""

from rooms import race, together
from rooms.models import Member, Room, Round, epoch_ms


def room_json(room: Room, members: list[Member]) -> dict:
    host = next((m.seat for m in members if m.player_id == room.host_id), None)
    return {
        "code": room.code,
        "status": room.status,
        "host_seat": host,
        "settings": room.settings,
        "locked": room.locked,
    }


def members_json(members: list[Member]) -> list[dict]:
    return [{"seat": m.seat, "name": m.name, "bot": m.bot_level} for m in members]


def racer_json(state: race.Race, racer: race.Racer, faces: bool) -> dict:
    board = racer.board(state.layout)
    out = {
        "seat": racer.seat,
        "name": racer.name,
        "bot": racer.bot,
        "status": racer.status,
        "matches": racer.matches,
        "moves": len(racer.steps),
        # Bit i set: tile i still stands. Hex keeps a Turtle under 40 chars.
        "standing": format(board.standing, "x"),
        "stuck": racer.playing and not board.has_move(),
        "penalty_ms": racer.penalty_ms,
        "shuffles": racer.shuffles,
        "end_ms": racer.end_ms,
        "reached_ms": racer.reached_ms,
    }
    if faces:
        out["faces"] = list(racer.faces)
    return out


def standings_json(state: race.Race) -> list[dict]:
    return [
        {
            "seat": p.seat,
            "place": p.place,
            "status": p.status,
            "ms": p.ms,
            "matches": p.matches,
            "reached_ms": p.reached_ms,
        }
        for p in race.standings(state)
    ]


def clock_json(state: race.Race) -> dict:
    return {
        "status": state.status,
        "paused": state.paused,
        "banked_ms": state.clock.banked_ms,
        "running_since": epoch_ms(state.clock.running_since),
        "limit_ms": state.limit_ms,
    }


def together_json(state: together.Together) -> dict:
    """Everything a client sees of a Together game; the "together" event
    carries all of it. Never the bots' plan or their timings."""
    board = state.board()
    lead = together.lead(state)
    return {
        "status": state.status,
        "paused": state.paused,
        "banked_ms": state.clock.banked_ms,
        "running_since": epoch_ms(state.clock.running_since),
        "limit_ms": None,
        "faces": list(state.faces),
        "relays": state.relays,
        "standing": format(board.standing, "x"),
        "turn_seat": state.turn_seat,
        "deadline_ms": state.deadline_ms,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "points": s.points,
                "lead": lead[s.seat],
                "turns": s.turns,
                "away": s.away,
                "left": s.left,
                "taken": [list(p) for p in together.taken(state, s.seat)],
                "sets": list(together.sets(state, s.seat)),
            }
            for s in state.seats
        ],
        "moves": [
            {
                "seat": m.seat,
                "pair": list(m.pair),
                "ms": m.ms,
                "points": m.points,
                "bonus": m.bonus,
                "stuck": m.stuck,
                "penalty": m.penalty,
            }
            for m in state.moves
        ],
        "watchers": [
            {"seat": w.seat, "name": w.name, "bot": w.bot} for w in state.watchers
        ],
        "standings": [
            {
                "seat": p.seat,
                "place": p.place,
                "points": p.points,
                "turns": p.turns,
                "average_ms": p.average_ms,
            }
            for p in together.standings(state)
        ],
    }


def round_json(rnd: Round, state: race.Race | together.Together) -> dict:
    head = {
        "number": rnd.number,
        "mode": rnd.mode,
        "pile": rnd.pile,
        "layout": {"slug": rnd.layout_slug, "name": rnd.layout_name},
        "positions": rnd.positions,
        "faces": rnd.faces,
        "dealt_at": epoch_ms(rnd.dealt_at),
    }
    if isinstance(state, together.Together):
        return {**head, **together_json(state)}
    return {
        **head,
        **clock_json(state),
        "racers": [racer_json(state, r, faces=True) for r in state.racers],
        "standings": standings_json(state),
    }


def race_patch(old: race.Race, new: race.Race) -> dict:
    """The "race" event: the racers that changed (with their faces only when
    those changed), the race-wide clock and the standings."""
    before = {r.seat: r for r in old.racers}
    racers = []
    for r in new.racers:
        prev = before.get(r.seat)
        if prev != r:
            faces = prev is None or prev.faces != r.faces
            racers.append(racer_json(new, r, faces=faces))
    return {**clock_json(new), "racers": racers, "standings": standings_json(new)}


def full_state(
    room: Room,
    members: list[Member],
    rnd: Round | None,
    state: race.Race | together.Together | None,
) -> dict:
    return {
        "version": room.version,
        "room": room_json(room, members),
        "members": members_json(members),
        "round": None if rnd is None or state is None else round_json(rnd, state),
    }
