"""No import circle among rulekit's modules (tools/import_graph.py reads every import with `ast`,
lazy ones inside functions too); docs/imports.svg draws the same graph."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

TOOL = Path(__file__).resolve().parent.parent / "tools" / "import_graph.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_graph", TOOL)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_no_import_circle_among_rulekit_modules() -> None:
    tool = _tool()
    g = tool.graph()
    assert "rulekit.scoring.score" in g and "rulekit.arrange" in g["rulekit.scoring.search"]
    assert tool.cycles(g) == []


def test_a_lazy_import_circle_is_found(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.sub import b\n")
    (pkg / "sub" / "b.py").write_text("from . import c\n")
    (pkg / "sub" / "c.py").write_text("def f():\n    from pkg import a\n")
    (pkg / "d.py").write_text("import pkg.a\n")
    tool = _tool()
    g = tool.graph(pkg)
    assert g["pkg.sub.b"] == {"pkg.sub.c"} and g["pkg.d"] == {"pkg.a"}
    assert tool.cycles(g) == [["pkg.a", "pkg.sub.b", "pkg.sub.c"]]
    assert '"pkg.a" -> "pkg.sub.b";' in tool.dot(g)
