"""The package's shape: no two modules of ``cardtable`` need each other, however many
modules apart, nor two of the web page's ES modules, and no product file grows past what one
reader takes in.

The graph is read from the source with :mod:`ast`, so nothing is imported. It counts every
import: those at a module's top, those inside a function, which run on the first call (an
import moved into a function still ties the two modules; it only hides the circle from
Python's import order), and those under ``if TYPE_CHECKING:``, which never run but tie the
modules all the same: a module that names another's type in its annotations is read, typed
and changed with it, so a module below that annotates with a type of a module above has the
two needing each other. It types against the protocol below both instead
(``cardtable.core``). ``from package import name`` is an import of ``package.name`` where
that is a module, and of ``package`` otherwise; a package's ``__init__`` is not counted as
imported by its submodules' imports (Python runs it, but it is the package's face, not a
dependency).

The web page's modules (``web/*.js``) are read the same way, from their text: each
``import``, ``export … from`` and ``import(…)`` of a module beside it (``"./x.js"``) is an
edge.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "src"
PACKAGE = SOURCE / "cardtable"
CRATES = ROOT / "crates"
LONGEST = 800
"""The most lines a product file may have (the package's and the core's sources); locales
are data, not code, and tests are not product."""
LOCALES = PACKAGE / "web" / "locales"
WEB = PACKAGE / "web"

Graph = dict[str, dict[str, int]]
"""Each module's imports of the package's modules, each with the line of its first import."""


def module_name(path: Path, source: Path) -> str:
    parts = path.relative_to(source).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(tree: ast.AST, modules: set[str]) -> Iterator[tuple[str, int]]:
    """Each module name an import names, with its line, anywhere in the tree (a function's
    body and an ``if TYPE_CHECKING:`` block included)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                yield (sub if sub in modules else node.module), node.lineno
        yield from imported_names(node, modules)


def import_graph(package: Path = PACKAGE) -> Graph:
    """The package's modules, each with the package's modules its imports reach."""
    source = package.parent
    files = {module_name(path, source): path for path in sorted(package.rglob("*.py"))}
    # Compiled extensions (and their stubs) are modules too, though not nodes of the graph:
    # ``from cardtable import _core`` imports the extension, not the package's face.
    known = set(files) | {
        module_name(path.with_name(path.name.split(".")[0] + ".py"), source)
        for pattern in ("*.so", "*.pyd", "*.pyi")
        for path in package.rglob(pattern)
    }
    graph: Graph = {}
    for name, path in files.items():
        edges: dict[str, int] = {}
        for imported, line in imported_names(ast.parse(path.read_text(), str(path)), known):
            target = imported
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target in files and target != name:
                edges.setdefault(target, line)
        graph[name] = edges
    return graph


# An ES module's imports of a module beside it: ``import … from "./x.js"`` (over several
# lines too), ``import "./x.js"`` and ``export … from "./x.js"``, each at the start of a line
# (so not in a comment's prose), and ``import("./x.js")`` anywhere.
_STATIC_JS = re.compile(
    r"""^(?:import|export)\b[^;"'`]*?\bfrom\s*(["'])\./([\w.-]+\.js)\1"""
    r"""|^import\s*(["'])\./([\w.-]+\.js)\3""",
    re.MULTILINE,
)
_DYNAMIC_JS = re.compile(r"""\bimport\(\s*(["'])\./([\w.-]+\.js)\1\s*\)""")


def js_import_graph(folder: Path = WEB) -> Graph:
    """The folder's ES modules (by file name), each with the modules beside it that it
    imports, each with the line of its first import."""
    files = {path.name: path for path in sorted(folder.glob("*.js"))}
    graph: Graph = {}
    for name, path in files.items():
        text = path.read_text()
        edges: dict[str, int] = {}
        found = [
            (match.start(), match.group(2) or match.group(4)) for match in _STATIC_JS.finditer(text)
        ] + [(match.start(), match.group(2)) for match in _DYNAMIC_JS.finditer(text)]
        for at, target in sorted(found):
            if target in files and target != name:
                edges.setdefault(target, text.count("\n", 0, at) + 1)
        graph[name] = edges
    return graph


