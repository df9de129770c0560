"""The rules are pure Python: the rule modules import no Django and nothing
of config/, so they run (and are tested) without settings, a database or a
language. They name what they refuse with a code and its numbers; the edges
word it (games.wording, rooms.wording)."""

import ast
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.utils import translation

from games import play
from games import wording as games_wording
from games.engine.catalogue import get_layout
from games.engine.deal import generate_deal
from games.errors import Conflict, Refused
from rooms import race
from rooms import wording as rooms_wording

ROOT = Path(__file__).resolve().parent.parent
T0 = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)

RULE_MODULES = (
    "games.play",
    "games.pace",
    "games.errors",
    "rooms.race",
    "rooms.together",
    "rooms.together_bots",
    "rooms.bots",
    "rooms.positions",
    "rooms.clock",
)


def small_deal():
    deal = generate_deal(get_layout("small"), "pure-1")
    return deal.layout, deal.faces


IMPORTS = f"""
import sys
for name in {RULE_MODULES!r}:
    __import__(name)
print(" ".join(sorted(
    m for m in sys.modules
    if m.split(".")[0] in ("django", "config", "channels", "accounts", "dailies")
)))
"""


def test_the_rule_modules_import_no_django_and_no_config():
    # A fresh interpreter, no settings: what importing the rules loads.
    found = subprocess.run(
        [sys.executable, "-c", IMPORTS],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert found.stdout.split() == []


def test_a_refusal_is_a_code_with_its_numbers_worded_at_the_edge():
    state = play.deal(*small_deal(), True, T0)
    with pytest.raises(Conflict) as caught:
        play.undo(state, 2, T0)
    error = caught.value
    assert (error.code, error.says, dict(error.params)) == (
        "stale",
        "run_stale",
        {"taken": 0, "move": 2},
    )
    # Worded when read, in the language of whoever reads it.
    with translation.override("en"):
        assert error.message == "the board has 0 pairs taken, the request counted 2"
    with translation.override("ne"):
        assert error.message == "बोर्डमा ० जोडी उठाइएका छन्, अनुरोधले २ गन्यो"


def test_the_rooms_refusals_are_worded_in_the_page_language():
    error = Conflict("stale", says="race_stale", params={"moves": 3, "move": 2})
    with translation.override("ne"):
        assert error.message == "तपाईंले ३ चाल चल्नुभएको छ, अनुरोधले २ गनेको थियो"
    with translation.override("en"):
        assert error.message == "you have made 3 moves, the request counted 2"


def test_an_edge_refusing_in_its_own_words_keeps_them():
    assert Refused("bad_name", "a display name is needed").message == (
        "a display name is needed"
    )


def _named_sentences(module: str) -> set[str]:
    """The sentences a rule module's refusals name (those not worded there)."""
    tree = ast.parse((ROOT / module).read_text())
    named = set()
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", "") in ("Refused", "Conflict")
            and len(node.args) == 1
        ):
            continue
        says = next((k.value for k in node.keywords if k.arg == "says"), node.args[0])
        if isinstance(says, ast.Constant):
            named.add(says.value)
    return named


def test_every_sentence_the_rules_name_is_worded_once():
    named = {
        *_named_sentences("games/play.py"),
        *_named_sentences("rooms/race.py"),
        *_named_sentences("rooms/together.py"),
        # Why a racer who is out cannot move, by their status.
        *(
            f"racer_{s}"
            for s in (race.CLEARED, race.STOPPED, race.TIMED_OUT, race.LEFT)
        ),
    }
    assert not set(games_wording.WORDINGS) & set(rooms_wording.WORDINGS)
    worded = {**games_wording.WORDINGS, **rooms_wording.WORDINGS}
    assert named <= set(worded)
    with translation.override("ne"):
        for name in named:
            assert worded[name]({"moves": 1, "move": 2, "taken": 3}) != name
