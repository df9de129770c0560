"""Friends on the same Wi-Fi: the embedded default lets in phones that open
this machine by a private address or a `.local` name, and `make run` on all
addresses says which address to open; production keeps its strict list."""

import json
import os
import re
import sys
import time
import urllib.error
import urllib.request

import pytest

from sitewide.local_network import is_local_network_host
from tests.services import Process, free_port
from tests.test_settings import MINE, PROD, python

# Hosts a phone on the network might use, and ones nobody's phone would.
LOCAL = ["192.168.1.23", "10.0.0.7", "172.20.3.4", "laptop.local", "[fe80::1]"]
FOREIGN = ["evil.example", "8.8.8.8", "192.168.1.23.evil.example", "local", ".local"]
PROBE = (
    "import json, sys, django; django.setup(); from django.test import Client;"
    "c = Client();"
    "print(json.dumps({h: c.get('/rooms/rules', HTTP_HOST=h + ':8000').status_code"
    " for h in json.loads(sys.argv[1])}))"
)


def statuses(hosts: list[str], **env: str) -> dict[str, int]:
    out = python(["-c", PROBE, json.dumps(hosts)], **env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_embedded_default_lets_in_the_local_network_only():
    found = statuses(LOCAL + FOREIGN)
    assert {h: found[h] for h in LOCAL} == dict.fromkeys(LOCAL, 200)
    assert {h: found[h] for h in FOREIGN} == dict.fromkeys(FOREIGN, 400)


def test_production_keeps_its_own_hosts():
    found = statuses(LOCAL, **PROD, ALLOWED_HOSTS="tiles.example")
    assert found == dict.fromkeys(LOCAL, 400)
    # Without a list of its own, production serves loopback only.
    assert statuses(LOCAL, **PROD) == dict.fromkeys(LOCAL, 400)


def test_an_allowed_hosts_setting_replaces_the_local_network():
    assert statuses(["192.168.1.23"], ALLOWED_HOSTS="tiles.example") == {
        "192.168.1.23": 400
    }


@pytest.mark.parametrize("host", LOCAL)
def test_local_hosts(host):
    assert is_local_network_host(host)


@pytest.mark.parametrize("host", FOREIGN)
def test_foreign_hosts(host):
    assert not is_local_network_host(host)


def test_make_run_on_all_addresses_serves_a_phone_on_the_network():
    """`HOST=0.0.0.0 make run`: scripts/serve.py in the embedded default."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in MINE}
    env |= {"PYTHONUNBUFFERED": "1", "DJANGO_SETTINGS_MODULE": "config.settings"}
    cmd = [sys.executable, "scripts/serve.py", "--host", "0.0.0.0"]
    serve = Process([*cmd, "--port", str(port), "--parts", "web"], env, "serve.py")
    try:
        deadline = time.monotonic() + 60
        phone_url = None
        while phone_url is None:
            assert time.monotonic() < deadline, serve.log()
            assert serve.proc.poll() is None, serve.log()
            found = re.search(r"Phones on this network open (http://\S+)", serve.log())
            phone_url = found and found.group(1)
            time.sleep(0.1)
        assert phone_url.endswith(f":{port}/")

        def get(host: str) -> int:
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/rooms/rules",
                headers={"Host": f"{host}:{port}"},
            )
            # A phone's browser waits a minute for a first page; so does this
            # (the first render took over 10 s at load 15 on 2 cores).
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    return response.status
            except urllib.error.HTTPError as e:
                return e.code

        while True:  # daphne listens a moment after the log line
            try:
                first = get("192.168.1.23")
                break
            except urllib.error.URLError:
                assert time.monotonic() < deadline, serve.log()
                time.sleep(0.2)
        assert first == 200, serve.log()
        assert get("laptop.local") == 200
        assert get("evil.example") == 400
    finally:
        serve.stop()
