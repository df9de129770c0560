"""Board page benchmark: the app's frame rate against a plain three.js page.

Run from the project root (needs Debian's /usr/bin/chromium):

    .venv/bin/python bench/page.py                        # the working tree
    .venv/bin/python bench/page.py --baseline main        # and main, same run
    .venv/bin/python bench/page.py --layout small --rounds 3 --seconds 6

It starts Django's server (daphne's runserver, which serves static files) on a
free loopback port with a throwaway SQLite database, one per tree measured
(`--baseline REV` exports that commit with `git archive`, shares this tree's
node_modules and runs its `npm run build` if it has one), and for a phone
and a desktop viewport, in alternating order, round after round:

- opens the board in a fresh browser context (a first visit: nothing
  cached) and reads from the page's own performance marks the **first
  board** (navigation start to the first frame with tiles on it) and
  **built** (the pile standing, the build animation done), and how many
  frames the build animation showed and at what rate;
- drags the view (the mouse held down and moved in a small circle, as a
  finger pans) and counts the frames the board drew: **drag fps**;
- opens `bench/plain.html` at the same canvas size: one three.js mesh a
  box, a box for every spot of the same layout, Lambert and two lights,
  the board's renderer settings (antialiasing and pixel ratio chosen the
  same way), seen from the board's camera (when the board tells it; else
  from above, the pile's width filling the canvas), moved by the same
  MapControls and drawn on demand the same way, and drags it the same way:
  **plain fps**, and the **ratio** app / plain. The two pages stay open
  side by side and are dragged in turn, a second at a time (`--slices`),
  so a change in the machine's load falls on both;
- the JavaScript the first visit fetched, raw and gzipped (level 6, as a
  compressing front server sends it).

WebGL here is SwiftShader (software): frame rates measure this machine's CPU
filling pixels, not a phone's GPU; the ratio to the plain page, measured
seconds apart in the same run, is what carries over.

Frames wait for the display's 60 a second: on a quiet machine both pages
of the phone viewport reach that and the ratio reads about 1 whatever a
frame costs. `--uncapped` lets both draw as fast as they can (chromium's
frame rate limit and vsync off), so the ratio shows the cost again.
"""

import argparse
import gzip
import json
import math
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
from games.engine.catalogue import get_layout  # noqa: E402
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

VIEWPORTS = {
    "phone 390x844": {"width": 390, "height": 844},
    "desktop 1366x768": {"width": 1366, "height": 768},
}
SETTINGS = """\
from config.settings import *  # noqa: F403

DATABASES["default"]["NAME"] = {db!r}  # noqa: F405
DEBUG = True
"""
PLAIN = ROOT / "bench" / "plain.html"
THREE_BUILD = ROOT / "node_modules" / "three" / "build"
THREE_ADDONS = ROOT / "node_modules" / "three" / "examples" / "jsm"

