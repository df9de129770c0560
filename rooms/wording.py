"""The room rules' refusals (rooms.race and rooms.together name them) in
the page's language.

The rules are pure: they raise an error naming a sentence and the numbers
it quotes. Here, at the edge, each sentence is worded with gettext in the
language of whoever reads it, at the moment they read it, its numbers in
the page's digits; RoomsConfig.ready registers them with games.errors.
"""

from collections.abc import Mapping

from django.utils.translation import gettext, ngettext

from games.errors import Wording
from rooms.race import LIMIT_MINUTES
from sitewide.numerals import local_digits


def limits_text() -> str:
    """The time limits a race may have, for a message ("0, 5, 10, 15")."""
    return ", ".join(local_digits(m) for m in LIMIT_MINUTES)


def _stale(params: Mapping[str, int]) -> str:
    moves, move = params["moves"], params["move"]
    text = ngettext(
        "you have made %(moves)s move, the request counted %(move)s",
        "you have made %(moves)s moves, the request counted %(move)s",
        moves,
    )
    return text % {"moves": local_digits(moves), "move": local_digits(move)}


WORDINGS: dict[str, Wording] = {
    # Race
    "not_racing": lambda _: gettext("you are not racing on this deal"),
    "bad_limit": lambda _: (
        gettext("the time limit must be one of %(minutes)s minutes")
        % {"minutes": limits_text()}
    ),
    "in_progress": lambda _: gettext("a race is in progress; you join the next deal"),
    "race_over": lambda _: gettext("this race is over"),
    # Why a racer who is out cannot move, by their status.
    "racer_cleared": lambda _: gettext("you have cleared your pile"),
    "racer_stopped": lambda _: gettext("you have stopped"),
    "racer_timed_out": lambda _: gettext("your time is up"),
    "racer_left": lambda _: gettext("you have left this race"),
    "race_paused": lambda _: gettext("the race is paused"),
    "building": lambda _: gettext("the pile is still being built"),
    "race_stale": _stale,
    "race_empty": lambda _: gettext("there is nothing to undo"),
    "pair_on_table": lambda _: gettext("a matching pair is still free"),
    "race_no_order": lambda _: gettext(
        "no order clears the standing tiles: undo or stop"
    ),
    "racer_out": lambda _: gettext("you are out of this race: the others play on"),
    "host_playing": lambda _: gettext("clear or stop your own pile first"),
    # Together
    "no_seats": lambda _: gettext("nobody to play"),
    "not_seated": lambda _: gettext("you watch this pile; you play the next deal"),
    "game_over": lambda _: gettext("this game is over"),
    "game_paused": lambda _: gettext("the game is paused"),
    "not_your_turn": lambda _: gettext("it is not your turn"),
}
