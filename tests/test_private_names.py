"""No app reaches into another app's private names (docs/architecture.md, "The game
library at the bottom, apps in layers above it").

import-linter checks which modules import which; it cannot see *what* is used.
This walks the apps' source: a name with a leading underscore, imported from
another app's module or read as an attribute of it, stays inside its own app.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = (
    "cuatrola",
    "accounts",
    "economy",
    "games",
    "leagues",
    "online",
    "history",
    "daily",
    "clubs",
    "fairplay",
    "cuatrola_site",
)

# Uses left to untie (issue 20); the list only ever shrinks.
KNOWN: set[tuple[str, str]] = set()


def _is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _source_files():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield app, path


def private_uses(app: str, tree: ast.AST) -> list[tuple[str, int]]:
    """(what, line) for each private name of another app that `tree` (a module of
    `app`) imports or reads through a module alias."""
    found: list[tuple[str, int]] = []
    aliases: dict[str, str] = {}  # local name -> another app's module
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != app and alias.name.split(".")[0] in APPS:
                    aliases[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] == app or node.module.split(".")[0] not in APPS:
                continue
            for alias in node.names:
                dotted = f"{node.module}.{alias.name}"
                if any(_private(part) for part in dotted.split(".")):
                    found.append((dotted, node.lineno))
                elif _is_module(dotted):
                    aliases[alias.asname or alias.name] = dotted
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and _private(node.attr)
        ):
            found.append((f"{aliases[node.value.id]}.{node.attr}", node.lineno))
    return found


def test_the_checker_sees_an_import_and_an_attribute():
    code = (
        "from games.services import _start\n"
        "from games import services as games\n"
        "games._lock_table(1)\n"
        "from online.models import QueueEntry\n"
        "QueueEntry._meta\n"
    )
    uses = private_uses("online", ast.parse(code))
    assert [what for what, _ in uses] == ["games.services._start", "games.services._lock_table"]
    assert private_uses("games", ast.parse(code)) == []  # inside its own app


def test_no_app_uses_another_apps_private_names():
    seen: set[tuple[str, str]] = set()
    errors = []
    for app, path in _source_files():
        module = str(path.relative_to(ROOT))
        for what, line in private_uses(app, ast.parse(path.read_text(), str(path))):
            seen.add((module, what))
            if (module, what) not in KNOWN:
                errors.append(f"{module}:{line} uses {what}")
    assert not errors, "\n".join(errors)
    assert not (KNOWN - seen), f"fixed, remove from KNOWN: {sorted(KNOWN - seen)}"
