"""The rules of a race as a pure state machine.

Every event is a function (race, ..., now) -> new race that raises
games.errors' Refused or Conflict when the rules refuse it, naming the
refusal by its code (and the sentence and numbers that say why, which
rooms.wording words in the page's language). Nothing here imports Django,
touches the database or reads the time, so every rule can be tested with a
fake clock; rooms.actions loads a Race from the rows, applies one of these
functions under the room's lock and saves what changed.

Time: the race has one shared clock (games.play.Clock: time banked plus when
it last started), which starts when the pile has built and stops while the
race is paused, so everyone skips the paused time alike. A racer's own clock
is the race clock plus their shuffle penalties. Everything that is due later
(a racer's time limit, a bot's next move) is stored in race-clock
milliseconds; `wake_at` turns the earliest of them into a wall time for the
timer process.

Boards are never stored: a racer's position is their current faces with
the tiles of their logged pairs taken away, and every pair is checked by
the engine before it is logged.
"""

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import cached_property

from games.engine.board import Board, MoveError
from games.engine.hint import Hint, HintSearch, still_to_take
from games.engine.hint import hint as engine_hint
from games.engine.layout import Layout
from games.engine.rng import Rng
from games.engine.safety import Safety, find_safety
from games.engine.shuffle import shuffle as engine_shuffle
from games.errors import Conflict, Refused
from games.play import BUILD_DELAY_MS, Clock
from rooms import bots, positions

Pair = tuple[int, int]

SHUFFLE_PENALTY_MS = 60_000
# A player who joins this soon after the deal still races on it.
LATE_JOIN_MS = 5_000
LIMIT_MINUTES = (0, 5, 10, 15)


# Racer statuses.
PLAYING = "playing"
CLEARED = "cleared"
STOPPED = "stopped"
TIMED_OUT = "timed_out"
LEFT = "left"
# Race statuses.
RACING = "racing"
OVER = "over"


# One entry of a racer's undo log, (ms, pair, faces_before): the racer's
# own clock when it happened, then the pair taken, or for a shuffle the
# faces it replaced (the other one None). A plain tuple, not a class: the
# garbage collector stops tracking a tuple that holds only ints, strings
# and None, and then the log holding them; a server keeps one entry per
# pair taken in its rooms' rounds (some 29,000 near the end of 100 Big-pile
# races), which every collection would walk as objects.
Step = tuple[int, Pair | None, tuple[str, ...] | None]


def taken(ms: int, pair: Pair) -> Step:
    return (ms, pair, None)


def shuffled(ms: int, faces_before: tuple[str, ...]) -> Step:
    return (ms, None, faces_before)


@dataclass(frozen=True)
class Racer:
    seat: int
    name: str
    faces: tuple[str, ...]
    bot: str = ""  # a bot's level; "" for a person
    status: str = PLAYING
    steps: tuple[Step, ...] = ()
    penalty_ms: int = 0
    shuffles: int = 0
    end_ms: int | None = None  # own clock when the racer cleared or stopped
    bot_at_ms: int | None = None  # race clock time of a bot's next move

    @property
    def playing(self) -> bool:
        return self.status == PLAYING

    # Counted from the undo log once per state (standings and events ask
    # several times a move); a new state is a new Racer, counted afresh.
    @cached_property
    def matches(self) -> int:
        return sum(1 for _, pair, _ in self.steps if pair is not None)

    @cached_property
    def reached_ms(self) -> int:
        """Own clock when the racer reached their current count of matches."""
        for ms, pair, _ in reversed(self.steps):
            if pair is not None:
                return ms
        return 0

    @cached_property
    def _taken(self) -> int:
        mask = 0
        for _, pair, _ in self.steps:
            if pair is not None:
                mask |= (1 << pair[0]) | (1 << pair[1])
        return mask

    def standing(self, layout: Layout) -> int:
        return layout.all_mask & ~self._taken

    def board(self, layout: Layout) -> Board:
        """The racer's position on the engine (every logged pair was checked
        by the engine when it was taken, so the standing set is built
        directly rather than by taking each pair again)."""
        return positions.board_at(layout, self.faces, self.standing(layout))


