"""The rules of Together mode as a pure state machine.

One pile for the room, taken in turns. Every event is a function
(state, ..., now) -> new state that raises games.errors' Refused or
Conflict (an error with the protocol's `code`, naming the sentence that says
why; rooms.wording words it) when the rules refuse it. Nothing here imports
Django, touches the database or reads the time, so each rule can be tested
with a fake clock.

Time: one shared clock (games.play.Clock) that starts when the pile has
built and stops while the game is paused. Every time here (when a turn
began, when a pair was taken, a bot's move) is in milliseconds of that
clock, so a pause costs the turn nothing: on resume the turn has exactly the
time it had left. Whatever came due while nobody asked (a turn running out,
a bot's move) is applied at the moment it came due, by `run_due`, which
every event calls first; `wake_at` tells the timer process when to call it.

The board is never stored: it is the current faces with every pair of the
log taken again on the engine. A re-lay (the pile left stuck) replaces the
faces of the standing tiles only, so the log still replays.

Rule readings made here:
* Set bonus "4 extra (6 for a suit face, 8 otherwise)": the second pair of a
  group, taken by whoever took the first, scores 2 + 4 = 6 for a suit face
  and 4 + 4 = 8 for a wind, dragon, flower or season.
* A turn that passes with nothing taken counts 30 s in the average, whether
  it ran out, or its player went away or left during it. Turns skipped
  while away are not turns at all. A seat with no turns averages 30 s.
* When the standing spots admit no clearing order at all (the last tiles
  stacked), no re-lay can help: the game ends there, the penalty paid.
* Pause and resume are the room's (the caller checks who may); the bulb is
  the player's on their own turn. Moving and turning the pile is the
  client's alone and never reaches these rules.

What a client must see (the integration puts this into docs/protocol.md):
* the game: `status` ("playing" or "over"), `paused`, the shared clock
  (`banked_ms`, `running_since`) and the layout and current `faces` (they
  change on a re-lay; `relays` counts them), the standing tiles (bitmask of
  `board().standing`);
* `seats` in turn order, each with `seat`, `name`, `bot` level, `points`,
  `lead(state)[seat]` (points above the lowest at the table), `away`,
  `left`, the face pairs taken (`taken(state, seat)`) and the sets completed
  (`sets(state, seat)`);
* whose turn it is: `turn_seat` (None while nobody present can play) and its
  deadline `turn_start_ms + TURN_MS` on the shared clock;
* `moves`, the log: who took which pair, its points, whether it was a set
  bonus, and whether it left the pile stuck (with the points lost);
* `watchers`: who arrived late and gets a seat at the next deal;
* at the end, `standings(state)`: places, with ties sharing a place.
Never send `plan` (a way to clear the pile) or the bots' timings.
"""

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from fractions import Fraction
from functools import cached_property

from games.engine.board import Board, MoveError
from games.engine.faces import SUIT_FACES, group_of
from games.engine.hint import Hint, HintSearch
from games.engine.hint import hint as engine_hint
from games.engine.layout import Layout
from games.engine.rng import Rng
from games.engine.shuffle import shuffle as engine_shuffle
from games.errors import Conflict, Refused
from games.play import Clock
from rooms import positions
from rooms import together_bots as bots

Pair = tuple[int, int]

TURN_MS = 30_000
# How long a dropped connection may stay gone before its player counts as
# away: a reload, or a moment without signal on a phone, fits in it.
DROP_GRACE_MS = 10_000
SUIT_POINTS = 2
HONOUR_POINTS = 4  # winds, dragons, flowers and seasons
SET_BONUS = 4
STUCK_PENALTY = 4

PLAYING = "playing"
OVER = "over"


@dataclass(frozen=True)
class Seat:
    seat: int  # the member's seat number in the room
    name: str
    bot: str = ""  # a bot's level; "" for a person
    points: int = 0
    turns: int = 0  # turns played: a pair taken or the turn let pass
    turn_ms: int = 0  # their total, a turn with nothing taken counting 30 s
    away: bool = False  # off the game screen: skipped, points kept
    left: bool = False  # gone from the room: skipped for the rest of the deal
    # Their connection dropped: away from this shared-clock time unless they
    # are back before it (DROP_GRACE_MS), so a reload keeps their turn.
    gone_at_ms: int | None = None
    # Their latest connection, as the server names it ("" before any in this
    # game): only its drop counts (see drop).
    link: str = ""

    @property
    def present(self) -> bool:
        return not (self.away or self.left)