# Every animation frame's time, from the first script on: counts the frames
# the build animation showed without asking the page's code for anything.
FRAME_STAMPS = """
window.benchFrames = [];
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (callback) =>
  raf((t) => { window.benchFrames.push(performance.now()); callback(t); });
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def export_tree(rev: str, into: Path) -> Path:
    """The tree of commit `rev`, ready to serve (its JS built if it builds)."""
    into.mkdir()
    archive = subprocess.run(
        ["git", "archive", rev], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "node_modules").symlink_to(ROOT / "node_modules")
    scripts = json.loads((into / "package.json").read_text()).get("scripts", {})
    if "build" in scripts:
        subprocess.run(["npm", "run", "--silent", "build"], cwd=into, check=True)
    return into


def start_server(tree: Path, tmp: Path) -> tuple[subprocess.Popen, str]:
    tmp.mkdir()
    (tmp / "bench_settings.py").write_text(SETTINGS.format(db=str(tmp / "bench.db")))
    # The throwaway SQLite database and in-memory layers, whatever the shell
    # exports: the settings switch to PostgreSQL and Redis on these.
    production = ("DATABASE_URL", "REDIS_URL")
    shell = {k: v for k, v in os.environ.items() if k not in production}
    env = {
        **shell,
        "PYTHONPATH": f"{tmp}{os.pathsep}{tree}",
        "DJANGO_SETTINGS_MODULE": "bench_settings",
    }
    manage = [sys.executable, str(tree / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, cwd=tree, check=True)
    port = free_port()
    server = subprocess.Popen(
        [*manage, "runserver", f"127.0.0.1:{port}", "--noreload"],
        env=env,
        cwd=tree,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{url}/", timeout=2)
            return server, url
        except OSError:
            time.sleep(0.3)
    server.terminate()
    raise SystemExit(f"the server of {tree} did not start in 60 s")


def drag(page, frames_js: str, seconds: float) -> tuple[float, float]:
    """Hold the mouse down on the canvas and circle it: frames drawn, ms."""
    box = page.locator("canvas").first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    t0, f0 = page.evaluate(f"() => [performance.now(), {frames_js}]")
    end = time.monotonic() + seconds
    k = 0
    while time.monotonic() < end:
        k += 1
        page.mouse.move(x + 30 * math.cos(k * 0.2), y + 30 * math.sin(k * 0.2))
    t1, f1 = page.evaluate(f"() => [performance.now(), {frames_js}]")
    page.mouse.up()
    return f1 - f0, t1 - t0


def open_app(browser, url: str, viewport: dict) -> tuple:
    """A first visit of the board: its context, page and load figures."""
    context = browser.new_context(viewport=viewport)
    context.add_init_script(FRAME_STAMPS)
    page = context.new_page()
    js: list[tuple[int, int]] = []

    def on_response(response):
        kind = response.headers.get("content-type", "")
        if "javascript" not in kind and not response.url.endswith(".js"):
            return
        try:
            body = response.body()
        except Exception:  # redirects and aborted requests have no body
            return
        js.append((len(body), len(gzip.compress(body, compresslevel=6))))

    page.on("response", on_response)
    page.goto(url)
    page.wait_for_function(
        "() => performance.getEntriesByName('tiles:pile-built').length > 0",
        timeout=120_000,
    )
    first, built, build_frames = page.evaluate(
        """() => {
          const [a, b] = ['tiles:first-board', 'tiles:pile-built'].map(
            (n) => performance.getEntriesByName(n)[0].startTime);
          return [a, b, window.benchFrames.filter((t) => t >= a && t <= b).length];
        }"""
    )
    page.wait_for_function("() => window.tilesBoard.idle()", timeout=60_000)
    canvas = page.locator("#board-view canvas").bounding_box()
    facts = {
        "first_ms": first,
        "built_ms": built,
        "build_frames": build_frames,
        "build_fps": build_frames * 1000 / max(1.0, built - first),
        "canvas": (round(canvas["width"]), round(canvas["height"])),
        "camera": page.evaluate("() => window.tilesBoard.stats().camera || null"),
        "js_raw": sum(r for r, _ in js),
        "js_gz": sum(g for _, g in js),
    }
    return context, page, facts


def open_plain(browser, url: str, viewport: dict, facts: dict, spots) -> tuple:
    """The plain page at the board's canvas size and view: context and page."""
    context = browser.new_context(viewport=viewport)
    context.add_init_script(
        f"window.benchSpots = {json.dumps(spots)};"
        f"window.benchCamera = {json.dumps(facts['camera'])};"
    )

    def serve(route):
        # /bench-plain/page is the plain page; the rest is three.js itself.
        path = route.request.url.split("/bench-plain/", 1)[1].split("?")[0]
        kind = "text/javascript"
        if path == "page":
            file, kind = PLAIN, "text/html"
        elif path.startswith("addons/"):
            file = THREE_ADDONS / path.removeprefix("addons/")
        else:
            file = THREE_BUILD / path
        route.fulfill(path=str(file), content_type=kind)

    context.route(lambda u: "/bench-plain/" in u, serve)
    page = context.new_page()
    w, h = facts["canvas"]
    page.goto(f"{url}/bench-plain/page?w={w}&h={h}")
    page.wait_for_function("() => window.plainBoard && window.plainBoard.frames() > 0")
    return context, page