@dataclass(frozen=True)
class Place:
    seat: int
    place: int  # 1 for the winner; racers level in every way share a place
    status: str
    ms: int | None  # a finisher's time
    matches: int
    reached_ms: int


@dataclass(frozen=True)
class Race:
    layout: Layout
    faces: tuple[str, ...]  # as dealt, the same for everyone
    seed: str
    dealt_at: datetime
    clock: Clock
    limit_ms: int | None
    racers: tuple[Racer, ...]
    status: str = RACING
    paused: bool = False
    # The deal's clearing order, (low, high) pairs: what bots play by.
    witness: tuple[Pair, ...] = ()

    def racer(self, seat: int) -> Racer:
        for r in self.racers:
            if r.seat == seat:
                return r
        raise Refused("not_racing")

    def race_ms(self, now: datetime) -> int:
        return self.clock.elapsed_ms(now)

    def own_ms(self, racer: Racer, now: datetime) -> int:
        if racer.end_ms is not None:
            return racer.end_ms
        return self.race_ms(now) + racer.penalty_ms

    def with_racer(self, racer: Racer) -> "Race":
        racers = tuple(racer if r.seat == racer.seat else r for r in self.racers)
        return replace(self, racers=racers)


# -- deal and joining ------------------------------------------------------


def _bot_rng(race_seed: str, seat: int, moves: int, purpose: str) -> Rng:
    """A bot's draws for its move number `moves` (its count of steps)."""
    return Rng("bot/1", race_seed, seat, moves, purpose)


def _bot_at(race: Race, racer: Racer, moves: int, from_ms: int) -> int:
    """When the bot `racer`, once it has `moves` steps, moves next."""
    rng = _bot_rng(race.seed, racer.seat, moves, "think")
    return from_ms + bots.think_ms(racer.bot, rng)


def _schedule_bot(race: Race, racer: Racer, from_ms: int) -> Racer:
    if not racer.bot or not racer.playing:
        return replace(racer, bot_at_ms=None)
    return replace(racer, bot_at_ms=_bot_at(race, racer, len(racer.steps), from_ms))


def deal(
    layout: Layout,
    faces: tuple[str, ...],
    seed: str,
    seats: list[tuple[int, str, str]],
    limit_minutes: int,
    now: datetime,
    witness: tuple[Pair, ...] = (),
) -> Race:
    """A new race on one deal for every (seat, name, bot level) given;
    `witness` is a clearing order of the deal."""
    if limit_minutes not in LIMIT_MINUTES:
        raise Refused("bad_limit")
    race = Race(
        layout=layout,
        faces=faces,
        seed=seed,
        dealt_at=now,
        clock=Clock(0, now + timedelta(milliseconds=BUILD_DELAY_MS)),
        limit_ms=limit_minutes * 60_000 or None,
        racers=(),
        witness=tuple((min(p), max(p)) for p in witness),
    )
    racers = tuple(
        _schedule_bot(race, Racer(seat=s, name=n, faces=faces, bot=b), 0)
        for s, n, b in seats
    )
    return replace(race, racers=racers)


def join(race: Race, seat: int, name: str, bot: str, now: datetime) -> Race:
    """A late joiner races on this deal only in its first few seconds."""
    late = now - race.dealt_at > timedelta(milliseconds=LATE_JOIN_MS)
    if race.status != RACING or late:
        raise Conflict("in_progress")
    if any(r.seat == seat for r in race.racers):
        return race
    racer = Racer(seat=seat, name=name, faces=race.faces, bot=bot)
    racer = _schedule_bot(race, racer, race.race_ms(now))
    return replace(race, racers=(*race.racers, racer))


# -- time ------------------------------------------------------------------


def _finish_if_done(race: Race, now: datetime) -> Race:
    if race.status == RACING and not any(r.playing for r in race.racers):
        return replace(race, status=OVER, paused=False, clock=race.clock.stopped(now))
    return race


def settle(race: Race, now: datetime) -> Race:
    """Apply what the clock has made true by `now`: racers out of time, and
    the end of the race when nobody plays any more. Every event calls this
    first, so a move after the deadline is refused even before the timer
    process has run."""
    if race.status != RACING:
        return race
    if race.limit_ms is not None:
        for r in race.racers:
            if r.playing and race.own_ms(r, now) >= race.limit_ms:
                out = replace(r, status=TIMED_OUT, end_ms=race.limit_ms, bot_at_ms=None)
                race = race.with_racer(out)
    return _finish_if_done(race, now)


