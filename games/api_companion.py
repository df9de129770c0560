"""The companion's endpoints (docs/api.md): was it winnable, and how.

Back to safety, where it turned and a way through share the engine's
answer about a run's history (games.engine.safety); here it is put in the
API's JSON, with tiles named by their ids as everywhere in the API.
"""

from django.http import JsonResponse

from accounts.models import Player
from games import actions
from games.api import endpoint, run_json
from games.engine.certificate import find_certificate
from games.engine.safety import Safety, position
from games.models import Run
from games.play import RunState


def safety_json(run: Run, found: Safety, state: RunState) -> dict:
    """What the search of `state`'s history settled. `pairs_back` and
    `turned_at` are null unless it is exact; `exact` false means the budget
    ran out first."""
    body: dict = {
        "exact": found.exact,
        "clearable_now": found.clearable_now,
        "pairs_back": found.pairs_back,
        "turned_at": found.turned_at,
        "pair": None,
        "face": None,
        "why": None,
    }
    if found.turned_at is not None:
        a, b = state.moves[found.turned_at - 1]
        body["pair"] = [run.tiles[a]["id"], run.tiles[b]["id"]]
        body["face"] = state.faces[a]
        # Why it was lost after that pair, when a certificate shows it
        # (docs/certificates.md); the page words its first step.
        after = position(state.layout, state.faces, state.moves[: found.turned_at])
        ids = [tile["id"] for tile in run.tiles]
        body["why"] = find_certificate(after, ids)
    return body


@endpoint("POST")
def safety(request, player: Player, body: dict, run_id: str) -> JsonResponse:
    run, found, searched = actions.back_to_safety(run_id, player)
    body = {"safety": safety_json(run, found, searched), "run": run_json(run)}
    return JsonResponse(body)


@endpoint("GET")
def turned(request, player: Player, body: dict, run_id: str) -> JsonResponse:
    run, found = actions.where_it_turned(run_id, player)
    turned = safety_json(run, found, run.state())
    return JsonResponse({"turned": turned, "run": run_json(run)})


@endpoint("POST")
def way(request, player: Player, body: dict, run_id: str) -> JsonResponse:
    run, found = actions.way_through(run_id, player)
    ids = [tile["id"] for tile in run.tiles]
    return JsonResponse(
        {
            "way": {
                "from": "start" if found.from_start else "current",
                "pairs": [[ids[a], ids[b]] for a, b in found.pairs],
                "faces": list(found.faces),
            },
            "run": run_json(run),
        }
    )


@endpoint("POST")
def check(request, player: Player, body: dict, run_id: str) -> JsonResponse:
    run, warned = actions.warning(run_id, player)
    return JsonResponse({"warning": warned, "run": run_json(run)})