@dataclass(frozen=True)
class Move:
    seat: int
    pair: Pair  # (low, high) tile indices
    ms: int  # shared clock when it was taken
    points: int  # scored for the pair, set bonus included
    bonus: bool = False
    stuck: bool = False  # it left no pair, so the pile was laid out again
    penalty: int = 0  # points lost for that, after the floor at zero


@dataclass(frozen=True)
class Watcher:
    """Someone who arrived after the deal: they watch, and play the next."""

    seat: int
    name: str
    bot: str = ""


@dataclass(frozen=True)
class Place:
    seat: int
    place: int  # 1 for the winner; seats level on points and pace share it
    points: int
    turns: int
    average_ms: int  # rounded, for showing; the ranking compares exactly


@dataclass(frozen=True)
class Together:
    layout: Layout
    faces: tuple[str, ...]  # as dealt, then as last laid out again
    seed: str
    dealt_at: datetime
    clock: Clock
    seats: tuple[Seat, ...]  # in turn order: the order they joined
    moves: tuple[Move, ...] = ()
    turn: int | None = 0  # index into `seats`; None while nobody can play
    turn_no: int = 0  # turns begun so far, for the bots' seeds
    turn_start_ms: int = 0
    status: str = PLAYING
    paused: bool = False
    relays: int = 0
    # A pairing of the standing tiles known to clear, or () when unknown:
    # what the bots consult (rooms.together_bots).
    plan: tuple[Pair, ...] = ()
    watchers: tuple[Watcher, ...] = ()

    def board(self) -> Board:
        """The pile now: every logged pair was checked by the engine when it
        was taken, so the standing tiles are built directly rather than by
        taking each pair again."""
        taken = 0
        for move in self.moves:
            a, b = move.pair
            taken |= (1 << a) | (1 << b)
        standing = self.layout.all_mask & ~taken
        return positions.board_at(self.layout, self.faces, standing)

    def find(self, seat: int) -> int | None:
        """The index of a seat number in turn order."""
        return next((i for i, s in enumerate(self.seats) if s.seat == seat), None)

    @property
    def turn_seat(self) -> int | None:
        return None if self.turn is None else self.seats[self.turn].seat

    def game_ms(self, now: datetime) -> int:
        return self.clock.elapsed_ms(now)

    @property
    def deadline_ms(self) -> int | None:
        if self.status != PLAYING or self.turn is None:
            return None
        return self.turn_start_ms + TURN_MS

    # Drawn once per state (the due time, the bot's step and the wake-up
    # each ask, and each draw hashes the seed); a new state draws afresh.
    @cached_property
    def bot_at_ms(self) -> int | None:
        """When the bot whose turn it is takes its pair."""
        if self.status != PLAYING or self.turn is None:
            return None
        bot = self.seats[self.turn].bot
        if not bot:
            return None
        return self.turn_start_ms + bots.think_ms(bot, self._rng("think"))

    def _rng(self, purpose: str) -> Rng:
        return Rng("together-bot/1", self.seed, self.turn_no, purpose)

    @property
    def turn_index(self) -> int:
        """The index of the seat whose turn it is, for rules that run only
        while someone has the turn."""
        if self.turn is None:
            raise ValueError("nobody has the turn")
        return self.turn

    def with_seat(self, index: int, seat: Seat) -> "Together":
        seats = self.seats[:index] + (seat,) + self.seats[index + 1 :]
        return replace(self, seats=seats)


def _pair(a: int, b: int) -> Pair:
    """A pair as the log keeps it: the lower tile first."""
    return (a, b) if a <= b else (b, a)


def _plan(pairs: Iterable[Pair]) -> tuple[Pair, ...]:
    return tuple(sorted(_pair(*p) for p in pairs))


