"""The `daily` and `level` board modes, registered with games.boards.

Both are fixed boards: no shuffle (a date or a level number must always mean
the same board), and the deal comes from the stored row, made on first
request when no worker made it ahead of time.
"""

from django.utils.formats import date_format
from django.utils.translation import gettext

from accounts.models import Player
from dailies import days
from dailies.deals import (
    REQUEST_SOLVER_NODES,
    daily_row,
    deal_of,
    level_row,
    verify,
)
from dailies.keys import DAILY, LEVEL, level_key
from dailies.levels import LEVELS
from dailies.standings import unlocked_level
from games.boards import AnswerHidden, BoardLocked, UnknownBoard, register_mode
from games.engine.deal import Deal
from sitewide.numerals import local_digits


def resolve_daily(rest: str) -> Deal:
    """`<YYYY-MM-DD>:<layout>`: refused before it is out or once it closed."""
    day_text, sep, slug = rest.partition(":")
    if not sep or not slug:
        raise UnknownBoard("a daily board is daily:<YYYY-MM-DD>:<layout>")
    day = days.parse_day(day_text)
    days.check_open(day, days.today())
    row, made = daily_row(slug, day)
    if made:
        verify(row, REQUEST_SOLVER_NODES)
    return deal_of(row)


def _level_number(rest: str) -> int:
    if not rest.isdigit() or not 1 <= int(rest) <= LEVELS:
        raise UnknownBoard(f"{rest!r} is not a level number (1 to {LEVELS})")
    return int(rest)


def resolve_level(rest: str) -> Deal:
    row, made = level_row(_level_number(rest))
    if made:
        verify(row, REQUEST_SOLVER_NODES)
    return deal_of(row)


def check_level(rest: str, player: Player) -> None:
    n = _level_number(rest)
    if n > unlocked_level(player):
        raise BoardLocked(f"level {n} is locked: clear level {n - 1} first")


def daily_title(rest: str, layout_name: str) -> str:
    """ "Daily · 1 December · Tall Turtle"."""
    day = days.parse_day(rest.partition(":")[0])
    when = local_digits(date_format(day, "j F"))
    return gettext("Daily · %(day)s · %(layout)s") % {
        "day": when,
        "layout": layout_name,
    }


def daily_answer_hidden(rest: str) -> AnswerHidden | None:
    """While a daily is open (and ranked) no way through is given, so no
    one can hand its clearing to another account; it opens with the day's
    close, when its JSON reveals the witness anyway."""
    day = days.parse_day(rest.partition(":")[0])
    closes = days.closes(day)
    if closes <= days.today():
        return None
    when = local_digits(date_format(closes, "j F Y"))
    message = gettext(
        "No way through while this daily is ranked: it opens on %(day)s, "
        "when the day closes."
    ) % {"day": when}
    return AnswerHidden(opens=days.closes_at(day), message=message)


def level_title(rest: str, layout_name: str) -> str:
    """ "Level 12 · Pagoda"."""
    number = local_digits(_level_number(rest))
    return gettext("Level %(number)s · %(layout)s") % {
        "number": number,
        "layout": layout_name,
    }


def next_level(rest: str) -> str | None:
    n = _level_number(rest)
    return level_key(n + 1) if n < LEVELS else None


def register() -> None:
    register_mode(
        DAILY,
        resolve_daily,
        title=daily_title,
        answer_hidden=daily_answer_hidden,
        ranked=True,
    )
    register_mode(
        LEVEL,
        resolve_level,
        check_player=check_level,
        title=level_title,
        next_key=next_level,
    )
