"""The room pages: host or join a room, the room itself, and the watch page.

A seat is taken here, over plain HTTP (which also gives a new guest the
cookie the websocket then recognises); everything after that happens on the
room's websocket (docs/protocol.md).
"""

import ipaddress

import segno
from django.http import Http404
from django.http.request import split_domain_port
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts.players import current_player, known_player
from accounts.throttle import (
    BY_ADDRESS,
    CODE_GUESSES,
    Throttle,
    by_player,
    guess_refused,
    throttled,
)
from games.errors import ActionError
from rooms import actions
from rooms.forms import JoinForm, NameForm, WatchForm
from rooms.models import Room
from rooms.moves import PAUSES_PER_DEAL
from rooms.seats import refusal


def _open_room(code: str) -> Room:
    room = Room.objects.open().filter(code=code.upper()).first()
    if room is None:
        raise Http404(gettext("No such room: check the code, or host a new room."))
    return room


def _invite(request, code: str) -> dict:
    """The room's invite link, and the same as a QR code a phone's camera
    opens: an SVG drawn here (no script, no image request), dark on light
    with the quiet zone the standard asks, scaled by CSS."""
    url = request.build_absolute_uri(reverse("rooms:room", args=[code]))
    svg = segno.make(url, error="m", micro=False).svg_inline(
        scale=1, border=4, omitsize=True, dark="#111", light="#fff", svgclass="qr"
    )
    # Safe: the URL is in it only as the code's modules, never as text. Its
    # name is the figure's round it (the templates' "QR code to join").
    qr: SafeString = mark_safe(svg.replace("<svg ", '<svg aria-hidden="true" ', 1))
    # A link to this machine's loopback opens nothing on a phone: say how
    # to serve friends on the same network instead (the README's way).
    host = split_domain_port(request.get_host())[0].strip("[]")
    loopback = host == "localhost" or _is_loopback(host)
    return {"invite_url": url, "invite_qr": qr, "invite_loopback": loopback}


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _name(request) -> str:
    """The name a form offers: the player's, or none for a new visitor."""
    player = known_player(request)
    return player.display_name if player else ""


def index(request):
    """Host a room, or join one by its code."""
    name = _name(request)
    return render(
        request,
        "rooms/index.html",
        {
            "host_form": NameForm(initial={"name": name}),
            "join_form": JoinForm(initial={"name": name}),
        },
    )


@require_POST
@throttled(Throttle("host", by_player), Throttle("host_address", BY_ADDRESS))
def host(request):
    form = NameForm(request.POST)
    if form.is_valid():
        room = actions.create_room(current_player(request), form.cleaned_data["name"])
        return redirect("rooms:room", code=room.code)
    join_form = JoinForm(initial={"name": _name(request)})
    context = {"host_form": form, "join_form": join_form}
    return render(request, "rooms/index.html", context, status=400)


@require_POST
def join(request):
    if (refused := guess_refused(request)) is not None:
        return refused
    form = JoinForm(request.POST)
    if form.is_valid():
        code = form.cleaned_data["code"]
        try:
            actions.join_room(code, current_player(request), form.cleaned_data["name"])
            return redirect("rooms:room", code=code)
        except ActionError as e:
            if e.code == "not_found":
                CODE_GUESSES.hit(request)
            form.add_error("code" if e.code == "not_found" else None, e.message)
    host_form = NameForm(initial={"name": _name(request)})
    context = {"host_form": host_form, "join_form": form}
    return render(request, "rooms/index.html", context, status=400)


def watch(request):
    """The TV page: a room's code, then its game, read-only (no seat)."""
    form = WatchForm(request.GET or None)
    if form.is_bound and (refused := guess_refused(request)) is not None:
        return refused
    if form.is_valid():
        code = form.cleaned_data["code"]
        if Room.objects.open().filter(code=code).exists():
            context = {"code": code, **_invite(request, code)}
            return render(request, "rooms/watch.html", context)
        CODE_GUESSES.hit(request)
        form.add_error("code", gettext("No open room has that code."))
    status = 400 if form.is_bound else 200
    return render(request, "rooms/watch_code.html", {"form": form}, status=status)


def room(request, code: str):
    """The invite link: the room for its members, a join form for others."""
    if (refused := guess_refused(request)) is not None:
        return refused
    try:
        room = _open_room(code)
    except Http404:
        CODE_GUESSES.hit(request)
        raise
    if request.method == "POST":
        form = NameForm(request.POST)
        if form.is_valid():
            try:
                player = current_player(request)
                actions.join_room(room.code, player, form.cleaned_data["name"])
                return redirect("rooms:room", code=room.code)
            except ActionError as e:
                form.add_error(None, e.message)
        context = {"room": room, "form": form}
        return render(request, "rooms/join.html", context, status=400)
    known = known_player(request)
    if known is None or not room.members.filter(player=known).exists():
        # Whoever may not join is told why before typing anything: a
        # removed person, or anyone new at a locked room.
        refused = refusal(room, known)
        form = NameForm(initial={"name": _name(request)})
        context = {"room": room, "form": form, "refused": refused}
        return render(request, "rooms/join.html", context)
    context = {"room": room, "pauses": PAUSES_PER_DEAL, **_invite(request, room.code)}
    return render(request, "rooms/room.html", context)


def rules(request):
    """How a room keeps its manners: pauses, removing people, locking."""
    return render(request, "rooms/rules.html", {"pauses": PAUSES_PER_DEAL})
