"""The committed rules fixture is what the engine says today.

static/js/tests/rules.test.js checks the page's free rule and matching against
tests/fixtures/rules-cases.json; that check is only worth something while the
file matches the engine, so any engine change that alters a verdict fails here
until the fixture is regenerated (and the JS re-checked).
"""

import json
import runpy
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


def _maker() -> dict:
    return runpy.run_path(str(FIXTURES / "make_rules_fixture.py"))


def test_committed_fixture_equals_what_the_engine_produces():
    committed = (FIXTURES / "rules-cases.json").read_text()
    assert committed == _maker()["render"](), (
        "tests/fixtures/rules-cases.json is stale: rerun "
        ".venv/bin/python tests/fixtures/make_rules_fixture.py"
    )


def test_fixture_covers_both_blocked_reasons_and_a_stuck_position():
    cases = json.loads((FIXTURES / "rules-cases.json").read_text())["cases"]
    reasons = {r for c in cases for r in c["blocked"].values()}
    assert reasons == {"covered", "sides"}
    assert any(not c["has_move"] for c in cases)
    assert any(c["name"].startswith("turtle") for c in cases)
    assert any(c["name"].startswith("small") for c in cases)
