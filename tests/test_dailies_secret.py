"""Deals nobody can compute before they are revealed, committed a week ahead.

The attacker of issue 24 has read our code: with a date and generate_deal it
dealt the server's daily byte for byte. Now the public seed and the code give
some other board; once the day closes the revealed deal seed deals it again
and its commitment checks out with Python's hashlib and `sha256sum`, by the
steps docs/fair-deals.md gives (read from the file and run as written).
"""

import json
import os
import re
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest
from django.test import override_settings

from dailies import days
from dailies.deals import daily_row
from dailies.models import DailyDeal
from dailies.tasks import prepare_dailies
from games.engine.catalogue import get_layout
from games.engine.commitment import SCHEME, SEEDED_SCHEME, commitment, new_salt
from games.engine.deal import generate_deal
from games.engine.formats import deal_to_json
from games.layouts import playable_layouts

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 1)
REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "fair-deals.md"


@pytest.fixture
def today(monkeypatch):
    """Days.today(), as a box the test can move."""
    now = {"day": TODAY}
    monkeypatch.setattr(days, "today", lambda at=None: now["day"])
    return now


def served_faces(day: date, slug: str) -> list[str]:
    return list(DailyDeal.objects.get(date=day, layout_slug=slug).faces)


def test_the_code_and_the_public_seed_do_not_deal_today_or_tomorrow(client, today):
    """The issue's attack: deal today's and tomorrow's Tall Turtle from the
    public code and the date, and compare with what the server deals."""
    served_today = client.get(f"/daily/{TODAY}/tall-turtle.json").json()
    assert served_today["seed"] == str(TODAY)
    assert [t["face"] for t in served_today["tiles"]] == served_faces(
        TODAY, "tall-turtle"
    )
    layout = get_layout("tall-turtle")
    for day in (TODAY, TODAY + timedelta(days=1)):
        if day > TODAY:  # tomorrow's deal exists once its commitment is listed
            assert client.get("/daily/commitments.json").status_code == 200
        row = DailyDeal.objects.get(date=day, layout_slug="tall-turtle")
        for seed in (day.isoformat(), day.strftime("%Y%m%d")):
            guess = generate_deal(layout, seed)
            assert list(guess.faces) != row.faces
            assert [list(p) for p in guess.solution] != row.witness


def test_the_same_public_seed_deals_the_same_board_on_this_site(today):
    first = daily_row("small", TODAY)[0]
    made_again = daily_row("small", TODAY)[0]
    assert made_again.pk == first.pk
    DailyDeal.objects.all().delete()
    remade = daily_row("small", TODAY)[0]
    assert (remade.faces, remade.witness) == (first.faces, first.witness)
    assert remade.commitment == first.commitment
    with override_settings(DEAL_SECRET="another site's secret, not ours at all"):
        DailyDeal.objects.all().delete()
        assert daily_row("small", TODAY)[0].faces != first.faces


def test_commitments_cover_every_layout_a_week_ahead(client, today):
    listed = client.get("/daily/commitments.json").json()
    assert listed["today"] == str(TODAY)
    wanted = {
        (str(TODAY + timedelta(days=k)), layout.slug)
        for k in range(8)
        for layout in playable_layouts()
    }
    got = {(c["date"], c["layout"]) for c in listed["commitments"]}
    assert got == wanted
    assert all(c["scheme"] == SEEDED_SCHEME for c in listed["commitments"])
    assert all(re.fullmatch("[0-9a-f]{64}", c["sha256"]) for c in listed["commitments"])


def by_key(listed: dict) -> dict[tuple[str, str], str]:
    return {(c["date"], c["layout"]): c["sha256"] for c in listed["commitments"]}


def test_a_listed_commitment_never_changes(client, today, monkeypatch):
    """Listed a week ahead, the same every day after, the same in the day's
    own JSON once it opens and once it closes; the hourly task changes none."""
    first = by_key(client.get("/daily/commitments.json").json())
    small = [layout for layout in playable_layouts() if layout.slug == "small"]
    monkeypatch.setattr("dailies.tasks.playable_layouts", lambda: small)
    prepare_dailies.apply().get()
    day = TODAY + timedelta(days=7)
    promised = first[(str(day), "small")]
    for k in range(1, 8):
        today["day"] = TODAY + timedelta(days=k)
        later = by_key(client.get("/daily/commitments.json").json())
        for key in set(first) & set(later):
            assert later[key] == first[key], key
    opened = client.get(f"/daily/{day}/small.json").json()
    assert opened["commitment"]["sha256"] == promised
    today["day"] = days.closes(day)
    closed = client.get(f"/daily/{day}/small.json").json()
    assert closed["closed"] and closed["commitment"]["sha256"] == promised