def measure(browser, url: str, viewport: dict, layout: str, spots, args) -> dict:
    """Load figures, then drag fps of the board and of the plain page, taken
    in alternating slices so that the machine's load falls on both alike."""
    app_context, app, facts = open_app(browser, f"{url}/play/{layout}/", viewport)
    plain_context, plain = open_plain(browser, url, viewport, facts, spots)
    totals = {"app": [0.0, 0.0], "plain": [0.0, 0.0]}
    slice_s = args.seconds / args.slices
    for _ in range(args.slices):
        for name, page, frames_js, idle_js in (
            (
                "app",
                app,
                "window.tilesBoard.stats().frames",
                "window.tilesBoard.idle()",
            ),
            ("plain", plain, "window.plainBoard.frames()", "window.plainBoard.idle()"),
        ):
            frames, ms = drag(page, frames_js, slice_s)
            totals[name][0] += frames
            totals[name][1] += ms
            # The view glides to a stop after the drag: let it, so that the
            # next slice's page draws alone.
            page.wait_for_function(f"() => {idle_js}", timeout=120_000)
    app_context.close()
    plain_context.close()
    facts["fps"] = totals["app"][0] * 1000 / totals["app"][1]
    facts["plain_fps"] = totals["plain"][0] * 1000 / totals["plain"][1]
    facts["ratio"] = facts["fps"] / facts["plain_fps"]
    return facts


def run_all(trees: dict[str, str], args):
    from playwright.sync_api import sync_playwright

    spots = [list(p) for p in get_layout(args.layout).positions]
    rows: dict[tuple[str, str], list[dict]] = {}
    with sync_playwright() as p:
        uncapped = ["--disable-frame-rate-limit", "--disable-gpu-vsync"]
        flags = CHROMIUM_ARGS + (uncapped if args.uncapped else [])
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=flags)
        for k in range(args.rounds):
            order = list(trees.items())
            if k % 2:
                order.reverse()
            for vname, viewport in VIEWPORTS.items():
                for tname, url in order:
                    r = measure(browser, url, viewport, args.layout, spots, args)
                    rows.setdefault((tname, vname), []).append(r)
                    print(f"  round {k + 1} {tname:10} {vname:17} {summary(r)}")
        browser.close()
    return rows


def summary(r: dict) -> str:
    return (
        f"first {r['first_ms']:5.0f} ms  built {r['built_ms']:5.0f} ms "
        f"({r['build_frames']:3d} frames, {r['build_fps']:4.1f} fps)  "
        f"drag {r['fps']:5.1f} fps  plain {r['plain_fps']:5.1f} fps  "
        f"ratio {r['ratio']:.2f}  JS {r['js_gz'] / 1024:.0f} KiB gz"
    )


def report(rows: dict, args) -> None:
    print(
        f"\n{args.layout}, chromium + SwiftShader, {args.rounds} rounds of "
        f"{args.seconds:.0f} s drags{', uncapped' if args.uncapped else ''}, medians; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'tree':10} {'viewport':17} {'first board':>11} {'built':>7} "
        f"{'build fps':>9} {'drag fps':>8} {'plain fps':>9} {'ratio':>5} "
        f"{'JS gz':>7} {'JS raw':>7}"
    )
    for (tname, vname), runs in rows.items():

        def med(key: str, runs=runs) -> float:
            return statistics.median(r[key] for r in runs)

        print(
            f"{tname:10} {vname:17} {med('first_ms'):9.0f}ms {med('built_ms'):5.0f}ms "
            f"{med('build_fps'):9.1f} {med('fps'):8.1f} {med('plain_fps'):9.1f} "
            f"{med('ratio'):5.2f} {med('js_gz') / 1024:4.0f}KiB "
            f"{med('js_raw') / 1024:4.0f}KiB"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="turtle")
    parser.add_argument("--baseline", metavar="REV", help="also measure this commit")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=6.0, help="of dragging each")
    parser.add_argument("--slices", type=int, default=6, help="alternations")
    parser.add_argument(
        "--uncapped", action="store_true", help="no 60 fps cap on either page"
    )
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing: apt-get install -y chromium", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="tiles-bench-") as tmp:
        tmp = Path(tmp)
        sources = {"this tree": ROOT}
        if args.baseline:
            sources[args.baseline] = export_tree(args.baseline, tmp / "baseline")
        servers, trees = [], {}
        try:
            for k, (name, tree) in enumerate(sources.items()):
                server, url = start_server(tree, tmp / f"server{k}")
                servers.append(server)
                trees[name] = url
            rows = run_all(trees, args)
        finally:
            for server in servers:
                server.terminate()
                server.wait(10)
    report(rows, args)
    print("Rerun: .venv/bin/python bench/page.py " + " ".join(sys.argv[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