# -- scoring ---------------------------------------------------------------


def pair_points(face: str) -> int:
    return SUIT_POINTS if face in SUIT_FACES else HONOUR_POINTS


def _group(state: Together, pair: Pair) -> str:
    # A re-lay keeps the faces of taken tiles, so this holds for old moves.
    return group_of(state.faces[pair[0]])


def score(state: Together, seat: int, pair: Pair) -> tuple[int, bool]:
    """(points, set bonus) for `seat` taking `pair` now. The bonus comes
    with the second pair of a group when the same seat took the first:
    6 in all for a suit face, 8 for the others."""
    group = _group(state, pair)
    earlier = [m for m in state.moves if _group(state, m.pair) == group]
    bonus = len(earlier) == 1 and earlier[0].seat == seat
    return pair_points(state.faces[pair[0]]) + (SET_BONUS if bonus else 0), bonus


def _worth(state: Together, index: int, board: Board, pair: Pair) -> int:
    """What taking `pair` would change the seat's points by: its score, less
    what a stuck pile would cost (never below zero)."""
    points = state.seats[index].points
    gained, _ = score(state, state.seats[index].seat, pair)
    after = board.copy()
    after.take(*pair)
    if after.cleared or after.has_move():
        return gained
    return max(0, points + gained - STUCK_PENALTY) - points


# -- deal ------------------------------------------------------------------


def deal(
    layout: Layout,
    faces: tuple[str, ...],
    seed: str,
    seats: Iterable[tuple[int, str, str]],
    now: datetime,
    witness: Iterable[Pair] = (),
) -> Together:
    """One pile for every (seat, name, bot level) given, in the order they
    joined: the first goes first, once the pile has built. `witness` is a
    clearing order of the deal."""
    seated = tuple(Seat(seat=s, name=n, bot=b) for s, n, b in seats)
    if not seated:
        raise Refused("no_seats")
    return Together(
        layout=layout,
        faces=faces,
        seed=seed,
        dealt_at=now,
        clock=Clock.dealt(now),
        seats=seated,
        plan=_plan(witness),
    )


def watch(state: Together, seat: int, name: str, bot: str) -> Together:
    """Someone who arrives after the deal watches it; they (and anyone who
    left and came back) get a seat at the next deal."""
    index = state.find(seat)
    if index is not None and not state.seats[index].left:
        return state
    if any(w.seat == seat for w in state.watchers):
        return state
    return replace(state, watchers=(*state.watchers, Watcher(seat, name, bot)))


def next_seats(state: Together) -> list[tuple[int, str, str]]:
    """(seat, name, bot) for the next deal, in the order they joined."""
    staying = [(s.seat, s.name, s.bot) for s in state.seats if not s.left]
    return staying + [(w.seat, w.name, w.bot) for w in state.watchers]


# -- turns -----------------------------------------------------------------


def _next_present(state: Together, after: int | None) -> int | None:
    """The first present seat after `after` in turn order (possibly the same
    seat: alone, every turn is yours)."""
    n = len(state.seats)
    start = -1 if after is None else after
    for k in range(1, n + 1):
        i = (start + k) % n
        if state.seats[i].present:
            return i
    return None


def _start_turn(state: Together, index: int | None, ms: int) -> Together:
    if index is None:
        return replace(state, turn=None)
    return replace(state, turn=index, turn_no=state.turn_no + 1, turn_start_ms=ms)


def _pass(state: Together, ms: int) -> Together:
    return _start_turn(state, _next_present(state, state.turn), ms)


def _missed(state: Together, ms: int) -> Together:
    """The turn passes with nothing taken; it counts 30 s."""
    index = state.turn_index
    seat = state.seats[index]
    seat = replace(seat, turns=seat.turns + 1, turn_ms=seat.turn_ms + TURN_MS)
    return _pass(state.with_seat(index, seat), ms)


def _end(state: Together, ms: int) -> Together:
    return replace(state, status=OVER, turn=None, paused=False, clock=Clock(ms))


