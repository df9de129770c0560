"""Board keys and the deals they name.

A board key is "<mode>:<rest>": `free:<layout>` deals a new random deal on a
layout each time (games.free_play); apps register their modes (the dailies
app adds `daily:<date>:<layout>` and `level:<n>`) with `register_mode` from
their AppConfig.ready(), so this registry imports none of them. Each mode
also carries its policy (may the player shuffle?), so the rules never test
mode names.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.engine.deal import Deal

MAX_KEY_LENGTH = 80


class UnknownBoard(LookupError):
    """No such board: an unknown mode, layout, date or level."""


class BoardLocked(UnknownBoard):
    """A board this player may not open yet (a level not unlocked)."""


@dataclass(frozen=True)
class AnswerHidden:
    """A board whose full clearing is not given yet (a daily still ranked)."""

    opens: datetime  # when a way through may be shown
    message: str  # the same, for the player, in their language and digits


@dataclass(frozen=True)
class Mode:
    name: str
    # Gets the part of the key after "<mode>:" and returns the deal to play
    # (the same one every time for a fixed board, a fresh one for free play).
    # Raises UnknownBoard (or any LookupError) for a key it does not know.
    resolve: Callable[[str], Deal]
    can_shuffle: bool = False
    # Optional: gets the rest of the key and the Player, raises BoardLocked
    # when that player may not open the board (levels unlock in order).
    check_player: Callable[[str, Any], None] | None = None
    # Optional: the heading of a board, from the rest of its key and the
    # layout's name ("Level 12 · Pagoda"); the layout's name alone without it.
    title: Callable[[str, str], str] | None = None
    # Optional: the key of the board that follows this one (the next level).
    next_key: Callable[[str], str | None] | None = None
    # Optional: AnswerHidden while no way through may be shown on the board.
    answer_hidden: Callable[[str], AnswerHidden | None] | None = None
    # On a public leaderboard: a clear faster than the game's quickest
    # player waits for an admin's review before it ranks (games.pace).
    ranked: bool = False


_MODES: dict[str, Mode] = {}


def register_mode(
    name: str,
    resolve: Callable[[str], Deal],
    *,
    can_shuffle: bool = False,
    check_player: Callable[[str, Any], None] | None = None,
    title: Callable[[str, str], str] | None = None,
    next_key: Callable[[str], str | None] | None = None,
    answer_hidden: Callable[[str], AnswerHidden | None] | None = None,
    ranked: bool = False,
) -> None:
    _MODES[name] = Mode(
        name,
        resolve,
        can_shuffle,
        check_player,
        title,
        next_key,
        answer_hidden,
        ranked,
    )


def mode_of(key: str) -> Mode:
    name, sep, _ = key.partition(":")
    mode = _MODES.get(name)
    if not sep or mode is None:
        known = ", ".join(sorted(_MODES))
        raise UnknownBoard(f"unknown board {key!r} (modes: {known})")
    return mode


def is_ranked(mode_name: str) -> bool:
    mode = _MODES.get(mode_name)
    return mode is not None and mode.ranked


def can_shuffle(mode_name: str) -> bool:
    mode = _MODES.get(mode_name)
    return mode is not None and mode.can_shuffle


def deal_for(key: str, player: Any = None) -> tuple[Mode, Deal]:
    """The mode of `key` and the deal to play on it; UnknownBoard if none,
    BoardLocked if `player` may not open it (None: a visitor with no
    records yet, who may open what a newcomer may)."""
    if len(key) > MAX_KEY_LENGTH:
        raise UnknownBoard(f"board key longer than {MAX_KEY_LENGTH} characters")
    mode = mode_of(key)
    rest = key.partition(":")[2]
    try:
        if mode.check_player is not None:
            mode.check_player(rest, player)
        return mode, mode.resolve(rest)
    except UnknownBoard:
        raise
    except LookupError as e:
        raise UnknownBoard(str(e)) from None


def board_title(key: str, layout_name: str) -> str:
    """What the board page is headed: where the player is, not just the pile."""
    mode = mode_of(key)
    if mode.title is None:
        return layout_name
    return mode.title(key.partition(":")[2], layout_name)


def next_board(key: str) -> str | None:
    """The key of the board to offer after clearing this one, if any."""
    mode = mode_of(key)
    return None if mode.next_key is None else mode.next_key(key.partition(":")[2])


def answer_hidden(key: str) -> AnswerHidden | None:
    """Whether, and until when, a way through is withheld on this board."""
    mode = _MODES.get(key.partition(":")[0])
    if mode is None or mode.answer_hidden is None:
        return None
    return mode.answer_hidden(key.partition(":")[2])


def free_key(layout_slug: str) -> str:
    return f"free:{layout_slug}"
