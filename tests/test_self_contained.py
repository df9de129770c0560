"""The suite needs nothing outside the repository.

A clone anywhere, with nothing beside it, must pass: no test may name a file
above the repository root (the team's shared folders, a sibling checkout) or
in the developer's var/ (the database `make run` fills, the install's key).
Every path a test builds from `__file__`, from a name assigned one, or from a
literal is worked out here and must land inside the repository, outside var/,
or in the system's own folders (chromium, PostgreSQL's binaries, /dev/null).
"""

import ast
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What the suite may read outside the repository: the system's programs and
# devices, and temporary folders the tests make themselves.
SYSTEM = tuple(
    Path(p) for p in ("/usr", "/bin", "/lib", "/etc", "/dev", "/proc", "/sys", "/tmp")
)
# A literal naming a place a developer's files live in, whatever it is passed to.
HOME_LIKE = re.compile(r"""^(~/|/(work|home|root|srv|mnt|opt|media|data|var)(/|$))""")
# A relative literal that climbs: "../beside/cases".
CLIMBS = re.compile(r"(^|/)\.\./|/\.\.$")
JS_URL = re.compile(r"""new URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url\s*\)""")


class Paths(ast.NodeVisitor):
    """Evaluates the path expressions of one module as far as they are
    constant: Path(__file__), .resolve(), .parent, .parents[n], / "part",
    os.path.dirname/join, Path("literal"), and names bound to those."""

    def __init__(self, source: Path) -> None:
        self.source = source
        self.names: dict[str, Path] = {}
        self.found: list[tuple[int, Path]] = []
        self.literals: list[tuple[int, str]] = []

    def value(self, node: ast.expr) -> Path | None:  # noqa: C901
        match node:
            case ast.Name(id="__file__"):
                return self.source
            case ast.Name(id=name):
                return self.names.get(name)
            case ast.Call(func=ast.Name(id="Path"), args=[arg]):
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    return ROOT / arg.value  # relative literals: the tests' cwd
                return self.value(arg)
            case ast.Call(func=ast.Attribute(attr="resolve" | "absolute", value=v)):
                return self.value(v)
            case ast.Call(func=ast.Attribute(attr="with_name", value=v), args=[a]):
                base = self.value(v)
                if base is not None and isinstance(a, ast.Constant):
                    return base.with_name(str(a.value))
            case ast.Call(func=ast.Attribute(attr="dirname"), args=[arg]):
                base = self.value(arg)
                return base.parent if base is not None else None
            case ast.Call(func=ast.Attribute(attr="join"), args=[first, *rest]):
                return self.joined(self.value(first), rest)
            case ast.Attribute(attr="parent", value=v):
                base = self.value(v)
                return base.parent if base is not None else None
            case ast.Subscript(
                value=ast.Attribute(attr="parents", value=v),
                slice=ast.Constant(value=int(n)),
            ):
                base = self.value(v)
                if base is None:
                    return None
                return Path(os.path.normpath(base.joinpath(*[".."] * (n + 1))))
            case ast.BinOp(op=ast.Div(), left=left, right=right):
                return self.joined(self.value(left), [right])
        return None

    def joined(self, base: Path | None, parts: list[ast.expr]) -> Path | None:
        for part in parts:
            if base is None:
                return None
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                base = Path(os.path.normpath(base / part.value))
            else:
                part_path = self.value(part)
                if part_path is None:
                    return None
                base = part_path if part_path.is_absolute() else base / part_path
        return base

    def visit_Assign(self, node: ast.Assign) -> None:
        path = self.value(node.value)
        for target in node.targets:
            if isinstance(target, ast.Name) and path is not None:
                self.names[target.id] = path
        self.generic_visit(node)

    def generic_visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.expr):
            path = self.value(node)
            if path is not None:
                self.found.append((node.lineno, path))
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            self.literals.append((node.lineno, node.value))
        super().generic_visit(node)


def allowed(path: Path) -> bool:
    path = Path(os.path.normpath(path))
    if path.is_relative_to(ROOT):
        return not path.is_relative_to(ROOT / "var")
    if path.is_relative_to(ROOT.parent):
        return False  # beside the repository, even in a system folder (/tmp)
    return any(path.is_relative_to(system) for system in SYSTEM)


def outside_references(source: Path, text: str) -> list[str]:
    """Each place `source` names a file outside the repository or in var/."""
    where = source.relative_to(ROOT) if source.is_relative_to(ROOT) else source
    problems = []
    if source.suffix == ".py":
        paths = Paths(source)
        paths.visit(ast.parse(text))
        for line, path in paths.found:
            if not allowed(path):
                problems.append(f"{where}:{line}: {path}")
        for line, literal in paths.literals:
            if HOME_LIKE.match(literal) or CLIMBS.search(literal):
                problems.append(f"{where}:{line}: {literal!r}")
    else:
        for match in JS_URL.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            path = Path(os.path.normpath(source.parent / match.group(1)))
            if not allowed(path):
                problems.append(f"{where}:{line}: {path}")
    return sorted(set(problems))


def suite_sources() -> list[Path]:
    # This file is left out: it holds the bad examples its own tests check.
    python = [p for p in (ROOT / "tests").rglob("*.py") if p != Path(__file__)]
    js = list((ROOT / "static" / "js" / "tests").rglob("*.js"))
    return sorted(python + js)


@pytest.mark.parametrize(
    "source", suite_sources(), ids=lambda p: str(p.relative_to(ROOT))
)
def test_no_test_names_a_file_outside_the_repository(source):
    assert outside_references(source, source.read_text()) == []


@pytest.mark.parametrize(
    "line",
    [
        # An absolute folder, put together here so that this file names none.
        f"CASES = Path({'/'.join(('', 'work', 'beside', 'cases'))!r})",
        'CASES = Path(__file__).resolve().parents[2] / "beside" / "cases"',
        'ROOT = Path(__file__).resolve().parent.parent\nCASES = ROOT.parent / "beside"',
        'DB = Path(__file__).parent.parent / "var" / "tiles.sqlite3"',
        'open("../beside/cases/answers.json")',
        'p = os.path.join(os.path.dirname(__file__), "..", "..", "beside")',
        'key = Path("~/.tiles/key").expanduser()',
    ],
)
def test_the_check_finds_each_way_out(line):
    """The ways the suite used to leave the repository, and their kin."""
    assert outside_references(ROOT / "tests" / "test_x.py", line)


def test_the_check_finds_a_javascript_test_reading_above_the_repository():
    line = 'readFileSync(new URL("../../../../beside/x.json", import.meta.url))'
    assert outside_references(ROOT / "static" / "js" / "tests" / "x.test.js", line)


def test_the_check_lets_the_repository_and_the_system_through():
    lines = (
        'FIXTURES = Path(__file__).parent / "fixtures"\n'
        'ROOT = Path(__file__).resolve().parents[1]\nLOCALE = ROOT / "locale"\n'
        'CHROMIUM = Path("/usr/bin/chromium")\n'
    )
    assert outside_references(ROOT / "tests" / "test_x.py", lines) == []
