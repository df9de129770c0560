"""The provably fair JSON of a daily or a level (docs/fair-deals.md).

The deal in the spec's JSON with its commitment, and the witness and the
salt only once they may be shown: a daily after it closes, a level to a
player who has cleared it. A future day is never shown; a closed day that
was never dealt has nothing to prove.
"""

from datetime import timedelta

from django.http import Http404, JsonResponse

from accounts.players import known_player
from dailies import days
from dailies.deals import daily_row, deal_of, level_row
from dailies.keys import level_key
from dailies.levels import LEVELS
from dailies.models import DailyDeal, StoredDeal
from dailies.standings import cleared_keys
from games.engine.catalogue import UnknownLayout
from games.engine.commitment import SCHEME
from games.engine.formats import deal_to_json


def fair_json(row: StoredDeal, reveal: bool) -> dict:
    body = deal_to_json(deal_of(row))
    del body["solution"]
    body["commitment"] = {"scheme": SCHEME, "sha256": row.commitment}
    if reveal:
        body["solution"] = row.witness
        body["salt"] = row.salt
    return body


def daily_json(request, day: str, layout: str) -> JsonResponse:
    today = days.today()
    try:
        date = days.parse_day(day)
    except days.DayNotOpen as e:
        raise Http404(str(e)) from None
    if date > today:
        raise Http404(f"the daily for {date} is not out yet")
    closes = date + timedelta(days=days.OPEN_DAYS)
    closed = closes <= today
    if closed:
        row = DailyDeal.objects.filter(layout_slug=layout, date=date).first()
        if row is None:
            raise Http404(f"no {layout} daily was dealt for {date}")
    else:
        try:
            row = daily_row(layout, date)[0]
        except UnknownLayout as e:
            raise Http404(str(e)) from None
    body = {"date": date.isoformat(), "closes": closes.isoformat(), "closed": closed}
    return JsonResponse({**fair_json(row, reveal=closed), **body})


def level_json(request, n: int) -> JsonResponse:
    if not 1 <= n <= LEVELS:
        raise Http404(f"no level {n}: levels run from 1 to {LEVELS}")
    row = level_row(n)[0]
    key = level_key(n)
    cleared = key in cleared_keys(known_player(request), [key])
    return JsonResponse({**fair_json(row, reveal=cleared), "level": n})
