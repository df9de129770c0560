"""The `deal` command's --daily and --level options: print a stored deal.

The deal is read from its row (made first, by the same code as the tasks,
if it is missing), so printing it twice, or on another machine with the same
database, gives the same board byte for byte.
"""

from django.core.management.base import CommandError

from dailies import days
from dailies.deals import (
    REQUEST_SOLVER_NODES,
    daily_row,
    deal_of,
    level_row,
    verify,
)
from dailies.levels import UnknownLevel
from games.engine.catalogue import UnknownLayout
from games.engine.deal import Deal


def stored_deal(layout: str | None, daily: str | None, level: int | None) -> Deal:
    if daily is not None and level is not None:
        raise CommandError("give --daily or --level, not both")
    try:
        if level is not None:
            if layout:
                raise CommandError("--level decides the layout: leave LAYOUT out")
            row, made = level_row(level)
        else:
            if not layout:
                raise CommandError("--daily needs a LAYOUT")
            assert daily is not None  # the command passes --daily or --level
            row, made = daily_row(layout, days.parse_day(daily))
    except (UnknownLevel, UnknownLayout, days.DayNotOpen) as e:
        raise CommandError(str(e.args[0])) from None
    if made:
        verify(row, REQUEST_SOLVER_NODES)
    return deal_of(row)
