"""The site ships in Spanish (default) and English; the Spanish catalogue is complete."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from cuatrola_site.management.commands.tidy_messages import catalogues

ROOT = Path(__file__).resolve().parents[2]
SPANISH = [path for path in catalogues(ROOT) if path.parent.parent.name == "es"]


def test_there_is_a_spanish_catalogue_for_the_site_and_each_app_with_strings():
    names = {path.relative_to(ROOT).parts[0] for path in SPANISH}
    assert {"locale", "accounts"} <= names


@pytest.mark.parametrize("path", SPANISH, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_spanish_entry_is_translated_and_none_is_fuzzy(path):
    catalogue = polib.pofile(str(path))
    assert not catalogue.metadata_is_fuzzy
    assert [e.msgid for e in catalogue.untranslated_entries()] == []
    assert [e.msgid for e in catalogue.fuzzy_entries()] == []


def _translated(entries) -> dict:
    # Plural entries keep their forms in msgstr_plural (msgstr stays empty).
    return {
        (e.msgctxt, e.msgid): (e.msgstr, {int(k): v for k, v in e.msgstr_plural.items()})
        for e in entries
        if e.msgid and (e.msgstr or any(e.msgstr_plural.values()))
    }


@pytest.mark.parametrize("path", catalogues(ROOT), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_compiled_catalogue_matches_its_source(path):
    source = _translated(polib.pofile(str(path)))
    compiled_path = path.with_suffix(".mo")
    assert compiled_path.exists(), f"run `make messages`: {compiled_path} is missing"
    compiled = _translated(polib.mofile(str(compiled_path)))
    assert compiled == source, "run `make messages`: the .mo is older than the .po"


def test_the_catalogues_hold_every_translatable_string_in_the_code(tmp_path):
    """makemessages on a copy of the tracked tree adds nothing the catalogues lack."""
    if shutil.which("xgettext") is None:
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail("REQUIRE_SERVICES=1 but gettext is missing (apt-get install gettext)")
        pytest.skip("needs gettext (apt-get install gettext)")
    tracked = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for name in tracked:
        source = ROOT / name
        if source.is_file():
            target = tmp_path / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--locale", "es", "--no-obsolete"]
        + [f"--ignore={pattern}" for pattern in ("tests/*", "bench/*", "static/*")],
        cwd=tmp_path,
        env={"DEBUG": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        check=True,
    )
    for path in SPANISH:
        committed = {e.msgid for e in polib.pofile(str(path))}
        regenerated = {e.msgid for e in polib.pofile(str(tmp_path / path.relative_to(ROOT)))}
        missing = regenerated - committed
        assert not missing, (
            f"run `make messages` and translate in {path.relative_to(ROOT)}: {missing}"
        )
