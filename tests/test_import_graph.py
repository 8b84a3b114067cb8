"""The project's modules import one another without a circle, function-local imports included.

Every ``.py`` under ``canasta_sim/``, ``kernels/`` (imported as ``canasta_sim.kernels``, read
only) and ``benchmarks/`` (``canasta_sim.benchmarks``) is parsed with :mod:`ast`; each ``import`` and ``from ... import`` anywhere in a file (at the top,
inside a function, under ``if TYPE_CHECKING``) is an edge to the project module it names.
``from pkg import name`` is an edge to ``pkg.name`` when that is a module, to the module a
package's lazy table (``_LAZY``) maps ``name`` to when it is one of those, and to ``pkg``
otherwise.  The graph must be acyclic; a failure prints every circle found.

Run ``python tests/test_import_graph.py`` to print the circles (or "no circles").
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# folder on disk -> import name of its package (pyproject's [tool.setuptools.package-dir])
PACKAGE_DIRS = {"canasta_sim": "canasta_sim", "kernels": "canasta_sim.kernels",
                "benchmarks": "canasta_sim.benchmarks"}


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Import name -> file of every project module (packages under their ``__init__.py``)."""
    files = {}
    for folder, package in PACKAGE_DIRS.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = list(path.relative_to(root / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join([package, *parts])] = path
    return files


def lazy_table(tree: ast.Module) -> dict[str, str]:
    """A package's ``_LAZY = {name: (module, attribute)}`` table as name -> module."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "_LAZY" for t in node.targets
        ):
            table = ast.literal_eval(node.value)
            return {name: target[0] for name, target in table.items()}
    return {}


def absolute_base(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from X import ...`` names, relative levels resolved."""
    if node.level == 0:
        return node.module or ""
    parts = module.split(".")
    if not is_package:
        parts.pop()
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def import_edges(module: str, tree: ast.Module, is_package: bool, modules: set[str],
                 lazy: dict[str, dict[str, str]]) -> set[str]:
    """The project modules that ``module`` imports anywhere in its file."""
    edges = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            edges.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = absolute_base(module, is_package, node)
            for alias in node.names:
                edges.add(from_target(base, alias.name, modules, lazy))
    edges.discard(None)
    edges.discard(module)
    return {e for e in edges if e in modules}


def from_target(base: str, name: str, modules: set[str], lazy: dict[str, dict[str, str]]):
    """The module that ``from base import name`` loads: a submodule, a lazy name's module,
    or ``base`` itself (None when ``base`` is not a project module)."""
    if f"{base}.{name}" in modules:
        return f"{base}.{name}"
    if name in lazy.get(base, {}):
        return lazy[base][name]
    return base if base in modules else None


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the project modules it imports (top-level and function-local alike)."""
    files = module_files(root)
    trees = {m: ast.parse(p.read_text(), filename=str(p)) for m, p in files.items()}
    lazy = {m: lazy_table(t) for m, t in trees.items() if files[m].name == "__init__.py"}
    modules = set(files)
    return {
        m: import_edges(m, t, files[m].name == "__init__.py", modules, lazy)
        for m, t in trees.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each as a
    shortest circle through its first module, sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(shortest_circle(graph, c) for c in found)


def shortest_circle(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest path from the component's first module back to itself (breadth first)."""
    start = min(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & component):
                if w == start:
                    return paths[v] + [start]
                if w not in paths:
                    paths[w] = paths[v] + [w]
                    nxt.append(w)
        frontier = nxt
    return [start]


def describe(found: list[list[str]]) -> str:
    """One line per circle: ``a -> b -> a``."""
    return "\n".join(" -> ".join(c) for c in found) or "no circles"


def test_graph_sees_the_project():
    """The parser finds the package, its sub-packages and the kernels, with edges."""
    graph = import_graph()
    assert "canasta_sim.cli" in graph and "canasta_sim.kernels.jit" in graph
    assert "canasta_sim.study.execute" in graph
    assert sum(len(e) for e in graph.values()) > 100


def test_no_import_circle():
    """No circle among the project's modules, function-local imports counted."""
    found = circles(import_graph())
    assert not found, "import circles:\n" + describe(found)


def test_circle_finder_finds_a_circle():
    """The finder reports a planted circle and nothing in an acyclic graph."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


if __name__ == "__main__":
    print(describe(circles(import_graph())))
