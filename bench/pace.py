"""How fast two taps on two different tiles can make a pair, in chromium.

Run from the project root (needs Debian's /usr/bin/chromium):

    .venv/bin/python bench/pace.py [--pairs 12]

It serves the app (Django's server, a throwaway SQLite database), opens the
Small pile at a phone and a laptop size, and clears pairs along the deal's
clearing order by tapping each tile where it is drawn, as fast as the
machine can: the floor the page itself puts under a pair. For each pair it
reports how long the page takes from the first tap to sending the take, and
how far apart the two tiles of a pair are drawn
against a tile's width, which sets how long a person's aimed tap takes
(docs/fair-play.md turns these into the rule). The hard bot's pace is read
from rooms.bots.
"""

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.page import free_port, start_server  # noqa: E402
from rooms.bots import HARD, PACES  # noqa: E402
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE  # noqa: E402

SETTLED = (
    "() => window.tilesBoard && window.tilesBoard.idle() &&"
    " document.querySelector('#board').dataset.busy === '0'"
)


def witness(db: Path) -> list[list[int]]:
    with sqlite3.connect(db) as conn:
        (raw,) = conn.execute(
            "SELECT witness FROM games_run ORDER BY id DESC LIMIT 1"
        ).fetchone()
    return json.loads(raw)


def clear_pairs(browser, url: str, db: Path, viewport: dict, pairs: int) -> dict:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    arrived: list[float] = []
    page.on(
        "request",
        lambda r: arrived.append(time.perf_counter()) if r.url.endswith("/take") else 0,
    )
    page.goto(url)
    page.wait_for_function(SETTLED, timeout=120_000)
    gaps_px, taps_ms = [], []
    for a, b in witness(db)[:pairs]:
        pa = page.evaluate(f"window.tilesBoard.tappable({a})")
        pb = page.evaluate(f"window.tilesBoard.tappable({b})")
        if pa is None or pb is None:
            break
        start = time.perf_counter()
        page.mouse.click(pa["x"], pa["y"])
        page.mouse.click(pb["x"], pb["y"])
        page.wait_for_function(SETTLED, timeout=60_000)
        taps_ms.append((arrived[-1] - start) * 1000)
        gaps_px.append(((pa["x"] - pb["x"]) ** 2 + (pa["y"] - pb["y"]) ** 2) ** 0.5)
    context.close()
    return {"taps_ms": taps_ms, "apart_px": gaps_px}


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    return (
        f"min {min(values):.0f}, median {statistics.median(values):.0f}, "
        f"max {max(values):.0f} (n={len(values)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(Path(tmp), port)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
                )
                for name, viewport in (("phone", PHONE), ("laptop", DESKTOP)):
                    url = f"http://127.0.0.1:{port}/play/small/"
                    found = clear_pairs(
                        browser, url, Path(tmp) / "bench.db", viewport, args.pairs
                    )
                    print(f"{name} {viewport['width']}x{viewport['height']}:")
                    print(
                        f"  first of two machine taps to the take sent, ms: "
                        f"{summary(found['taps_ms'])}"
                    )
                    print(
                        f"  the pair's two tiles apart, px: "
                        f"{summary(found['apart_px'])}"
                    )
                browser.close()
        finally:
            server.terminate()
            server.wait()
    low, high = PACES[HARD].think_ms
    print(f"hard bot: {low}-{high} ms a pair, {(low + high) / 2:.0f} on average")


if __name__ == "__main__":
    main()
