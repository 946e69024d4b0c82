"""The suite's service gates (tests/conftest.py): a test that needs something the
machine lacks is skipped with its reason, or fails under REQUIRE_SERVICES=1."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests import conftest


class FakeItem:
    """What pytest_runtest_setup reads of a test: its markers."""

    def __init__(self, *markers: str) -> None:
        self.markers = set(markers)

    def get_closest_marker(self, name: str):
        return name if name in self.markers else None


@pytest.fixture
def fonts_of_dejavu_only(tmp_path, monkeypatch):
    """A fontconfig that knows only the DejaVu fonts (no Hangul, no Thai, no emoji)."""
    found = subprocess.run(
        ["fc-list", "--format", "%{file}\\n", ":family=DejaVu Sans"],
        capture_output=True,
        text=True,
    ).stdout.split()
    if not found:
        pytest.skip("needs the DejaVu fonts and fontconfig (fc-list)")
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        f'<?xml version="1.0"?><fontconfig><dir>{Path(found[0]).parent}</dir>'
        f"<cachedir>{tmp_path}/cache</cachedir></fontconfig>"
    )
    monkeypatch.setenv("FONTCONFIG_FILE", str(conf))
    conftest._fonts_missing.cache_clear()
    yield
    conftest._fonts_missing.cache_clear()


def test_without_korean_thai_and_emoji_fonts_a_fonts_test_is_skipped_with_its_reason(
    fonts_of_dejavu_only, monkeypatch
):
    monkeypatch.delenv("REQUIRE_SERVICES", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        conftest.pytest_runtest_setup(FakeItem("fonts"))
    assert str(skipped.value) == (
        "needs fonts for ko and th and emoji "
        "(apt-get install fonts-noto-cjk fonts-thai-tlwg fonts-noto-color-emoji)"
    )
    conftest.pytest_runtest_setup(FakeItem())  # an unmarked test runs


def test_without_the_fonts_a_fonts_test_fails_under_require_services(
    fonts_of_dejavu_only, monkeypatch
):
    monkeypatch.setenv("REQUIRE_SERVICES", "1")
    with pytest.raises(pytest.fail.Exception) as failed:
        conftest.pytest_runtest_setup(FakeItem("fonts"))
    assert "REQUIRE_SERVICES=1 but this test needs fonts for ko and th" in str(failed.value)


def test_with_the_fonts_installed_the_gate_lets_the_test_run(monkeypatch):
    conftest._fonts_missing.cache_clear()
    try:
        if conftest._fonts_missing():
            pytest.skip("this machine has no Korean or Thai font")
        monkeypatch.setenv("REQUIRE_SERVICES", "1")
        conftest.pytest_runtest_setup(FakeItem("fonts"))
    finally:
        conftest._fonts_missing.cache_clear()
