"""The files in deploy/ as docs/DEPLOY.md installs them: nginx (Debian 12's,
1.22) accepts the shipped site, and every unit stops within its time."""

import re
from pathlib import Path

from tests.nginx_site import ROOT, check, main_config, need, self_signed, site

UNITS = ROOT / "deploy" / "systemd"


def test_nginx_accepts_the_shipped_site(tmp_path: Path):
    need("nginx")
    need("openssl")
    cert, key = self_signed(tmp_path, "tiles.example.org")
    (tmp_path / "public").mkdir()
    text = site(cert=cert, key=key, public=tmp_path / "public")
    out = check(main_config(tmp_path / "nginx", text), tmp_path / "nginx")
    assert out.returncode == 0, out.stderr
    # Nothing but the certificate and the folder was changed to check it.
    assert text.count("\n") == (ROOT / "deploy/nginx/tiles.conf").read_text().count(
        "\n"
    )


def test_every_service_unit_says_how_long_it_may_take_to_stop():
    for unit in UNITS.glob("*.service"):
        text = unit.read_text()
        found = re.search(r"^TimeoutStopSec=(\d+)$", text, re.M)
        assert found, f"{unit.name} has no TimeoutStopSec"
        assert int(found.group(1)) <= 60, unit.name
