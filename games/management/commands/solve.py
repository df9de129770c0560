from django.core.management.base import BaseCommand, CommandError

from games.engine.certificate import find_certificate
from games.engine.formats import FormatError, position_from_json
from games.engine.solver import DEFAULT_MAX_NODES, solve
from games.management.commands._json import print_json, read_json


class Command(BaseCommand):
    help = "Decide whether a position (spec JSON, file or stdin) can be cleared."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="position JSON; stdin if absent")
        parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)

    def handle(self, *args, **opts):
        if opts["max_nodes"] < 1:
            raise CommandError("--max-nodes must be at least 1")
        try:
            position = position_from_json(read_json(opts["file"]))
        except FormatError as e:
            raise CommandError(str(e)) from None
        result = solve(position.board, max_nodes=opts["max_nodes"])
        # A reason an outside tool can check (docs/certificates.md), when
        # the position is lost for one that needs no search.
        certificate = None
        if result.solvable is False:
            certificate = find_certificate(position.board, position.ids)
        print_json(
            {
                "solvable": result.solvable,
                "solution": (
                    position.pairs_to_ids(result.solution) if result.solvable else None
                ),
                "nodes": result.nodes,
                "ms": round(result.ms, 1),
                **({"certificate": certificate} if certificate else {}),
            }
        )
