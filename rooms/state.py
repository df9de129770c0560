"""What clients see: the full state of a room and the patches events carry.

A client keeps the full state it was sent and applies each event to it by
plain merging (docs/protocol.md), so every event carries the new values of
what changed rather than a description of the change: a client that applies
the events it missed ends with exactly the state a fresh client gets.
"""

from typing import NotRequired, TypedDict

from rooms import race, together
from rooms.models import Member, Room, Round, epoch_ms

# What clients are sent, message by message (docs/protocol.md).


class RoomJson(TypedDict):
    code: str
    status: str
    host_seat: int | None
    settings: dict[str, object]
    locked: bool


class SeatedJson(TypedDict):
    """A member of the room, or a watcher of a Together game."""

    seat: int
    name: str
    bot: str


class RacerJson(TypedDict):
    seat: int
    name: str
    bot: str
    status: str
    matches: int
    moves: int
    standing: str
    stuck: bool
    penalty_ms: int
    shuffles: int
    end_ms: int | None
    reached_ms: int
    faces: NotRequired[list[str]]  # only when they changed


class PlaceJson(TypedDict):
    seat: int
    place: int
    status: str
    ms: int | None
    matches: int
    reached_ms: int


class ClockJson(TypedDict):
    status: str
    paused: bool
    banked_ms: int
    running_since: int | None
    limit_ms: int | None


class TogetherSeatJson(TypedDict):
    seat: int
    name: str
    bot: str
    points: int
    lead: int
    turns: int
    away: bool
    left: bool
    taken: list[list[str]]
    sets: list[str]


class TogetherMoveJson(TypedDict):
    seat: int
    pair: list[int]
    ms: int
    points: int
    bonus: bool
    stuck: bool
    penalty: int


class TogetherPlaceJson(TypedDict):
    seat: int
    place: int
    points: int
    turns: int
    average_ms: int


class TogetherJson(ClockJson):
    faces: list[str]
    relays: int
    standing: str
    turn_seat: int | None
    deadline_ms: int | None
    seats: list[TogetherSeatJson]
    moves: list[TogetherMoveJson]
    watchers: list[SeatedJson]
    standings: list[TogetherPlaceJson]


class LayoutJson(TypedDict):
    slug: str
    name: str


class RoundHead(TypedDict):
    number: int
    mode: str
    pile: str
    layout: LayoutJson
    positions: list[list[int]]
    faces: list[str]
    dealt_at: int | None


class RacePatch(ClockJson):
    racers: list[RacerJson]
    standings: list[PlaceJson]


class RaceRoundJson(RoundHead, RacePatch):
    pass


class TogetherRoundJson(RoundHead, TogetherJson):
    pass


class FullState(TypedDict):
    version: int
    room: RoomJson
    members: list[SeatedJson]
    round: RaceRoundJson | TogetherRoundJson | None


def room_json(room: Room, members: list[Member]) -> RoomJson:
    host = next((m.seat for m in members if m.player_id == room.host_id), None)
    return {
        "code": room.code,
        "status": room.status,
        "host_seat": host,
        "settings": room.settings,
        "locked": room.locked,
    }


def members_json(members: list[Member]) -> list[SeatedJson]:
    return [{"seat": m.seat, "name": m.name, "bot": m.bot_level} for m in members]


def racer_json(state: race.Race, racer: race.Racer, faces: bool) -> RacerJson:
    board = racer.board(state.layout)
    out: RacerJson = {
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


def standings_json(state: race.Race) -> list[PlaceJson]:
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


def clock_json(state: race.Race) -> ClockJson:
    return {
        "status": state.status,
        "paused": state.paused,
        "banked_ms": state.clock.banked_ms,
        "running_since": epoch_ms(state.clock.running_since),
        "limit_ms": state.limit_ms,
    }


def together_json(state: together.Together) -> TogetherJson:
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


def round_json(
    rnd: Round, state: race.Race | together.Together
) -> RaceRoundJson | TogetherRoundJson:
    head: RoundHead = {
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


def race_patch(old: race.Race, new: race.Race) -> RacePatch:
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
) -> FullState:
    return {
        "version": room.version,
        "room": room_json(room, members),
        "members": members_json(members),
        "round": None if rnd is None or state is None else round_json(rnd, state),
    }