def circles(graph: Graph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without
    recursion): each is a circle, or circles that share modules. Sorted, for a stable
    message."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return sorted(found)


def describe(graph: Graph, group: list[str]) -> str:
    """A circle as its modules and the imports that tie them, each with its file and line."""
    ties = [
        f"    {source} -> {target} (line {graph[source][target]})"
        for source in group
        for target in sorted(graph[source])
        if target in group
    ]
    return f"  {', '.join(group)}:\n" + "\n".join(ties)


def test_the_package_has_no_import_circle() -> None:
    graph = import_graph()
    found = circles(graph)
    assert not found, f"{len(found)} import circle(s) in cardtable:\n" + "\n".join(
        describe(graph, group) for group in found
    )


def test_circles_are_found_whether_the_import_is_at_the_top_in_a_function_or_for_types(
    tmp_path: Path,
) -> None:
    """The finder itself: a circle closed by a function's import is one, and so is one
    closed only under ``TYPE_CHECKING``; a module below the circle stays out of it."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("X = 1\n")
    (package / "a.py").write_text("from pkg import low\nfrom pkg.b import B\n")
    (package / "b.py").write_text("B = 1\ndef later():\n    from pkg.a import low\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nfrom pkg import a\n"
        "if TYPE_CHECKING:\n    from pkg import c2\n"
    )
    (package / "c2.py").write_text("import pkg.c\n")
    graph = import_graph(package)
    assert circles(graph) == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.c2"]]
    assert "pkg.b -> pkg.a (line 3)" in describe(graph, ["pkg.a", "pkg.b"])
    assert "pkg.c -> pkg.c2 (line 4)" in describe(graph, ["pkg.c", "pkg.c2"])


def test_the_web_page_has_no_import_circle() -> None:
    graph = js_import_graph()
    assert graph["table.js"], "the web page's imports were not read"
    found = circles(graph)
    assert not found, f"{len(found)} import circle(s) in web/:\n" + "\n".join(
        describe(graph, group) for group in found
    )


def test_es_module_circles_are_found_however_the_import_is_written(tmp_path: Path) -> None:
    """The web finder itself: an import over several lines, a re-export and a dynamic
    import each tie two modules; an import of a module elsewhere, or one named in a
    comment's prose, does not."""
    (tmp_path / "low.js").write_text("export const X = 1;\n")
    (tmp_path / "a.js").write_text('import {\n  B,\n} from "./b.js";\nimport "./low.js";\n')
    (tmp_path / "b.js").write_text(
        'export { X } from "./low.js";\nexport async function later() {\n'
        '  return import("./a.js");\n}\n'
    )
    (tmp_path / "c.js").write_text(
        '/*\n * the drawing: import { c } from "./c2.js" would be a circle\n */\n'
        'import { y } from "../elsewhere/c2.js";\nexport { X } from "./low.js";\n'
    )
    (tmp_path / "c2.js").write_text("import { c } from './c.js';\n")
    graph = js_import_graph(tmp_path)
    assert graph["a.js"] == {"b.js": 1, "low.js": 4}
    assert graph["c.js"] == {"low.js": 5}
    assert circles(graph) == [["a.js", "b.js"]]
    assert "b.js -> a.js (line 3)" in describe(graph, ["a.js", "b.js"])


def product_files() -> Iterator[Path]:
    """The package's own text files: code, pages, styles, stubs; not its locales (data) and
    not a compiled extension. And the compiled core's Rust sources (each crate's ``src``)."""
    for path in sorted(PACKAGE.rglob("*")):
        if (
            path.is_file()
            and LOCALES not in path.parents
            and "__pycache__" not in path.parts
            and path.suffix not in {".so", ".pyd", ".typed"}
        ):
            yield path
    yield from sorted(CRATES.glob("*/src/**/*.rs"))


def test_no_product_file_is_over_800_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in product_files()
        if (lines := len(path.read_text().splitlines())) > LONGEST
    }
    assert not long, f"files over {LONGEST} lines: {long}"
