"""The rules of a solo run as a pure state machine.

Every event is a function (state, ..., now) -> new state that raises
ActionError when the event is not allowed, named by its code (games.wording
words it); nothing here imports Django, touches the database or reads the
time, so the rules can be tested with any clock. The board itself is
never stored: it is rebuilt by replaying the move log on the engine, so a log
that the engine refuses can never become a position.

The clock is "time banked + when it last started" (like a chess clock), never
a ticking counter: elapsed time is computed from `now` whenever it is asked for.
"""

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import lru_cache
from typing import TypedDict, Unpack

from games.engine.board import Board, MoveError
from games.engine.hint import Hint, clearing_order, still_to_take
from games.engine.hint import hint as engine_hint
from games.engine.layout import Layout, Position
from games.engine.safety import SAFETY_NODES, Safety, find_safety
from games.engine.shuffle import shuffle as engine_shuffle
from games.engine.solver import Solver
from games.errors import Conflict, Refused

Pair = tuple[int, int]

# The pile builds itself on screen for about this long after a deal or a
# restart; the clock starts when it is done.
BUILD_DELAY_MS = 1500

PLAYING = "playing"
PAUSED = "paused"
WON = "won"
LOST = "lost"
IN_PLAY = (PLAYING, PAUSED)


_MS = timedelta(milliseconds=1)


def _ms(delta: timedelta) -> int:
    return delta // _MS  # one millisecond made once: a move asks a few times


@dataclass(frozen=True)
class Clock:
    banked_ms: int = 0
    # When the clock last started; None while stopped. May lie in the future
    # while the pile is still building.
    running_since: datetime | None = None

    @classmethod
    def dealt(cls, now: datetime) -> "Clock":
        return cls(0, now + timedelta(milliseconds=BUILD_DELAY_MS))

    def elapsed_ms(self, now: datetime) -> int:
        if self.running_since is None:
            return self.banked_ms
        return self.banked_ms + max(0, _ms(now - self.running_since))

    def stopped(self, now: datetime) -> "Clock":
        return Clock(self.elapsed_ms(now), None)

    def started(self, now: datetime) -> "Clock":
        """Running from now on; a player who acts while the pile is still
        building starts the clock at once."""
        if self.running_since is None or self.running_since > now:
            return Clock(self.banked_ms, now)
        return self


@lru_cache(maxsize=64)
def layout_of(slug: str, name: str, positions: tuple[Position, ...]) -> Layout:
    """The layout of a run's snapshot; cached since building it is the cost."""
    return Layout(slug=slug, name=name, positions=positions)


@dataclass(frozen=True)
class RunState:
    layout: Layout
    faces: tuple[str, ...]  # current faces, after any shuffles
    initial_faces: tuple[str, ...]  # as dealt, for a restart
    moves: tuple[Pair, ...]
    status: str
    clock: Clock
    can_shuffle: bool
    hints: int = 0
    shuffles: int = 0
    undos: int = 0
    # The deal's clearing order as dealt: a hint uses what is left of it
    # while every pair taken so far is one of its pairs.
    witness: tuple[Pair, ...] = ()
    # The clock's reading when each pair of `moves` was taken, from the
    # server's clock: the pace of a clear (games.pace).
    move_ms: tuple[int, ...] = ()

    @property
    def clean(self) -> bool:
        """Only clean clears set a best time."""
        return self.hints == 0 and self.shuffles == 0

    @property
    def in_play(self) -> bool:
        return self.status in IN_PLAY

    def board(self) -> Board:
        """The position now: the deal with every logged pair taken again."""
        board = Board(self.layout, self.faces)
        for a, b in self.moves:
            board.take(a, b)
        return board


def deal(
    layout: Layout, faces: tuple[str, ...], can_shuffle: bool, now: datetime
) -> RunState:
    return RunState(
        layout=layout,
        faces=faces,
        initial_faces=faces,
        moves=(),
        status=PLAYING,
        clock=Clock.dealt(now),
        can_shuffle=can_shuffle,
    )


def _require_play(state: RunState) -> None:
    if not state.in_play:
        raise Conflict("finished")


def _require_move(state: RunState, move: int) -> None:
    if move != len(state.moves):
        params = {"taken": len(state.moves), "move": move}
        raise Conflict("stale", says="run_stale", params=params)


def _acting(state: RunState, now: datetime) -> Clock:
    """The clock once the player acts: a move on a paused run resumes it."""
    return state.clock.started(now)


def take(state: RunState, a: int, b: int, move: int, now: datetime) -> RunState:
    """Take the pair (a, b); `move` is how many pairs the client saw taken.

    Repeating the last pair with its own move number (a retried request)
    changes nothing, so a client may safely send a take twice.
    """
    retried = state.moves and move == len(state.moves) - 1
    if retried and sorted(state.moves[-1]) == sorted((a, b)):
        return state
    _require_play(state)
    _require_move(state, move)
    board = state.board()
    try:
        board.take(a, b)
    except MoveError as e:
        raise Refused(e.reason, str(e), e.tile) from None
    clock = _acting(state, now)
    status = PLAYING
    if board.cleared:
        status, clock = WON, clock.stopped(now)
    return replace(
        state,
        moves=(*state.moves, (a, b)),
        move_ms=(*state.move_ms, clock.elapsed_ms(now)),
        status=status,
        clock=clock,
    )


def undo(state: RunState, move: int, now: datetime) -> RunState:
    """Put the last pair back; unlimited, and it keeps a run clean."""
    _require_play(state)
    _require_move(state, move)
    if not state.moves:
        raise Refused("empty", says="run_empty")
    return replace(
        state,
        moves=state.moves[:-1],
        move_ms=state.move_ms[:-1],
        undos=state.undos + 1,
        status=PLAYING,
        clock=_acting(state, now),
    )


