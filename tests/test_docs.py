"""The house's own documents hold what the code cites."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (
    "cuatrola",
    "accounts",
    "coach",
    "economy",
    "games",
    "history",
    "leagues",
    "online",
    "cuatrola_site",
    "tests",
)
CITED = re.compile(r"docs/rules\.md (§\d+(?:(?:, | and |–)§\d+)*)")


def _texts():
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield path, path.read_text()
    for path in sorted((ROOT / "docs").glob("*.md")):
        yield path, path.read_text()


def test_every_section_of_the_rules_the_code_cites_exists():
    headings = set(re.findall(r"^## (§\d+) ", (ROOT / "docs" / "rules.md").read_text(), re.M))
    assert headings == {f"§{n}" for n in range(1, 12)}
    cited = {}
    for path, text in _texts():
        for group in CITED.findall(text):
            for section in re.findall(r"§\d+", group):
                cited.setdefault(section, path.relative_to(ROOT))
    assert cited, "nothing cites docs/rules.md"
    missing = {section: str(path) for section, path in cited.items() if section not in headings}
    assert missing == {}
    # The engine cites the rules it implements (bidding, play, declarations, scoring).
    engine = "".join(p.read_text() for p in (ROOT / "cuatrola" / "engine").glob("*.py"))
    assert {"§4", "§5", "§6", "§9", "§10"} <= set(re.findall(r"docs/rules\.md (§\d+)", engine))


def test_no_code_cites_a_rule_book_outside_the_repository():
    stale = [
        str(path.relative_to(ROOT))
        for path, text in _texts()
        if re.search(r"\bRULES\.md\b", text) and path.name != "test_docs.py"
    ]
    assert stale == []


def test_the_operations_runbook_keeps_no_dated_figures_and_links_to_them():
    runbook = (ROOT / "docs" / "operations.md").read_text()
    assert re.findall(r"\b20\d\d-\d\d-\d\d\b|\bUTC\b", runbook) == []
    assert "docs/benchmarks.md" in runbook
    log = (ROOT / "docs" / "benchmarks.md").read_text()
    assert "## Tables" in log and "## Player page and history" in log
    assert re.search(r"\b20\d\d-\d\d-\d\d\b", log)