def _take(state: Together, index: int, pair: Pair, ms: int) -> Together:
    """The seat whose turn it is takes a pair the engine allows."""
    board = state.board()
    board.take(*pair)
    positions.remember(board)
    seat = state.seats[index]
    points, bonus = score(state, seat.seat, pair)
    seat = replace(
        seat,
        points=seat.points + points,
        turns=seat.turns + 1,
        turn_ms=seat.turn_ms + ms - state.turn_start_ms,
    )
    move = Move(seat.seat, pair, ms, points, bonus)
    stuck = not board.cleared and not board.has_move()
    if stuck:
        penalty = min(STUCK_PENALTY, seat.points)
        seat = replace(seat, points=seat.points - penalty)
        move = replace(move, stuck=True, penalty=penalty)
    plan = bots.plan_after(board, state.plan, pair)
    state = replace(state, moves=(*state.moves, move), plan=plan)
    state = state.with_seat(index, seat)
    if board.cleared:
        return _end(state, ms)
    if stuck:
        relaid = engine_shuffle(board, f"{state.seed}/relay/{state.relays}")
        if relaid.faces is None or relaid.solution is None:
            return _end(state, ms)
        plan = _plan(relaid.solution)
        state = replace(state, faces=relaid.faces, relays=state.relays + 1, plan=plan)
    return _pass(state, ms)


# -- what the clock brings -------------------------------------------------


def _running(state: Together) -> bool:
    return state.status == PLAYING and not state.paused and state.turn is not None


def timeout(state: Together, now: datetime) -> Together:
    """The turn passes with nothing taken once its 30 s are up; the next
    turn begins at that deadline. Unchanged when nothing is due, and on a
    bot's turn: a bot always moves well before its deadline."""
    if not _running(state) or state.seats[state.turn_index].bot:
        return state
    deadline = state.deadline_ms
    if deadline is None or state.game_ms(now) < deadline:
        return state
    return _missed(state, deadline)


def bot_step(state: Together, now: datetime) -> Together:
    """A bot whose turn it is takes its pair once its think time is over,
    at that moment. Unchanged otherwise."""
    if not _running(state):
        return state
    at = state.bot_at_ms
    if at is None or state.game_ms(now) < at:
        return state
    index = state.turn_index
    board = state.board()
    pair = bots.choose(
        board,
        state.seats[index].bot,
        state._rng("choose"),
        state.plan,
        lambda p: _worth(state, index, board, p),
    )
    return _take(state, index, _pair(*pair), at)


def _first_drop(state: Together) -> tuple[int, int] | None:
    """(shared clock time, seat index) of the first dropped connection to
    count as away, if any."""
    if state.status != PLAYING or state.paused:
        return None
    pending = [
        (s.gone_at_ms, i) for i, s in enumerate(state.seats) if s.gone_at_ms is not None
    ]
    return min(pending) if pending else None


def absence(state: Together, now: datetime) -> Together:
    """A dropped connection not back in time counts as away from the moment
    its grace ran out, when nothing else came due before that moment."""
    first = _first_drop(state)
    if first is None:
        return state
    at, index = first
    turn_due = _turn_due_ms(state)
    if state.game_ms(now) < at or (turn_due is not None and turn_due < at):
        return state
    return _set_away(state, index, True, at)


def _begun_now(before: Together, after: Together, now_ms: int) -> Together:
    """A turn the timer begins starts when the timer applies it, never in
    the past: after the timer was down (or late), the next player still
    gets their whole 30 s, and a bot that comes next thinks from now, so
    the moves due during an outage do not cascade one after another."""
    begun = after.turn is not None and after.turn_no != before.turn_no
    if begun and after.status == PLAYING and after.turn_start_ms < now_ms:
        return replace(after, turn_start_ms=now_ms)
    return after


def run_due(state: Together, now: datetime) -> Together:
    """Everything that has come due by `now`, in order. What was due during
    an outage happens once: the overdue turn ends (or the overdue bot
    moves) at its own time, and the turn after it begins now."""
    now_ms = state.game_ms(now)
    while True:
        after = absence(state, now)
        if after is state:
            after = bot_step(state, now)
        if after is state:
            after = timeout(state, now)
        if after is state:
            return state
        state = _begun_now(state, after, now_ms)


