"""Helpers for the economy tests: real threads against the real database."""

from __future__ import annotations

import pytest


@pytest.fixture
def products(django_db_blocker):
    """The default products; transactional tests flush the rows the migration seeded."""
    from economy.catalogue import products_seed

    products_seed()


@pytest.fixture
def coins_of():
    from economy.selectors import balances

    def read(user) -> int:
        return balances(user)["coins"]

    return read


@pytest.fixture
def xp_of():
    from economy.selectors import balances

    def read(user) -> int:
        return balances(user)["xp"]

    return read
