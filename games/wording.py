"""The solo rules' refusals (games.play names them) in the page's language.

games.play is pure: it raises an error naming a sentence and the numbers it
quotes. Here, at the edge, each sentence is worded with gettext in the
language active when it is read, its numbers in the page's digits;
GamesConfig.ready registers them with games.errors.
"""

from collections.abc import Mapping

from django.utils.translation import gettext

from games.errors import Wording
from sitewide.numerals import local_digits


def _digits(params: Mapping[str, int]) -> dict[str, str]:
    return {name: local_digits(value) for name, value in params.items()}


WORDINGS: dict[str, Wording] = {
    "finished": lambda _: gettext("this run is over"),
    "run_stale": lambda p: (
        gettext("the board has %(taken)s pairs taken, the request counted %(move)s")
        % _digits(p)
    ),
    "run_empty": lambda _: gettext("no pair has been taken yet"),
    "in_play": lambda _: gettext("where it turned is shown once the run is over"),
    "no_shuffle": lambda _: gettext("shuffling is not allowed on this board"),
    "run_no_order": lambda _: gettext(
        "the standing tiles cannot be cleared in any order; undo or restart"
    ),
}
