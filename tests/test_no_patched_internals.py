"""No module of the project patches daphne, autobahn or asgiref, or reads
what they keep private: an upgrade of theirs cannot break us silently.
What Tiles needs of them goes through their public API (sitewide.serve,
rooms.publish), and their behaviour is tested on the real thing
(tests/test_ws_frames.py, tests/test_proxy_limits.py)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FRAMEWORKS = ("daphne", "autobahn", "asgiref")
# The app, its scripts and benches; the tests' own harness is not scanned
# (tests/browser/conftest_rooms.py gives a forked daphne a fresh asgiref
# executor, as the test process's thread is dead in the fork).
SKIPPED = {".venv", "node_modules", ".git", "staticfiles", "var", "tests"}
# Their internals with public-looking names (asgiref's per-thread notes).
INTERNALS = {"threadlocal", "main_event_loop", "main_event_loop_pid"}


def _framework(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in FRAMEWORKS


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def findings(source: str, where: str = "<source>") -> list[str]:
    """Each patch of, or private read from, a framework in `source`."""
    tree = ast.parse(source)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {
                (a.asname or a.name).split(".")[0]
                for a in node.names
                if _framework(a.name)
            }
        elif isinstance(node, ast.ImportFrom) and _framework(node.module):
            names |= {a.asname or a.name for a in node.names}
    found = [
        f"{where}:{node.lineno}: imports {alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and _framework(node.module)
        for alias in node.names
        if alias.name.startswith("_") or alias.name in INTERNALS
    ]
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and _root(target) in names:
                    found.append(f"{where}:{node.lineno}: patches {target.attr}")
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setattr":
            if node.args and _root(node.args[0]) in names:
                found.append(f"{where}:{node.lineno}: patches with setattr")
        elif isinstance(node, ast.Attribute) and _root(node) in names:
            private = node.attr.startswith("_") and not node.attr.endswith("__")
            if private or node.attr in INTERNALS:
                found.append(f"{where}:{node.lineno}: reads {node.attr}")
    return found


def project_modules() -> list[Path]:
    return [
        path
        for path in ROOT.rglob("*.py")
        if not SKIPPED & set(path.relative_to(ROOT).parts)
    ]


def test_no_module_patches_or_reads_framework_internals():
    found = [
        line
        for path in project_modules()
        for line in findings(path.read_text(), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_the_scan_sees_the_patches_it_is_for():
    """What the project did before (swapped classes and functions, a read
    of asgiref's thread notes) is caught."""
    swapped = "from daphne import server\nserver.WebSocketFactory = Mine\n"
    patched = "from autobahn.websocket import protocol as p\np.pformat = str\n"
    read = (
        "from asgiref.sync import SyncToAsync\n"
        "loop = getattr(SyncToAsync.threadlocal, 'x', None)\n"
    )
    private = "import daphne.server\ndaphne.server.Server._secret()\n"
    assert findings(swapped) == ["<source>:2: patches WebSocketFactory"]
    assert findings(patched) == ["<source>:2: patches pformat"]
    assert findings(read) == ["<source>:2: reads threadlocal"]
    assert findings(private) == ["<source>:2: reads _secret"]
    hidden = "from asgiref.local import _CVar\n"
    assert findings(hidden) == ["<source>:1: imports _CVar"]
    assert findings("from asgiref.sync import async_to_sync\nasync_to_sync(f)\n") == []
