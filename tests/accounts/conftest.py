from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone


@pytest.fixture
def moderator(make_user):
    user = make_user("mod", is_staff=True)
    user.groups.add(Group.objects.get(name="moderators"))
    return user


@pytest.fixture
def finance_user(make_user):
    user = make_user("cashier", is_staff=True)
    user.groups.add(Group.objects.get(name="finance"))
    return user


class Clock:
    """A controllable `timezone.now` for tests about moments."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock(monkeypatch):
    fake = Clock(timezone.now().replace(microsecond=0))
    monkeypatch.setattr(timezone, "now", fake)
    return fake
