"""The cast of the history selectors' tests: four players, and a fixed "now"."""

from datetime import UTC, datetime

import pytest

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)


@pytest.fixture
def cast(make_user):
    return [make_user(name) for name in ("ana", "bea", "carlos", "dani")]
