from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def eager_tasks():
    """The notifications' tasks run in place (the bells' counts, the pushes)."""
    from cuatrola_site.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


def bare_user(username: str):
    """A user without coin accounts (bulk_create sends no post_save): the ledger's
    immutable rows would otherwise keep any user from being deleted."""
    from accounts.models import User

    (user,) = User.objects.bulk_create([User(username=username, email=f"{username}@example.com")])
    return user
