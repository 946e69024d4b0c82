"""Selectors only read (docs/architecture.md, "Layers"): no cache writes and no 404.

A selector that keeps its result in the cache writes, and one that raises Http404
decides for the view. The apps' cached reads live in `<app>/cached.py` and the
404s in the views (accounts.http.user_or_404). This walks every selectors module of
the apps and fails on an import of Django's cache, Http404 or get_object_or_404.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "django.core.cache": "the cache (a write: keep it in <app>/cached.py)",
    "django.http.Http404": "Http404 (the view decides)",
    "django.shortcuts.get_object_or_404": "get_object_or_404 (the view decides)",
    "django.shortcuts.get_list_or_404": "get_list_or_404 (the view decides)",
}


def _selector_modules():
    for path in sorted(ROOT.glob("*/selectors.py")) + sorted(ROOT.glob("*/selectors/*.py")):
        if ".venv" not in path.parts and "tests" not in path.parts:
            yield path


def forbidden_imports(tree: ast.AST) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found += [(FORBIDDEN[name], node.lineno) for name in names if name in FORBIDDEN][:1]
    return found


def test_the_walk_finds_a_selector_that_writes_the_cache_or_raises_404():
    source = "from django.core.cache import cache\nfrom django.shortcuts import get_object_or_404\n"
    assert [line for _what, line in forbidden_imports(ast.parse(source))] == [1, 2]


def test_no_selector_writes_the_cache_or_answers_404():
    modules = list(_selector_modules())
    assert len(modules) > 10  # every app's selectors are walked
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in modules
        for what, line in forbidden_imports(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == []
