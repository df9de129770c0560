"""Board page benchmark: first drawn board, frame time while turning, bytes.

Run from the project root (needs Debian's /usr/bin/chromium):

    .venv/bin/python bench/page.py
    .venv/bin/python bench/page.py --layouts small turtle --frames 120

It starts Django's server (daphne's runserver, which serves static files) on a
free loopback port with a throwaway SQLite database, opens each board in
headless chromium for a phone and a desktop viewport, and reports:

- first board: from navigation start to the first frame with tiles on it,
  and to the pile standing (the build animation done), from the page's own
  performance marks;
- frame time while turning the view round the pile, from
  requestAnimationFrame timestamps inside the page, with the main thread's
  share of each frame (matrices and three.js's draw submission) and the draw
  calls and triangles of the last frame;
- bytes transferred, all responses and JavaScript alone, raw and gzipped
  (gzipped here, level 6, as a compressing front server would send them).

WebGL here is SwiftShader (software): frame times measure this machine's CPU,
not a phone's GPU. The page draws at device pixel ratio 1 and without
antialiasing when it sees a software renderer.
"""

import argparse
import gzip
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

VIEWPORTS = {
    "phone 390x844": {"width": 390, "height": 844},
    "desktop 1280x800": {"width": 1280, "height": 800},
}
SETTINGS = """\
from config.settings import *  # noqa: F403

DATABASES["default"]["NAME"] = {db!r}  # noqa: F405
DEBUG = True
"""

# Turn the view a little every frame and keep the timestamps.
TURN_SCRIPT = """(frames) => new Promise((done) => {
  const stamps = [];
  function step(t) {
    stamps.push(t);
    window.tilesBoard.turn(0.015);
    if (stamps.length <= frames) requestAnimationFrame(step);
    else done(stamps);
  }
  requestAnimationFrame(step);
})"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(tmp: Path, port: int) -> subprocess.Popen:
    (tmp / "bench_settings.py").write_text(SETTINGS.format(db=str(tmp / "bench.db")))
    env = {
        **os.environ,
        "PYTHONPATH": f"{tmp}{os.pathsep}{ROOT}",
        "DJANGO_SETTINGS_MODULE": "bench_settings",
    }
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, cwd=ROOT, check=True)
    server = subprocess.Popen(
        [*manage, "runserver", f"127.0.0.1:{port}", "--noreload"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
            return server
        except OSError:
            time.sleep(0.3)
    server.terminate()
    raise SystemExit("the server did not start in 30 s")


def measure(browser, url: str, viewport: dict, frames: int) -> dict:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    sizes: list[tuple[str, str, int, int]] = []

    def on_response(response):
        try:
            body = response.body()
        except Exception:  # redirects and aborted requests have no body
            return
        kind = response.headers.get("content-type", "")
        sizes.append(
            (response.url, kind, len(body), len(gzip.compress(body, compresslevel=6)))
        )

    page.on("response", on_response)
    page.goto(url)
    page.wait_for_function(
        "() => performance.getEntriesByName('tiles:pile-built').length > 0",
        timeout=120_000,
    )
    marks = page.evaluate(
        "() => ['tiles:first-board', 'tiles:pile-built'].map("
        "n => performance.getEntriesByName(n)[0].startTime)"
    )
    page.wait_for_function("() => window.tilesBoard.idle()", timeout=60_000)
    before = page.evaluate("() => window.tilesBoard.stats()")
    stamps = page.evaluate(TURN_SCRIPT, frames)
    after = page.evaluate("() => window.tilesBoard.stats()")
    context.close()
    drawn = after["frames"] - before["frames"]
    deltas = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    js = [s for s in sizes if "javascript" in s[1] or s[0].endswith(".js")]
    return {
        "first_board_ms": marks[0],
        "built_ms": marks[1],
        "frame_median_ms": statistics.median(deltas),
        "frame_p90_ms": sorted(deltas)[int(0.9 * len(deltas))],
        "main_ms": (after["frameMs"] - before["frameMs"]) / max(1, drawn),
        "calls": after["calls"],
        "triangles": after["triangles"],
        "requests": len(sizes),
        "total_raw": sum(s[2] for s in sizes),
        "total_gz": sum(s[3] for s in sizes),
        "js_raw": sum(s[2] for s in js),
        "js_gz": sum(s[3] for s in js),
    }


def run_all(port: int, layouts: list[str], frames: int) -> list:
    from playwright.sync_api import sync_playwright

    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for slug in layouts:
            for name, viewport in VIEWPORTS.items():
                url = f"http://127.0.0.1:{port}/play/{slug}/"
                rows.append((slug, name, measure(browser, url, viewport, frames)))
        browser.close()
    return rows


def kib(n: int) -> str:
    return f"{n / 1024:.0f} KiB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layouts", nargs="+", default=["small", "turtle"])
    parser.add_argument("--frames", type=int, default=120)
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing: apt-get install -y chromium", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="tiles-bench-") as tmp:
        port = free_port()
        server = start_server(Path(tmp), port)
        try:
            rows = run_all(port, args.layouts, args.frames)
        finally:
            server.terminate()
            server.wait(10)

    print(f"Board page, chromium + SwiftShader, load average {os.getloadavg()[0]:.1f}")
    print(
        f"{'layout':8} {'viewport':17} {'first board':>11} {'pile built':>10} "
        f"{'frame p50':>9} {'frame p90':>9} {'fps':>5} {'main':>7} "
        f"{'draws':>5} {'triangles':>9}"
    )
    for slug, name, r in rows:
        print(
            f"{slug:8} {name:17} {r['first_board_ms']:9.0f}ms {r['built_ms']:8.0f}ms "
            f"{r['frame_median_ms']:7.1f}ms {r['frame_p90_ms']:7.1f}ms "
            f"{1000 / r['frame_median_ms']:5.1f} {r['main_ms']:5.1f}ms "
            f"{r['calls']:5d} {r['triangles']:9d}"
        )
    r = rows[0][2]
    print(
        f"Transferred (first visit, {r['requests']} responses): "
        f"total {kib(r['total_raw'])} raw, {kib(r['total_gz'])} gzipped; "
        f"JavaScript {kib(r['js_raw'])} raw, {kib(r['js_gz'])} gzipped"
    )
    print("Rerun: .venv/bin/python bench/page.py " + " ".join(sys.argv[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