def due_ms(race: Race) -> int | None:
    """Race clock time of the next thing due: a time limit or a bot's move."""
    if race.status != RACING or race.paused:
        return None
    times = []
    for r in race.racers:
        if not r.playing:
            continue
        if race.limit_ms is not None:
            times.append(race.limit_ms - r.penalty_ms)
        if r.bot_at_ms is not None:
            times.append(r.bot_at_ms)
    return min(times, default=None)


def wake_at(race: Race) -> datetime | None:
    """The wall time at which `due_ms` comes, while the clock runs."""
    ms = due_ms(race)
    if ms is None or race.clock.running_since is None:
        return None
    return race.clock.running_since + timedelta(milliseconds=ms - race.clock.banked_ms)


# -- a racer's moves -------------------------------------------------------


def _acting(race: Race, seat: int, now: datetime, move: int | None = None) -> Racer:
    """The racer making a move, once the race allows it."""
    if race.status != RACING:
        raise Conflict("over", says="race_over")
    racer = race.racer(seat)
    if not racer.playing:
        raise Conflict("done", says=f"racer_{racer.status}")
    if race.paused:
        raise Conflict("paused", says="race_paused")
    if race.clock.running_since is not None and race.clock.running_since > now:
        raise Conflict("building")
    if move is not None and move != len(racer.steps):
        params = {"moves": len(racer.steps), "move": move}
        raise Conflict("stale", says="race_stale", params=params)
    return racer


def take(race: Race, seat: int, a: int, b: int, move: int, now: datetime) -> Race:
    """Take the pair (a, b) on the racer's own board. `move` is how many
    moves the client saw; repeating the last pair with its own count (a
    retried message) changes nothing."""
    race = settle(race, now)
    if race.status == RACING:
        racer = race.racer(seat)
        if racer.steps and move == len(racer.steps) - 1:
            _, last_pair, _ = racer.steps[-1]
            if last_pair == (min(a, b), max(a, b)):
                return race
    racer = _acting(race, seat, now, move)
    board = racer.board(race.layout)
    try:
        board.take(a, b)
    except MoveError as e:
        raise Refused(e.reason, str(e), e.tile) from None
    racer = _logged(race, racer, board, now)
    return _finish_if_done(race.with_racer(racer), now)


def _logged(
    race: Race, racer: Racer, board: Board, now: datetime, bot: bool = False
) -> Racer:
    """The racer once the pair `board` last took (on their position) is in
    their log; cleared when it was the last pair. A `bot` racer's next
    move is scheduled with it (`_schedule_bot`'s, in the same new state)."""
    positions.remember(board)
    ms = race.own_ms(racer, now)
    a, b, _ = board.history[-1]
    steps = (*racer.steps, taken(ms, (min(a, b), max(a, b))))
    if board.cleared:
        cleared = replace(racer, steps=steps, status=CLEARED, end_ms=ms, bot_at_ms=None)
        return _counted(cleared, racer, board)
    bot_at_ms = racer.bot_at_ms
    if bot and racer.bot:
        bot_at_ms = _bot_at(race, racer, len(steps), race.race_ms(now))
    return _counted(replace(racer, steps=steps, bot_at_ms=bot_at_ms), racer, board)


def _counted(after: Racer, before: Racer, board: Board) -> Racer:
    """`after`, which is `before` with the pair `board` last took logged,
    told its counts (Racer's cached properties) from `before`'s rather than
    walking its whole log again: the next read of them (the event, the
    standings) would, each move."""
    ms = after.steps[-1][0]
    taken = board.layout.all_mask & ~board.standing
    after.__dict__.update(matches=before.matches + 1, reached_ms=ms, _taken=taken)
    return after


def undo(race: Race, seat: int, move: int, now: datetime) -> Race:
    """Put back the last pair, or the faces from before the last shuffle
    (its penalty stays). Free and repeatable."""
    race = settle(race, now)
    racer = _acting(race, seat, now, move)
    if not racer.steps:
        raise Refused("empty", says="race_empty")
    _, _, faces_before = racer.steps[-1]
    faces = faces_before if faces_before is not None else racer.faces
    return race.with_racer(replace(racer, steps=racer.steps[:-1], faces=faces))


