"""The daily page and the levels page. Both only read: playing happens on the
board page, which each card links to with `?board=<key>`."""

from dataclasses import dataclass
from datetime import date
from urllib.parse import urlencode

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from accounts.models import Player
from accounts.players import known_player
from dailies import days
from dailies.deals import HEADLINE_LAYOUT
from dailies.keys import daily_key, level_key
from dailies.levels import LEVELS, level_spec
from dailies.standings import (
    Entry,
    best_times,
    cleared_keys,
    leaderboard,
    unlocked_level,
    waiting_times,
)
from games.engine.layout import Layout
from games.layouts import playable_layouts

DAILY_BOARD_SIZE = 10


def board_url(layout_slug: str, key: str) -> str:
    return reverse("games:board", args=[layout_slug]) + "?" + urlencode({"board": key})


@dataclass
class DailyCard:
    layout: Layout
    key: str
    url: str
    best_ms: int | None
    leaders: list[Entry]
    waiting_ms: int | None  # the player's clear waiting for review, if any


def _cards(day: date, player: Player | None) -> list[DailyCard]:
    layouts = playable_layouts()
    # The headline daily first, then the rest by size as everywhere else.
    layouts.sort(key=lambda lay: lay.slug != HEADLINE_LAYOUT)
    keys = [daily_key(day, lay.slug) for lay in layouts]
    best = best_times(player, keys)
    waiting = waiting_times(player, keys)
    return [
        DailyCard(
            layout=lay,
            key=key,
            url=board_url(lay.slug, key),
            best_ms=best.get(key),
            leaders=leaderboard(key, DAILY_BOARD_SIZE),
            waiting_ms=waiting.get(key),
        )
        for lay, key in zip(layouts, keys, strict=True)
    ]


def daily(request, day: str | None = None):
    today = days.today()
    try:
        shown = days.parse_day(day) if day else today
        days.check_open(shown, today)
    except days.DayNotOpen as e:
        raise Http404(str(e)) from None
    cards = _cards(shown, known_player(request))
    context = {
        "day": shown,
        "today": today,
        "open_days": days.open_days(today),
        "headline": cards[0] if cards else None,
        "others": cards[1:],
    }
    return render(request, "dailies/daily.html", context)


@dataclass
class LevelCell:
    number: int
    layout_name: str
    tiles: int
    url: str | None  # None while locked
    cleared: bool
    best_ms: int | None


def levels(request):
    player = known_player(request)
    open_up_to = unlocked_level(player)
    keys = [level_key(n) for n in range(1, LEVELS + 1)]
    best = best_times(player, keys)
    cleared = cleared_keys(player, keys)
    cells = []
    for n, key in enumerate(keys, start=1):
        spec = level_spec(n)
        cells.append(
            LevelCell(
                number=n,
                layout_name=spec.layout_slug.replace("-", " ").title(),
                tiles=spec.tiles,
                url=board_url(spec.layout_slug, key) if n <= open_up_to else None,
                cleared=key in cleared,
                best_ms=best.get(key),
            )
        )
    context = {"cells": cells, "unlocked": open_up_to, "guest": player is None}
    return render(request, "dailies/levels.html", context)
