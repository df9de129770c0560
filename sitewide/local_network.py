"""Friends on the same Wi-Fi: the hosts their phones use to reach this machine.

In the embedded setup (`HOST=0.0.0.0 make run` on a laptop) a phone opens
the laptop by its private address (`http://192.168.1.23:8000/`) or its
mDNS name (`http://laptop.local:8000/`). Neither is known in advance, so no
fixed ALLOWED_HOSTS list can name them, and Django's host patterns cannot
say "any private address". LocalNetwork is one ALLOWED_HOSTS entry that
matches exactly those hosts.

It keeps what ALLOWED_HOSTS is for: a DNS-rebinding page reaches this
machine under its own domain name, never a private address or a `.local`
name, so it is still refused. Production never uses this entry.
"""

import ipaddress


def is_local_network_host(host: str) -> bool:
    """A private or link-local IP address (IPv4 or IPv6, loopback too), or
    a `.local` (mDNS) name; `host` as Django hands it over (lower case, no
    port, an IPv6 address in brackets)."""
    if host.endswith(".local") and len(host) > len(".local"):
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return address.is_private or address.is_link_local or address.is_loopback


class LocalNetwork(str):
    """The ALLOWED_HOSTS entry matching `is_local_network_host`.

    Django (django.http.request.validate_host) tests each entry with
    `entry == "*"`, then `is_same_domain(host, entry)`, which compares
    `entry.lower()` with the host: equality is this entry's match, and
    `lower()` keeps it an entry. The websocket origin check (rooms.origin)
    goes through validate_host as well.
    """

    def __new__(cls) -> "LocalNetwork":
        return super().__new__(cls, "local-network")

    def lower(self) -> "LocalNetwork":  # type: ignore[override]
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and is_local_network_host(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = str.__hash__
