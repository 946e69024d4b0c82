"""Plain SQL takes its table names from the models' `_meta`, never typed
(docs/architecture.md, "Plain SQL"): a renamed or swapped table cannot leave a
statement reading another one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.apps import apps

ROOT = Path(__file__).resolve().parents[1]
APPS = ("accounts", "economy", "games", "history", "leagues", "online", "daily", "cuatrola_site")
SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|FROM|JOIN|INTO)\b", re.I)


def typed_table_names(source: str, names: set[str]) -> list[tuple[int, str]]:
    """(line, name) for each table name written in a string of `source` that reads as SQL."""
    named = re.compile(r"\b(" + "|".join(sorted(map(re.escape, names), key=len)[::-1]) + r")\b")
    found = []
    for node in ast.walk(ast.parse(source)):
        is_text = isinstance(node, ast.Constant) and isinstance(node.value, str)
        if is_text and SQL.search(node.value):
            found += [(node.lineno, name) for name in named.findall(node.value)]
    return found


def _tables() -> set[str]:
    return {model._meta.db_table for model in apps.get_models()}


def test_the_checker_sees_a_typed_name_and_not_one_from_meta():
    code = (
        'a = "SELECT 1 FROM games_table WHERE id = %s"\n'
        'b = f"SELECT 1 FROM {Table._meta.db_table} WHERE id = %s"\n'
        'c = "games_table is not SQL"\n'
    )
    assert typed_table_names(code, _tables()) == [(1, "games_table")]


def test_no_statement_of_the_apps_types_a_table_name():
    names = _tables()
    typed = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for line, name in typed_table_names(path.read_text(), names):
                typed.append(f"{path.relative_to(ROOT)}:{line} {name}")
    assert typed == []
