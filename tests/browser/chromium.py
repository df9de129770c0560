"""How this project starts Debian's chromium: for browser tests and benches.

Headless in software WebGL (SwiftShader), and with the background services
off: this machine's network is closed and chromium would keep retrying them.
"""

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
]

# The two screens every page is checked on.
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

# Contexts of the other browser tests bypass the pages' Content-Security-
# Policy: Playwright evaluates a wait's expression with eval, which the
# policy forbids. tests/browser/test_csp.py runs the pages under it.
