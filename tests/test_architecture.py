"""The layering rules of docs/architecture.md, checked on the source (a small AST walk)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"
SQL_CONSTRUCTS = {"select", "text", "insert", "update", "delete"}


def _modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(APP.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _domain(path: Path) -> str:
    """The package directly under app/ (or the module's own name for app/<module>.py)."""
    parts = path.relative_to(APP).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


def _imports(tree: ast.Module) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            for alias in node.names:
                yield f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def test_no_domain_imports_another_domains_router() -> None:
    crossings = []
    for path, tree in _modules():
        own = _domain(path)
        if own in ("main", "cli"):  # the composition roots mount every router
            continue
        for module in _imports(tree):
            parts = module.split(".")
            if len(parts) >= 3 and parts[0] == "app" and parts[2] == "router" and parts[1] != own:
                crossings.append(f"{path.relative_to(APP)} imports {module}")
    assert crossings == []


def test_genes_knows_nothing_of_evolution_or_search() -> None:
    crossings = [
        f"{path.relative_to(APP)} imports {module}"
        for path, tree in _modules()
        if _domain(path) == "genes"
        for module in _imports(tree)
        if module.startswith(("app.evolution", "app.search"))
    ]
    assert crossings == []


def _sql_names(tree: ast.Module) -> set[str]:
    """Local names bound to SQLAlchemy's statement constructors in this module."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("sqlalchemy"):
            for alias in node.names:
                if alias.name in SQL_CONSTRUCTS:
                    names.add(alias.asname or alias.name)
    return names


def test_sql_lives_in_repositories_models_and_db() -> None:
    allowed = {APP / "db.py"}
    offenders = []
    for path, tree in _modules():
        if path.name == "repository.py" or path in allowed or "models" in path.relative_to(APP).parts:
            continue
        names = _sql_names(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            direct = isinstance(func, ast.Name) and func.id in names
            qualified = (
                isinstance(func, ast.Attribute)
                and func.attr in SQL_CONSTRUCTS
                and isinstance(func.value, ast.Name)
                and func.value.id in ("sa", "sqlalchemy")
            )
            if direct or qualified:
                offenders.append(f"{path.relative_to(APP)}:{node.lineno}")
    assert offenders == []


def test_the_check_sees_what_it_looks_for() -> None:
    """The walk above must catch a constructor call and an import of another domain's router."""
    tree = ast.parse("from sqlalchemy import select as s\nfrom app.genes.router import router\ns(1)\n")
    assert _sql_names(tree) == {"s"}
    assert "app.genes.router" in set(_imports(tree))
