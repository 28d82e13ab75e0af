"""The import graph of the rulekit package, read from its source with `ast`, as DOT.

`python tools/import_graph.py > docs/imports.dot && dot -Tsvg docs/imports.dot -o docs/imports.svg`
draws it (docs/imports.svg); `python tools/import_graph.py --cycles` prints every import
circle and exits 1 if there is one. Every `import` counts, those inside functions too (a lazy
import still ties two modules together: the circle `ruleset/prebuilt.py` ↔ `resolve.py` was
one). tests/test_import_graph.py asserts there is no circle.
"""
from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "rulekit"


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted name → source file, for every module of the package."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _target(name: str, known: dict[str, Path]) -> str | None:
    """The package module `name` (or its nearest enclosing module) names, if it is ours."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules `module` imports, anywhere in its source."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            # `from pkg import mod` imports the module pkg.mod when there is one
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                     for a in node.names]
        else:
            continue
        for name in names:
            target = _target(name, known)
            if target is not None and target != module:
                out.add(target)
    return out


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    known = modules(root)
    return {m: imports(m, p, known) for m, p in known.items()}


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def dot(g: dict[str, set[str]]) -> str:
    """The graph in DOT, one cluster per subpackage, edges from importer to imported."""
    lines = ["digraph rulekit {", "  rankdir=LR; node [shape=box, fontsize=10];"]
    groups: dict[str, list[str]] = {}
    for m in sorted(g):
        parts = m.split(".")
        groups.setdefault(".".join(parts[:2]) if len(parts) > 2 else "rulekit", []).append(m)
    for i, (name, members) in enumerate(sorted(groups.items())):
        lines.append(f'  subgraph cluster_{i} {{ label="{name}";')
        lines += [f'    "{m}";' for m in members]
        lines.append("  }")
    for m in sorted(g):
        lines += [f'  "{m}" -> "{t}";' for t in sorted(g[m])]
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", action="store_true", help="print import circles; exit 1 if any")
    args = parser.parse_args()
    g = graph()
    if args.cycles:
        found = cycles(g)
        for c in found:
            print(" <-> ".join(c))
        print(f"{len(g)} modules, {sum(len(v) for v in g.values())} imports, "
              f"{len(found)} circles")
        return 1 if found else 0
    sys.stdout.write(dot(g))
    return 0


if __name__ == "__main__":
    sys.exit(main())
