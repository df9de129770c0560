"""Whether a clear was played at a pace a person can play (docs/fair-play.md).

Pure: the run's clock reading at each pair taken, in, a verdict out. The
readings are the server's own (games.play stamps them from its clock when
the take arrives), so a client cannot claim a pace; it can only send its
takes when it likes, and a clearing sent faster than hands can tap is
still kept, marked as too fast and never ranked.
"""

# A pair is two aimed taps on two different tiles. Measured (bench/pace.py,
# docs/fair-play.md): the fastest a person turns two such taps into a pair
# is about 0.3 s; the hard bot, the quickest player the game has, takes 0.8
# to 1.6 s a pair. The floor sits below every person's pace, with room.
HUMAN_PAIR_MS = 250
# A quick player may now and then take a pair seen while taking the last
# one: that many pairs in every ten may come faster than the floor.
QUICK_PAIRS_PER_TEN = 2


# The quickest player the game models: the hard bot (rooms.bots.PACES),
# which thinks 800 to 1,600 ms before each pair, 1,200 on average, and on a
# deal as dealt plays its witness, never a wrong pair. So its expected time
# on a deal is this times the deal's pairs (a test keeps the two in step).
QUICK_PLAYER_PAIR_MS = 1200


def quick_player_ms(pairs: int) -> int:
    """The hard bot's expected time to clear a deal of `pairs` pairs."""
    return pairs * QUICK_PLAYER_PAIR_MS


def needs_review(ms: int, pairs: int) -> bool:
    """A clean clear faster than the quickest player the game models: it
    may be a person, or a clearing handed over from elsewhere, so a person
    (an admin) looks before it ranks."""
    return ms < quick_player_ms(pairs)


def fast_pairs(move_ms: list[int] | tuple[int, ...]) -> int:
    """How many pairs came sooner than HUMAN_PAIR_MS after the one before
    (the first after the clock started)."""
    previous, fast = 0, 0
    for ms in move_ms:
        if ms - previous < HUMAN_PAIR_MS:
            fast += 1
        previous = ms
    return fast


def human_paced(move_ms: list[int] | tuple[int, ...]) -> bool:
    """A clear whose pairs came at a pace a person can play."""
    allowed = len(move_ms) * QUICK_PAIRS_PER_TEN // 10
    return fast_pairs(move_ms) <= allowed