def hint(race: Race, seat: int, now: datetime, solve: HintSearch = engine_hint) -> Hint:
    """The engine's hint for the racer's board; free, and changes nothing.
    `solve` runs the engine's search (rooms.hints: in another process)."""
    race = settle(race, now)
    racer = _acting(race, seat, now)
    clearing = None
    pairs = [pair for _, pair, _ in racer.steps if pair is not None]
    if len(pairs) == len(racer.steps):  # no shuffle
        clearing = still_to_take(race.witness, pairs)
    return solve(racer.board(race.layout), clearing=clearing)


def safety(race: Race, seat: int, now: datetime) -> Safety:
    """Where the racer's pile could last be cleared; reads only. Every
    position from before the last shuffle, with today's faces, reaches the
    shuffled one (the pairs taken kept their faces), which clears: so the
    answer never lies before the last shuffle, and going back never needs
    to undo one."""
    race = settle(race, now)
    racer = _acting(race, seat, now)
    pairs = [pair for _, pair, _ in racer.steps if pair is not None]
    shuffled = len(pairs) < len(racer.steps)
    witness = () if shuffled else race.witness
    return find_safety(race.layout, racer.faces, pairs, witness)


def back_to(race: Race, seat: int, move: int, pairs: int, now: datetime) -> Race:
    """Back to safety: a run of free undos, back to the position after the
    racer's first `pairs` pairs (shuffles after it, and their penalties,
    stay). `move` is the move count the search was made on."""
    race = settle(race, now)
    racer = _acting(race, seat, now, move)
    cut, count = len(racer.steps), 0
    for k, (_, pair, _) in enumerate(racer.steps):
        if pair is None:
            continue
        if count == pairs:
            cut = k
            break
        count += 1
    return race.with_racer(replace(racer, steps=racer.steps[:cut]))


def shuffle(race: Race, seat: int, seed: str, now: datetime) -> Race:
    """Re-lay the racer's standing faces so the pile clears, for a penalty.
    Only when no two free tiles match."""
    race = settle(race, now)
    racer = _acting(race, seat, now)
    board = racer.board(race.layout)
    if board.has_move():
        raise Refused("pair_on_table")
    result = engine_shuffle(board, seed)
    if result.faces is None:
        raise Conflict("no_order", says="race_no_order")
    step = shuffled(race.own_ms(racer, now), racer.faces)
    racer = replace(
        racer,
        faces=result.faces,
        steps=(*racer.steps, step),
        penalty_ms=racer.penalty_ms + SHUFFLE_PENALTY_MS,
        shuffles=racer.shuffles + 1,
    )
    # The penalty may use up the rest of a time limit.
    return settle(race.with_racer(racer), now)


def stop(race: Race, seat: int, now: datetime) -> Race:
    """Stop here with the matches made; only when no two free tiles match."""
    race = settle(race, now)
    racer = _acting(race, seat, now)
    if racer.board(race.layout).has_move():
        raise Refused("pair_on_table")
    return _end_racer(race, racer, STOPPED, now)


def _end_racer(race: Race, racer: Racer, status: str, now: datetime) -> Race:
    ended = replace(
        racer, status=status, end_ms=race.own_ms(racer, now), bot_at_ms=None
    )
    return _finish_if_done(race.with_racer(ended), now)


def leave(race: Race, seat: int, now: datetime) -> Race:
    """A racer who leaves the room keeps the matches made, as if stopped."""
    race = settle(race, now)
    if race.status != RACING:
        return race
    racer = next((r for r in race.racers if r.seat == seat), None)
    if racer is None or not racer.playing:
        return race
    return _end_racer(race, racer, LEFT, now)


# -- the whole race --------------------------------------------------------


def _require_still_racing(race: Race, seat: int) -> None:
    """Only a racer still playing stops or starts everyone's clock: not a
    late joiner watching, nor one who has cleared or stopped."""
    if not race.racer(seat).playing:
        raise Refused("done", says="racer_out")