def doc_step(name: str) -> str:
    """The shell block of docs/fair-deals.md marked `<!-- step: name -->`."""
    text = DOC.read_text()
    block = re.search(rf"<!-- step: {name} -->\s*```\n(.*?)```", text, re.S)
    assert block, f"docs/fair-deals.md has no step {name}"
    # The block is indented under its list item.
    return "\n".join(line.removeprefix("   ") for line in block.group(1).splitlines())


def run_step(name: str, folder: Path) -> str:
    """Run a documented step in `folder` with bash; its python3 is this
    Python, and the code is on its path as a checkout would be."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(exist_ok=True)
    if not (bin_dir / "python3").exists():
        (bin_dir / "python3").symlink_to(sys.executable)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "PYTHONPATH": str(REPO),
    }
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", doc_step(name)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_closed_day_checks_out_by_the_documented_steps(client, today, tmp_path):
    """Save the commitment a week ahead, fetch the day once it has closed,
    and follow docs/fair-deals.md: hashlib and sha256sum give the saved
    commitment, and the deal seed deals the same tiles and witness."""
    day = TODAY + timedelta(days=7)
    saved = by_key(client.get("/daily/commitments.json").json())
    promised = saved[(str(day), "tall-turtle")]
    today["day"] = days.closes(day)
    deal = client.get(f"/daily/{day}/tall-turtle.json").json()
    assert deal["closed"] and len(deal["deal_seed"]) == 64
    (tmp_path / "deal.json").write_text(json.dumps(deal))

    hashed = run_step("committed-text", tmp_path).split()
    # sha256sum prints "<hash>  committed.txt", then hashlib's hash.
    assert hashed == [promised, "committed.txt", promised]
    out = run_step("deal-again", tmp_path)
    assert "the same tiles and solution" in out

    # A deal seed that is not the one committed fails both checks.
    deal["deal_seed"] = "0" * 64
    (tmp_path / "deal.json").write_text(json.dumps(deal))
    assert run_step("committed-text", tmp_path).split()[0] != promised
    with pytest.raises(AssertionError, match="other faces"):
        run_step("deal-again", tmp_path)


def test_a_level_cleared_reveals_what_deals_it_again(tmp_path, monkeypatch):
    from tests.run_helpers import Browser, play_through

    me = Browser()
    play_through(me, me.start("level:1").json())
    checked = [me.client.get("/levels/1.json").json()]
    # Level 90, every face as four, for a player who cleared it.
    monkeypatch.setattr("dailies.fair.cleared_keys", lambda player, keys: set(keys))
    checked.append(me.client.get("/levels/90.json").json())
    assert checked[1]["quads"] == 36
    for level in checked:
        assert {"deal_seed", "solution", "quads"} <= set(level)
        (tmp_path / "deal.json").write_text(json.dumps(level))
        assert (
            run_step("committed-text", tmp_path).split()[0]
            == (level["commitment"]["sha256"])
        )
        assert "the same tiles" in run_step("deal-again", tmp_path)


def test_a_deal_stored_before_deal_seeds_stays_as_it_was(client, today):
    """Rows made by the old code keep their deal and salted commitment."""
    old = generate_deal(get_layout("small"), TODAY.isoformat())
    tiles = deal_to_json(old)["tiles"]
    salt = new_salt()
    DailyDeal.objects.create(
        date=TODAY,
        layout_slug="small",
        layout_name="Small",
        positions=[list(p) for p in old.layout.positions],
        seed=TODAY.isoformat(),
        faces=list(old.faces),
        witness=[list(p) for p in old.solution],
        salt=salt,
        commitment=commitment(tiles, old.solution, salt),
    )
    served = client.get(f"/daily/{TODAY}/small.json").json()
    assert [t["face"] for t in served["tiles"]] == list(old.faces)
    assert served["commitment"]["scheme"] == SCHEME
    today["day"] = days.closes(TODAY)
    closed = client.get(f"/daily/{TODAY}/small.json").json()
    assert closed["salt"] == salt and "deal_seed" not in closed


@pytest.mark.parametrize(
    "path",
    [
        "/daily/not-a-day.json",
        "/daily/2026-13-45.json",
        "/daily/2026-13-45/small.json",
        "/daily/2026-12-01/no-such-layout.json",
        "/daily/2027-01-01/small.json",
        "/levels/0.json",
        "/levels/101.json",
        "/levels/abc.json",
        "/levels/-1.json",
        "/levels/1/x.json",
    ],
)
def test_unknown_days_and_levels_answer_json_404(client, today, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"] == "not_found"


def test_the_fair_page_lists_the_commitments_ahead(client, today):
    page = client.get("/daily/fair/").content.decode()
    listed = by_key(client.get("/daily/commitments.json").json())
    for k in (0, 7):
        day = str(TODAY + timedelta(days=k))
        assert listed[(day, "tall-turtle")] in page
    assert "sha256sum" in page and "deal_seed" in page