def _turn_due_ms(state: Together) -> int | None:
    if not _running(state):
        return None
    at = state.bot_at_ms
    return at if at is not None else state.deadline_ms


def due_ms(state: Together) -> int | None:
    """Shared clock time of the next thing due: a bot's move, a deadline or
    a dropped connection counting as away."""
    first = _first_drop(state)
    due = (_turn_due_ms(state), None if first is None else first[0])
    times = [t for t in due if t is not None]
    return min(times) if times else None


def wake_at(state: Together) -> datetime | None:
    """The wall time at which the timer process must call `run_due`."""
    ms = due_ms(state)
    if ms is None or state.clock.running_since is None:
        return None
    since = state.clock.running_since
    return since + timedelta(milliseconds=ms - state.clock.banked_ms)


# -- a player's requests ---------------------------------------------------


def _require_seated(state: Together, seat: int) -> None:
    """Only a player of this pile acts on it, pauses or resumes it, not
    someone watching it."""
    index = state.find(seat)
    if index is None or state.seats[index].left:
        raise Refused("not_seated")


def _acting(state: Together, seat: int, now: datetime) -> int:
    """The index of the seat asking, once it may act on the pile now."""
    if state.status != PLAYING:
        raise Conflict("over", says="game_over")
    _require_seated(state, seat)
    index = state.find(seat)
    assert index is not None  # seated, as just checked
    if state.paused:
        raise Conflict("paused", says="game_paused")
    since = state.clock.running_since
    if since is not None and since > now:
        raise Conflict("building")
    if state.turn != index:
        raise Conflict("not_your_turn")
    return index


def take_pair(state: Together, seat: int, a: int, b: int, now: datetime) -> Together:
    """The seat whose turn it is takes (a, b). A retried request for the
    pair the same seat has just taken changes nothing."""
    state = run_due(state, now)
    pair = (min(a, b), max(a, b))
    last = state.moves[-1] if state.moves else None
    if last is not None and last.seat == seat and last.pair == pair:
        return state
    index = _acting(state, seat, now)
    board = state.board()
    try:
        board.check_pair(a, b)
    except MoveError as e:
        raise Refused(e.reason, str(e), e.tile) from None
    return _take(state, index, pair, state.game_ms(now))


def hint(
    state: Together, seat: int, now: datetime, solve: HintSearch = engine_hint
) -> Hint:
    """The engine's hint, on your own turn only; it changes nothing.
    `solve` runs the engine's search (rooms.hints: in another process)."""
    state = run_due(state, now)
    _acting(state, seat, now)
    return solve(state.board(), clearing=state.plan or None)


def set_away(state: Together, seat: int, away: bool, now: datetime) -> Together:
    """A player off the game screen is skipped, points kept; going away on
    one's own turn passes it. Back, their turns come back (at once when
    nobody else could play), and a dropped connection is forgotten."""
    state = run_due(state, now)
    index = state.find(seat)
    if state.status != PLAYING or index is None or state.seats[index].left:
        return state
    return _set_away(state, index, away, state.game_ms(now))


def connected(state: Together, seat: int, link: str, now: datetime) -> Together:
    """A connection of the player's opened: back on the game screen, and
    `link` is now their latest connection."""
    state = set_away(state, seat, False, now)
    index = state.find(seat)
    if state.status != PLAYING or index is None:
        return state
    current = state.seats[index]
    if current.link == link:
        return state
    return state.with_seat(index, replace(current, link=link))


def same_but_links(old: Together, new: Together) -> bool:
    """Whether only connections' names changed from `old` to `new`: what
    players see is the same (a new connection alone is news to nobody)."""
    if len(old.seats) != len(new.seats) or replace(new, seats=old.seats) != old:
        return False
    return all(
        a == b or replace(a, link="") == replace(b, link="")
        for a, b in zip(old.seats, new.seats, strict=True)
    )


