"""Every catalogue of every app speaks the six languages completely, with the right plurals.

English is the source language: its entries may stay empty (gettext then shows the
source text), but none may be fuzzy. Every other language must translate every entry,
and give every plural entry exactly the forms its Plural-Forms header declares, that
header being the one Django itself uses for the language.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import django
import polib
import pytest
from django.conf import settings

from cuatrola_site.management.commands.tidy_messages import catalogues

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = [code for code, _name in settings.LANGUAGES]
TRANSLATED = [code for code in LANGUAGES if code != "en"]
ALL = catalogues(ROOT)
ALLAUTH_TU = ROOT / "cuatrola_site" / "allauth_tu" / "locale"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def _language(path: Path) -> str:
    return path.parent.parent.name


def _django_plural_forms(language: str) -> int:
    header = polib.pofile(
        str(Path(django.__file__).parent / "conf/locale" / language / "LC_MESSAGES/django.po")
    ).metadata["Plural-Forms"]
    return int(re.search(r"nplurals=(\d+)", header).group(1))


def _nplurals(catalogue: polib.POFile) -> int:
    return int(re.search(r"nplurals=(\d+)", catalogue.metadata["Plural-Forms"]).group(1))


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_site_speaks_six_languages_spanish_first():
    assert LANGUAGES == ["es", "en", "fr", "it", "ko", "th"]
    assert settings.LANGUAGE_CODE == "es"


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_catalogue_exists_in_all_six_languages(domain):
    places = {path.parent.parent.parent for path in ALL if path.stem == domain} - {ALLAUTH_TU}
    assert places, f"no {domain} catalogue at all"
    assert ROOT / "locale" in places
    for place in places:
        for language in LANGUAGES:
            path = place / language / "LC_MESSAGES" / f"{domain}.po"
            assert path.exists(), f"run `make messages`: {path.relative_to(ROOT)} is missing"


@pytest.mark.parametrize("path", ALL, ids=_id)
def test_no_entry_is_fuzzy(path):
    catalogue = polib.pofile(str(path))
    assert not catalogue.metadata_is_fuzzy
    assert [e.msgid for e in catalogue.fuzzy_entries()] == []


@pytest.mark.parametrize("path", [p for p in ALL if _language(p) != "en"], ids=_id)
def test_every_entry_is_translated(path):
    catalogue = polib.pofile(str(path))
    assert [e.msgid for e in catalogue.untranslated_entries()] == []


@pytest.mark.parametrize("path", ALL, ids=_id)
def test_the_plural_header_is_the_one_django_uses_and_every_plural_entry_has_its_forms(path):
    language = _language(path)
    catalogue = polib.pofile(str(path))
    nplurals = _nplurals(catalogue)
    assert nplurals == _django_plural_forms(language)
    for entry in catalogue:
        if not entry.msgid_plural:
            continue
        forms = entry.msgstr_plural
        if language == "en" and not any(forms.values()):
            continue  # the source text serves
        assert sorted(forms) == list(range(nplurals)), entry.msgid
        assert all(forms.values()), f"{entry.msgid!r} lacks a plural form: {forms}"


@pytest.mark.parametrize("path", ALL, ids=_id)
def test_every_translation_keeps_the_placeholders_of_its_source(path):
    for entry in polib.pofile(str(path)):
        source = set(PLACEHOLDER.findall(entry.msgid))
        if entry.msgid_plural:
            allowed = source | set(PLACEHOLDER.findall(entry.msgid_plural))
            for form in entry.msgstr_plural.values():
                assert set(PLACEHOLDER.findall(form)) <= allowed, (entry.msgid, form)
        elif entry.msgstr:
            assert set(PLACEHOLDER.findall(entry.msgstr)) == source, (entry.msgid, entry.msgstr)


def test_the_spanish_tu_of_allauth_overrides_strings_allauth_still_has():
    import allauth

    ours = polib.pofile(str(ALLAUTH_TU / "es" / "LC_MESSAGES" / "django.po"))
    theirs = polib.pofile(str(Path(allauth.__file__).parent / "locale/es/LC_MESSAGES/django.po"))
    known = {e.msgid for e in theirs if not e.obsolete}
    assert len(ours) > 50
    assert [e.msgid for e in ours if e.msgid not in known] == []
    assert settings.LOCALE_PATHS[:2] == [ROOT / "locale", ALLAUTH_TU]


def _translated(entries) -> dict:
    # Plural entries keep their forms in msgstr_plural (msgstr stays empty).
    return {
        (e.msgctxt, e.msgid): (e.msgstr, {int(k): v for k, v in e.msgstr_plural.items()})
        for e in entries
        if e.msgid and (e.msgstr or any(e.msgstr_plural.values()))
    }


@pytest.mark.parametrize("path", ALL, ids=_id)
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
    ignores = ("tests/*", "bench/*", "node_modules/*", "static/vendor/*")
    for domain in ("django", "djangojs"):
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "--locale", "es", "--no-obsolete"]
            + ["--domain", domain]
            + [f"--ignore={pattern}" for pattern in ignores]
            + (["--ignore=static/*"] if domain == "django" else []),
            cwd=tmp_path,
            env={"DEBUG": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path)},
            capture_output=True,
            check=True,
        )
    for regenerated_path in tmp_path.rglob("locale/es/LC_MESSAGES/*.po"):
        path = ROOT / regenerated_path.relative_to(tmp_path)
        regenerated = {e.msgid for e in polib.pofile(str(regenerated_path))}
        committed = {e.msgid for e in polib.pofile(str(path))} if path.exists() else set()
        missing = regenerated - committed
        assert not missing, f"run `make messages` and translate in {_id(path)}: {missing}"
