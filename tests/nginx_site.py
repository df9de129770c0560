"""The shipped nginx site (deploy/nginx/tiles.conf), made runnable by a test:
the same file with only what names a machine changed (the daphne addresses,
the certificate, the static folder), inside a main configuration whose
paths all lie in a folder of the test's own."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "deploy" / "nginx" / "tiles.conf"
MIME_TYPES = Path("/etc/nginx/mime.types")


def need(tool: str) -> None:
    """Skip without `tool`; under CI=true its absence is a failure."""
    if shutil.which(tool) is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{tool} is missing; .ci/run installs it")
        pytest.skip(f"{tool} is missing")


def self_signed(folder: Path, name: str) -> tuple[Path, Path]:
    """A certificate and key for `name`, made with openssl."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes"),
            *("-days", "2", "-subj", f"/CN={name}"),
            *("-addext", f"subjectAltName=DNS:{name}"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def site(
    *,
    upstreams: list[str] | None = None,
    cert: Path,
    key: Path,
    public: Path,
    ipv6: bool = True,
    ports: tuple[int, int] | None = None,
    extra_server: str = "",
) -> str:
    """deploy/nginx/tiles.conf with this machine's names: `upstreams` in
    place of the shipped daphnes (each with the shipped parameters, as a
    server and as a backup), `ports` (HTTP, HTTPS) on 127.0.0.1 in place of
    80 and 443; `extra_server` goes into the TLS server block (a test's own
    headers)."""
    text = SITE.read_text()
    if upstreams is not None:
        text = _with_upstreams(text, upstreams)
    if ports is not None:
        text = text.replace("listen 80;", f"listen 127.0.0.1:{ports[0]};")
        text = text.replace("listen 443 ", f"listen 127.0.0.1:{ports[1]} ")
    text = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", text)
    text = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", text)
    text = text.replace("root /var/www/tiles;", f"root {public};")
    if not ipv6:
        text = re.sub(r"\n\s*listen \[::\].*;", "", text)
    if extra_server:
        text = text.replace(
            "    client_max_body_size 1m;\n",
            f"    client_max_body_size 1m;\n{extra_server}\n",
        )
    return text


def main_config(prefix: Path, site_text: str) -> Path:
    """nginx.conf for `nginx -p prefix -c ...`: logs, pid and temporary
    files in `prefix`, the site in its http block as sites-enabled puts it."""
    (prefix / "logs").mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(
        f"""pid {prefix}/nginx.pid;
error_log {prefix}/logs/error.log warn;
worker_processes 1;
events {{ worker_connections 1024; }}
http {{
    include {MIME_TYPES};
    default_type application/octet-stream;
    # Each request with the upstreams nginx tried and what each answered:
    # what a test's failure shows of a host taken out of rotation.
    log_format upstreams '$time_iso8601 "$request" $status'
                         ' upstream $upstream_addr $upstream_status';
    access_log {prefix}/logs/access.log upstreams;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
{site_text}
}}
"""
    )
    return conf


def check(conf: Path, prefix: Path) -> subprocess.CompletedProcess:
    """`nginx -t` on the configuration: what a reload would say."""
    return subprocess.run(
        ["nginx", "-t", "-c", str(conf), "-p", str(prefix)],
        capture_output=True,
        text=True,
    )


def _with_upstreams(text: str, upstreams: list[str]) -> str:
    """The upstream block's servers, then its backups (if it has any: a
    site without them fails tests/test_nginx_failover.py on what nginx
    does, not here), for `upstreams`."""
    shipped = re.findall(r"^    server \S+ (.*);\n", text, re.M)
    primary = next(p for p in shipped if "backup" not in p)
    backups = [p for p in shipped if "backup" in p][:1]
    lines = [f"    server {u} {p};\n" for p in [primary, *backups] for u in upstreams]
    return re.sub(r"(    server \S+ .*;\n)+", "".join(lines), text, count=1)


def fail_timeout_s() -> int:
    """How long one failure keeps a daphne out of the shipped rotation."""
    found = re.search(r"fail_timeout=(\d+)s", SITE.read_text())
    assert found, "deploy/nginx/tiles.conf sets no fail_timeout"
    return int(found.group(1))