def drop(state: Together, seat: int, now: datetime, link: str = "") -> Together:
    """A player's connection dropped. They count as away once DROP_GRACE_MS
    have gone by on the shared clock, unless back before (`set_away` with
    False): a reload or a moment without signal costs nothing, not even the
    turn they are on.

    The drop of a connection older than their latest changes nothing: a
    phone that lost its signal opens a new connection at once, and the
    server may see the old one end only later, once its own time-out runs
    (tens of seconds); that must not take a player still there off the
    game."""
    state = run_due(state, now)
    index = state.find(seat)
    if state.status != PLAYING or index is None:
        return state
    current = state.seats[index]
    if current.link and link != current.link:
        return state
    if not current.present or current.gone_at_ms is not None:
        return state
    at = state.game_ms(now) + DROP_GRACE_MS
    return state.with_seat(index, replace(current, gone_at_ms=at))


def _set_away(state: Together, index: int, away: bool, ms: int) -> Together:
    current = state.seats[index]
    changed = replace(current, away=away, gone_at_ms=None)
    if changed == current:
        return state
    state = state.with_seat(index, changed)
    if current.away == away:
        return state  # back before their dropped connection counted
    if away and state.turn == index:
        return _missed(state, ms)
    if not away and state.turn is None:
        return _start_turn(state, index, ms)
    return state


def leave(state: Together, seat: int, now: datetime) -> Together:
    """A player who leaves keeps their points but plays no more of this
    deal; leaving on one's turn passes it. The game ends once every seat has
    left."""
    state = run_due(state, now)
    watchers = tuple(w for w in state.watchers if w.seat != seat)
    state = replace(state, watchers=watchers) if watchers != state.watchers else state
    index = state.find(seat)
    if state.status != PLAYING or index is None or state.seats[index].left:
        return state
    state = state.with_seat(index, replace(state.seats[index], left=True))
    ms = state.game_ms(now)
    if all(s.left for s in state.seats):
        return _end(state, ms)
    if state.turn == index:
        return _missed(state, ms)
    return state


def pause(state: Together, seat: int, now: datetime) -> Together:
    """Stop the shared clock, and with it the turn's time."""
    state = run_due(state, now)
    if state.status != PLAYING:
        raise Conflict("over", says="game_over")
    _require_seated(state, seat)
    if state.paused:
        return state
    return replace(state, paused=True, clock=state.clock.stopped(now))


def resume(state: Together, seat: int, now: datetime) -> Together:
    """Run the clock again: the turn has the time it had left at the pause."""
    if state.status != PLAYING:
        raise Conflict("over", says="game_over")
    _require_seated(state, seat)
    if not state.paused:
        return state
    return replace(state, paused=False, clock=state.clock.started(now))


# -- what the table shows --------------------------------------------------


def taken(state: Together, seat: int) -> tuple[tuple[str, str], ...]:
    """The faces of the pairs a seat has taken, in order."""
    return tuple(
        (state.faces[m.pair[0]], state.faces[m.pair[1]])
        for m in state.moves
        if m.seat == seat
    )


def sets(state: Together, seat: int) -> tuple[str, ...]:
    """The groups of which a seat took both pairs."""
    return tuple(
        _group(state, m.pair) for m in state.moves if m.seat == seat and m.bonus
    )


def lead(state: Together) -> dict[int, int]:
    """Each seat's points above the lowest score at the table. Everyone
    dealt in stays on the strip, those who left too, so no lead is
    negative."""
    lowest = min(s.points for s in state.seats)
    return {s.seat: s.points - lowest for s in state.seats}


def _average(seat: Seat) -> Fraction:
    if not seat.turns:
        return Fraction(TURN_MS)
    return Fraction(seat.turn_ms, seat.turns)


def _rank_key(seat: Seat) -> tuple[int, Fraction]:
    return (-seat.points, _average(seat))


def standings(state: Together) -> tuple[Place, ...]:
    """Most points first; level on points, the quicker average turn; level
    on both, the same place."""
    ordered = sorted(state.seats, key=_rank_key)
    places: list[Place] = []
    for i, s in enumerate(ordered):
        if i and _rank_key(s) == _rank_key(ordered[i - 1]):
            place = places[-1].place
        else:
            place = i + 1
        average = round(_average(s))
        places.append(Place(s.seat, place, s.points, s.turns, average))
    return tuple(places)
