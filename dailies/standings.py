"""Leaderboards, best times and which levels a player has unlocked.

Everything is read from the solo runs (games.Run, games.BestTime): a daily or
a level is just a board key, so nothing here keeps scores of its own.
"""

from dataclasses import dataclass

from accounts.models import Player
from dailies.keys import LEVEL
from dailies.levels import LEVELS
from games.models import BestTime, Run

LEADERBOARD_SIZE = 50


@dataclass(frozen=True)
class Entry:
    rank: int
    name: str
    ms: int
    hints: int

    @property
    def clean(self) -> bool:
        return self.hints == 0


def _order(ms: int, hints: int, shuffles: int) -> tuple:
    # Clean clears first, by time; then assisted ones by hints, then time.
    assisted = hints > 0 or shuffles > 0
    return (assisted, hints if assisted else 0, ms)


def leaderboard(board_key: str, size: int = LEADERBOARD_SIZE) -> list[Entry]:
    """Each registered player's best clear of a board, best first.

    Guests never appear: their names are made up and their devices change;
    nor do clears played faster than a person can (games.pace), nor clears
    faster than the game's quickest player until an admin approves them.
    """
    won = Run.objects.filter(
        board_key=board_key,
        status=Run.Status.WON,
        player__user__isnull=False,
        too_fast=False,
        review__in=[Run.Review.NONE, Run.Review.APPROVED],
    ).values_list("player_id", "player__display_name", "banked_ms", "hints", "shuffles")
    best: dict[int, tuple[tuple, str, int, int]] = {}
    for player_id, name, ms, hints, shuffles in won:
        order = _order(ms, hints, shuffles)
        if player_id not in best or order < best[player_id][0]:
            best[player_id] = (order, name, ms, hints)
    ranked = sorted(best.values(), key=lambda b: (b[0], b[1]))[:size]
    return [
        Entry(rank=k, name=name, ms=ms, hints=hints)
        for k, (_, name, ms, hints) in enumerate(ranked, start=1)
    ]


def best_times(player: Player | None, board_keys: list[str]) -> dict[str, int]:
    """The player's best clean time on each of these boards that has one."""
    if player is None:
        return {}
    return dict(
        BestTime.objects.filter(player=player, board_key__in=board_keys).values_list(
            "board_key", "best_ms"
        )
    )


def waiting_times(player: Player | None, board_keys: list[str]) -> dict[str, int]:
    """The player's quickest clear on each board that waits for review: shown
    to them (and only them) until an admin decides (docs/fair-play.md)."""
    if player is None:
        return {}
    waiting = Run.objects.filter(
        player=player, board_key__in=board_keys, review=Run.Review.WAITING
    ).values_list("board_key", "banked_ms")
    quickest: dict[str, int] = {}
    for key, ms in waiting:
        quickest[key] = min(ms, quickest.get(key, ms))
    return quickest


def cleared_keys(player: Player | None, board_keys: list[str]) -> set[str]:
    """Which of these boards the player has cleared at least once."""
    if player is None:
        return set()
    return set(
        Run.objects.filter(
            player=player, board_key__in=board_keys, status=Run.Status.WON
        ).values_list("board_key", flat=True)
    )


def unlocked_level(player: Player | None) -> int:
    """The highest level the player may play: levels open one at a time.

    Level 1 is always open; each level cleared, in order, opens the next.
    """
    if player is None:
        return 1
    keys = Run.objects.filter(
        player=player, mode=LEVEL, status=Run.Status.WON
    ).values_list("board_key", flat=True)
    cleared = {int(k.partition(":")[2]) for k in keys}
    n = 1
    while n in cleared and n < LEVELS:
        n += 1
    return n