def hint(state: RunState, now: datetime) -> tuple[RunState, Hint]:
    """The engine's best pair; counted (and the run no longer clean) only
    when there is a pair to show."""
    _require_play(state)
    clearing = None
    if state.faces == state.initial_faces:  # no shuffle since the deal
        clearing = still_to_take(state.witness, state.moves)
    found = engine_hint(state.board(), clearing=clearing)
    if found.pair is None:
        return state, found
    new = replace(
        state, hints=state.hints + 1, status=PLAYING, clock=_acting(state, now)
    )
    return new, found


def _witness(state: RunState) -> tuple[Pair, ...]:
    """The deal's clearing order while it still fits the faces: a shuffle
    re-lays them, and then it no longer does."""
    return state.witness if state.faces == state.initial_faces else ()


class _Rewound(TypedDict, total=False):
    """What a help may change in a run besides counting it: back to safety
    takes pairs off the log, counted as undos."""

    moves: tuple[Pair, ...]
    undos: int


def _helped(state: RunState, now: datetime, **changes: Unpack[_Rewound]) -> RunState:
    """A help (back to safety, a way through) counts like a hint: the run
    sets no best time. On a finished run nothing is counted."""
    if not state.in_play:
        return state
    clock = _acting(state, now)
    return replace(state, hints=state.hints + 1, status=PLAYING, clock=clock, **changes)


def safety(state: RunState, budget: int = SAFETY_NODES) -> Safety:
    """Where along this run's history the pile could last be cleared."""
    return find_safety(state.layout, state.faces, state.moves, _witness(state), budget)


def back_to_safety(state: RunState, now: datetime) -> tuple[RunState, Safety]:
    """Undo, in one step, to the latest position of the run that can still
    be cleared. Nothing changes (and nothing is counted) while the pile can
    still be cleared, or when the search ran out of budget undecided."""
    _require_play(state)
    found = safety(state)
    back = found.pairs_back
    if not back:
        return state, found
    moves = state.moves[: found.safe]
    return _helped(state, now, moves=moves, undos=state.undos + back), found


def where_it_turned(state: RunState) -> Safety:
    """For a finished run only: while it is in play this would be a hint."""
    if state.in_play:
        raise Conflict("in_play")
    return safety(state)


@dataclass(frozen=True)
class Way:
    """A clearing to watch: from the position now, or else from the deal as
    dealt (`faces` then says how it lay)."""

    pairs: tuple[Pair, ...]
    from_start: bool
    faces: tuple[str, ...]


def _clearing(state: RunState, moves: tuple[Pair, ...]) -> list[Pair] | None:
    """A clearing of the position after `moves`: what is left of the
    witness when play kept to it, else the solver's; None when the position
    cannot be cleared or the search ran out of budget."""
    board = Board(state.layout, state.faces)
    for a, b in moves:
        board.take(a, b)
    known = still_to_take(_witness(state), moves)
    order = clearing_order(board, known) if known is not None else None
    if order is None:
        found = Solver(board).solve(max_nodes=SAFETY_NODES)
        # A solution is there exactly when the search found the pile clearable.
        order = list(found.solution) if found.solution is not None else None
    return order


def way_through(state: RunState, now: datetime) -> tuple[RunState, Way]:
    """A way through from the current position when it can still be cleared,
    else from the start of the deal (its witness); counted as help in play."""
    order = _clearing(state, state.moves)
    if order is None:
        way = Way(state.witness, True, state.initial_faces)
    else:
        way = Way(tuple(order), False, state.faces)
    return _helped(state, now), way


def warning(state: RunState, now: datetime) -> tuple[RunState, bool]:
    """Whether the last pair made the pile unclearable, for players who
    asked to be told. Said once: a pile already lost before that pair gets
    no warning. Counted as help when it warns (that is when it helps)."""
    _require_play(state)
    if not state.moves:
        return state, False
    board = state.board()
    found = Solver(board).solve(max_nodes=SAFETY_NODES)
    if found.solvable is not False or _clearing(state, state.moves[:-1]) is None:
        return state, False
    return _helped(state, now), True


def shuffle(state: RunState, seed: str, now: datetime) -> RunState:
    """Re-lay the standing faces so the pile clears (where the mode allows)."""
    _require_play(state)
    if not state.can_shuffle:
        raise Refused("no_shuffle")
    result = engine_shuffle(state.board(), seed)
    if result.faces is None:
        raise Conflict("no_order", says="run_no_order")
    return replace(
        state,
        faces=result.faces,
        shuffles=state.shuffles + 1,
        status=PLAYING,
        clock=_acting(state, now),
    )


def restart(state: RunState, now: datetime) -> RunState:
    """The same deal from the start with a new clock, from any status (the
    result screen offers it too). Hints and shuffles already used on this
    deal stay counted: seeing its answer once spoils a clean clear of it."""
    return replace(
        state,
        faces=state.initial_faces,
        moves=(),
        move_ms=(),
        status=PLAYING,
        clock=Clock.dealt(now),
    )


def give_up(state: RunState, now: datetime) -> RunState:
    _require_play(state)
    return replace(state, status=LOST, clock=state.clock.stopped(now))


def pause(state: RunState, now: datetime) -> RunState:
    _require_play(state)
    return replace(state, status=PAUSED, clock=state.clock.stopped(now))


def resume(state: RunState, now: datetime) -> RunState:
    _require_play(state)
    if state.status == PLAYING:
        return state
    return replace(state, status=PLAYING, clock=state.clock.started(now))
