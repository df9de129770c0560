"""The rules engine: pure Python, no Django. Everything else calls it.

Modules, each with one job:
    faces     the 42 faces, the full set, matching
    layout    layout geometry: validation, cover/left/right relations
    catalogue the layout data files shipped with the engine
    board     a position in play: standing tiles, the free set, take/undo
    deal      seeded deal generation with a witness clearing order
    solver    decides whether a position can be cleared
    hint      the pair to suggest
    shuffle   re-lay the standing faces so the position clears again
    formats   the JSON of ../shared/spec/deal-format.md
"""
