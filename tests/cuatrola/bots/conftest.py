import pytest

from cuatrola.bots import search


@pytest.fixture(autouse=True)
def _work_budget_only(monkeypatch):
    """Bots stop on counted work; the clock is only a safety net for a loaded server.

    On a loaded test machine that safety net could cut a search short and change
    a move, so the same seed would not always give the same answer. The tests
    check the bots as designed: limited by work, reproducible.
    """
    monkeypatch.setattr(search, "DEADLINE_FACTOR", 50.0)
