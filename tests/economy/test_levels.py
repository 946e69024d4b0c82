"""Levels from XP: level n needs 100*n*(n-1)/2 XP in total."""

import pytest

from economy.levels import level_progress, xp_for_level


@pytest.mark.parametrize(
    ("xp", "level"),
    [(0, 1), (99, 1), (100, 2), (299, 2), (300, 3), (599, 3), (600, 4), (4500, 10), (4499, 9)],
)
def test_the_level_follows_the_platform_formula(xp, level):
    assert level_progress(xp).level == level


def test_the_thresholds_are_those_of_the_platform():
    assert [xp_for_level(n) for n in range(1, 6)] == [0, 100, 300, 600, 1000]


def test_progress_is_measured_from_the_level_start():
    progress = level_progress(350)
    assert (progress.level, progress.into_level, progress.span, progress.percent) == (
        3,
        50,
        300,
        16,
    )


def test_every_xp_up_to_a_large_number_lands_in_its_level():
    for xp in range(0, 60_000, 7):
        p = level_progress(xp)
        assert xp_for_level(p.level) <= xp < xp_for_level(p.level + 1)


def test_the_step_is_a_setting(settings):
    settings.ECONOMY_LEVEL_STEP_XP = 10
    assert level_progress(10).level == 2