def pause(race: Race, seat: int, now: datetime) -> Race:
    race = settle(race, now)
    if race.status != RACING:
        raise Conflict("over", says="race_over")
    _require_still_racing(race, seat)
    if race.paused:
        return race
    return replace(race, paused=True, clock=race.clock.stopped(now))


def resume(race: Race, seat: int, now: datetime) -> Race:
    if race.status != RACING:
        raise Conflict("over", says="race_over")
    _require_still_racing(race, seat)
    if not race.paused:
        return race
    return replace(race, paused=False, clock=race.clock.started(now))


def end_now(race: Race, host_seat: int, now: datetime) -> Race:
    """The host ends the race for everyone, once the host has cleared or
    stopped. Those still playing stop with the matches made."""
    race = settle(race, now)
    if race.status != RACING:
        raise Conflict("over", says="race_over")
    host = next((r for r in race.racers if r.seat == host_seat), None)
    if host is not None and host.playing:
        raise Refused("host_playing")
    # End every racer at the same moment, then close the race once.
    for r in race.racers:
        if r.playing:
            race = race.with_racer(
                replace(r, status=STOPPED, end_ms=race.own_ms(r, now), bot_at_ms=None)
            )
    return _finish_if_done(race, now)


def abandon(race: Race, now: datetime) -> Race:
    """The host left: the race ends where it stands."""
    if race.status != RACING:
        return race
    return replace(race, status=OVER, paused=False, clock=race.clock.stopped(now))


# -- bots and the timer ----------------------------------------------------


def bot_move(race: Race, seat: int, now: datetime) -> Race:
    """One move of a bot whose time has come (`run_due` has settled the
    race and seen that the bot may move), and its next move scheduled."""
    racer = race.racer(seat)
    rng = _bot_rng(race.seed, racer.seat, len(racer.steps), "choose")
    board = racer.board(race.layout)
    choice = bots.choose(board, racer.bot, rng, race.witness)
    if choice.kind == bots.TAKE:
        assert choice.pair is not None  # a take always names its pair
        # What `take` does once it has checked that the racer may move, on
        # the board already built: a bot picks among the free pairs.
        board.take(*choice.pair)
        racer = _logged(race, racer, board, now, bot=True)
        return _finish_if_done(race.with_racer(racer), now)
    try:
        race = shuffle(race, seat, f"{race.seed}/{seat}/{racer.shuffles}", now)
    except Conflict as e:
        if e.code != "no_order":
            raise
        return stop(race, seat, now)
    racer = race.racer(seat)
    return race.with_racer(_schedule_bot(race, racer, race.race_ms(now)))


def run_due(race: Race, now: datetime) -> Race:
    """Everything due by `now`: time limits, then each bot whose move is
    due (one move each; a bot due again is picked up on the next call)."""
    race = settle(race, now)
    if race.status != RACING or race.paused:
        return race
    if race.clock.running_since is None or race.clock.running_since > now:
        return race
    at = race.race_ms(now)
    due = sorted(
        (r.bot_at_ms, r.seat)
        for r in race.racers
        if r.playing and r.bot_at_ms is not None and r.bot_at_ms <= at
    )
    for _, seat in due:
        if race.status != RACING:
            break
        if race.racer(seat).playing:
            race = bot_move(race, seat, now)
    return race


# -- standings -------------------------------------------------------------


def _rank_key(racer: Racer) -> tuple[int, int, int]:
    if racer.status == CLEARED:
        assert racer.end_ms is not None  # set when the racer cleared
        return (0, racer.end_ms, 0)
    return (1, -racer.matches, racer.reached_ms)


def standings(race: Race) -> tuple[Place, ...]:
    """Finishers by time, fastest first; then the rest by matches, most
    first, ties broken by who reached that count sooner on their own clock.
    Racers level in every way share the place."""
    keyed = sorted((_rank_key(r), r.seat, r) for r in race.racers)
    places: list[Place] = []
    for i, (key, _, r) in enumerate(keyed):
        # Level with the racer before: the same place.
        place = places[-1].place if i and key == keyed[i - 1][0] else i + 1
        ms = r.end_ms if r.status == CLEARED else None
        places.append(Place(r.seat, place, r.status, ms, r.matches, r.reached_ms))
    return tuple(places)
