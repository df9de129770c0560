"""The provably fair JSON of dailies and levels (docs/fair-deals.md).

The deal in the spec's JSON with its commitment, and the witness and the
deal seed only once they may be shown: a daily after it closes, a level to
a player who has cleared it. A future day's deal is never shown, only its
commitment (`commitments.json`, a week ahead); a closed day that was never
dealt has nothing to prove. Every answer here is JSON, errors included.
"""

from datetime import date

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render

from accounts.players import known_player
from dailies import days
from dailies.deals import daily_row, deal_of, level_row, scheme_of
from dailies.keys import level_key
from dailies.levels import LEVELS
from dailies.models import DailyDeal, LevelDeal, StoredDeal
from dailies.standings import cleared_keys
from games.engine.catalogue import UnknownLayout
from games.engine.formats import deal_to_json
from games.layouts import playable_layouts


def not_found(message: str) -> JsonResponse:
    return JsonResponse({"error": "not_found", "message": message}, status=404)


def unknown_json(request, path: str = "") -> JsonResponse:
    """Any other `.json` address under /daily/ and /levels/."""
    return not_found(f"no deal at {request.path}")


def fair_json(row: StoredDeal, reveal: bool) -> dict:
    body = deal_to_json(deal_of(row))
    del body["solution"]
    body["commitment"] = {"scheme": scheme_of(row), "sha256": row.commitment}
    if reveal:
        body["solution"] = row.witness
        if row.deal_seed:
            body["deal_seed"] = row.deal_seed
        else:
            body["salt"] = row.salt
    return body


def daily_json(request, day: str, layout: str) -> JsonResponse:
    today = days.today()
    try:
        date = days.parse_day(day)
    except days.DayNotOpen as e:
        return not_found(str(e))
    if date > today:
        return not_found(
            f"the daily for {date} is not out yet; its commitment is in "
            "/daily/commitments.json"
        )
    closed = days.closes(date) <= today
    if closed:
        row = DailyDeal.objects.filter(layout_slug=layout, date=date).first()
        if row is None:
            return not_found(f"no {layout} daily was dealt for {date}")
    else:
        try:
            row = daily_row(layout, date)[0]
        except UnknownLayout as e:
            return not_found(str(e.args[0]))
    body = {
        "date": date.isoformat(),
        "closes": days.closes(date).isoformat(),
        "closed": closed,
    }
    return JsonResponse({**fair_json(row, reveal=closed), **body})


def level_json(request, n: str) -> JsonResponse:
    if not n.isdigit() or not 1 <= int(n) <= LEVELS:
        return not_found(f"no level {n}: levels run from 1 to {LEVELS}")
    row: LevelDeal = level_row(int(n))[0]
    key = level_key(int(n))
    cleared = key in cleared_keys(known_player(request), [key])
    body = {**fair_json(row, reveal=cleared), "level": int(n)}
    if cleared:
        body["quads"] = row.quads  # generate_deal's third argument
    return JsonResponse(body)


def committed(today: date) -> list[DailyDeal]:
    """Every published layout's deal for today and the days ahead whose
    commitments are published, made now if no worker made it yet."""
    wanted = days.committed_days(today)
    slugs = [layout.slug for layout in playable_layouts()]
    stored = {
        (row.date, row.layout_slug): row
        for row in DailyDeal.objects.filter(date__in=wanted, layout_slug__in=slugs)
    }
    return [
        stored.get((day, slug)) or daily_row(slug, day)[0]
        for day in wanted
        for slug in slugs
    ]


def commitments_json(request) -> JsonResponse:
    today = days.today()
    rows = committed(today)
    listed = [
        {
            "date": row.date.isoformat(),
            "layout": row.layout_slug,
            "scheme": scheme_of(row),
            "sha256": row.commitment,
        }
        for row in rows
    ]
    return JsonResponse({"today": today.isoformat(), "commitments": listed})


def fair_page(request) -> HttpResponse:
    """How to check a deal, and the commitments of the days ahead."""
    today = days.today()
    rows = committed(today)
    by_day: dict[date, list[DailyDeal]] = {}
    for row in rows:
        by_day.setdefault(row.date, []).append(row)
    context = {"today": today, "committed": sorted(by_day.items())}
    return render(request, "dailies/fair.html", context)
