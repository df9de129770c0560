"""A new deal for the room: the host's choice of mode, pile and limit."""

import secrets
from dataclasses import replace

from django.utils.translation import gettext

from accounts.models import Player
from games.engine.deal import generate_deal
from games.errors import Conflict, Refused
from games.layouts import playable_layout
from rooms import race, sql, together
from rooms.changes import in_play, members_of, room_change
from rooms.models import Room, Round
from rooms.state import room_json, round_json
from rooms.wording import limits_text

# The two piles a host picks from, by the layouts' slugs.
PILES = {"big": "turtle", "small": "small"}
MODES = tuple(Round.Mode.values)


def deal_round(code: str, player: Player, mode: str, pile: str, limit: int) -> Room:
    """A new pile for everyone seated; the host's choices are kept."""
    if mode not in MODES:
        raise Refused(
            "bad_mode",
            gettext("the mode is one of %(modes)s") % {"modes": ", ".join(MODES)},
        )
    if pile not in PILES:
        raise Refused(
            "bad_pile",
            gettext("the pile is one of %(piles)s") % {"piles": ", ".join(PILES)},
        )
    if limit not in race.LIMIT_MINUTES:
        raise Refused(
            "bad_limit",
            gettext("the time limit is one of %(minutes)s minutes")
            % {"minutes": limits_text()},
        )
    layout = playable_layout(PILES[pile])
    seed = secrets.token_hex(8)
    deal = generate_deal(layout, seed)
    with room_change(code, host=player) as change:
        room, now = change.room, change.now
        if room.status != Room.Status.GAME:
            raise Conflict("not_started", gettext("start the game first"))
        if in_play(room) is not None:
            raise Conflict("racing", gettext("a race is in progress"))
        members = members_of(room)
        # Members come in seat order, which is join order: Together's turns.
        seats = [(m.seat, m.name, m.bot_level) for m in members]
        state: race.Race | together.Together
        if mode == Round.Mode.TOGETHER:
            state = together.deal(layout, deal.faces, seed, seats, now, deal.solution)
            witness, limit_ms = state.plan, None
        else:
            state = race.deal(
                layout, deal.faces, seed, seats, limit, now, deal.solution
            )
            witness, limit_ms = state.witness, state.limit_ms
        last = room.rounds.order_by("-number").values_list("number", flat=True)
        rnd = Round.objects.create(
            room=room,
            number=(last.first() or 0) + 1,
            mode=mode,
            pile=pile,
            layout_slug=layout.slug,
            layout_name=layout.name,
            positions=[list(p) for p in layout.positions],
            seed=seed,
            faces=list(deal.faces),
            witness=[list(p) for p in witness],
            dealt_at=now,
            limit_ms=limit_ms,
        )
        if isinstance(state, together.Together):
            rnd.set_together(state)
            rnd.save()
            room.wake_at = together.wake_at(state)
        else:
            rnd.set_state(state)
            rnd.save()
            change.writes += sql.race_writes(rnd.pk, replace(state, racers=()), state)
            room.wake_at = race.wake_at(state)
        room.current_round = rnd
        room.settings = {"mode": mode, "pile": pile, "limit": limit}
        change.room_fields("current_round", "settings")
        change.events += [
            ("room", room_json(room, members)),
            ("round", round_json(rnd, state)),
        ]
    return room
