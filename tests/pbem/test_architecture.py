"""The server's house rules, read from its own imports (docs/ARCHITECTURE.md, "The server").

- ``pbem/`` is built in wings, each importing only from the wings below it;
- no import circle, counting the imports inside functions;
- an import inside a function only for a heavy or optional third-party module, never for a
  module of this project (an arrow of the house hidden from its reader).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PBEM = Path(__file__).resolve().parents[2] / "pbem"

# bottom to top: a module may import from its own wing and the wings below it
WINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "base",
        ("pbem", "pbem.config", "pbem.errors", "pbem.sanitize", "pbem.keys", "pbem.server_words"),
    ),
    ("store", ("pbem.store",)),
    ("mail", ("pbem.mail",)),
    ("clocks", ("pbem.clocks",)),
    ("reports", ("pbem.reports",)),
    ("outbox", ("pbem.outbox",)),
    ("games", ("pbem.games",)),
    ("pipeline", ("pbem.pipeline",)),
    ("worker", ("pbem.worker",)),
    ("cli", ("pbem.cli", "pbem.__main__")),
)
# third-party modules a function may import for itself: heavy, or an optional extra
LATE_IMPORTS_ALLOWED = ("bots", "dkim", "psycopg", "alembic", "pymap", "aiosmtpd")


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PBEM.rglob("*.py")):
        rel = path.relative_to(PBEM.parent).with_suffix("")
        if "migrations" in rel.parts:
            continue
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        found[".".join(parts)] = path
    return found


def wing_of(module: str) -> int:
    best, depth = -1, -1
    for i, (_, prefixes) in enumerate(WINGS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > depth:
                if p == "pbem" and module != "pbem":
                    continue
                best, depth = i, len(p)
    return best


class Import:
    def __init__(self, source: str, target: str, line: int, in_function: bool) -> None:
        self.source, self.target, self.line, self.in_function = source, target, line, in_function

    def __repr__(self) -> str:
        return f"{self.source}:{self.line} -> {self.target}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Import) and repr(self) == repr(other)

    def __hash__(self) -> int:
        return hash(repr(self))


def imports_of(module: str, path: Path, known: dict[str, Path]) -> Iterator[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    def walk(node: ast.AST, in_function: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield Import(module, alias.name, child.lineno, in_function)
            elif isinstance(child, ast.ImportFrom) and child.module and not child.level:
                for alias in child.names:
                    full = f"{child.module}.{alias.name}"
                    target = full if full in known else child.module
                    yield Import(module, target, child.lineno, in_function)
            yield from walk(child, inner)

    for imp in walk(tree, False):
        if imp.target.split(".")[0] == "pbem":
            resolved = resolve(imp.target)
            if resolved is not None and resolved != module:
                imp.target = resolved
                yield imp
        else:
            yield imp


def project_imports() -> list[Import]:
    known = modules()
    return [
        imp
        for module, path in known.items()
        for imp in imports_of(module, path, known)
        if imp.target.split(".")[0] == "pbem"
    ]


def test_every_module_lives_in_a_wing() -> None:
    lost = [m for m in modules() if wing_of(m) < 0]
    assert not lost, f"modules in no wing (add them to a wing of WINGS): {lost}"


def test_no_arrow_runs_from_a_lower_wing_to_a_higher_one() -> None:
    up = [
        f"{imp} ({WINGS[wing_of(imp.source)][0]} -> {WINGS[wing_of(imp.target)][0]})"
        for imp in dict.fromkeys(project_imports(), None)
        if wing_of(imp.source) >= 0 and wing_of(imp.target) > wing_of(imp.source)
    ]
    assert not up, "imports that climb a wing:\n" + "\n".join(up)


def test_no_import_circle_counting_imports_inside_functions() -> None:
    graph: dict[str, set[str]] = {}
    for imp in project_imports():
        graph.setdefault(imp.source, set()).add(imp.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not circles, f"import circles: {circles}"


def test_project_modules_are_imported_at_the_top() -> None:
    late = [str(imp) for imp in project_imports() if imp.in_function]
    assert not late, "imports of pbem modules inside functions:\n" + "\n".join(late)


def test_a_function_imports_only_heavy_or_optional_libraries() -> None:
    known = modules()
    late = [
        str(imp)
        for module, path in known.items()
        for imp in imports_of(module, path, known)
        if imp.in_function and imp.target.split(".")[0] not in ("pbem", *LATE_IMPORTS_ALLOWED)
    ]
    assert not late, "imports inside functions (move them to the top):\n" + "\n".join(late)


def test_the_rules_see_a_circle_and_a_climb() -> None:
    """The checks have teeth: a made-up climb and circle are found by the same helpers."""
    assert wing_of("pbem.db") < wing_of("pbem.worker.serve")
    assert wing_of("pbem.games.fairplay.verify") == wing_of("pbem.games.mailing")
    assert wing_of("pbem.somewhere_new") == -1
