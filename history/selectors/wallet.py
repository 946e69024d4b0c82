"""The owner's wallet month by month on their player page: coins and XP at the end
of each month and the level reached (private)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from economy.levels import level_progress
from economy.selectors import balances, ledger_sums_by_month
from history.selectors.dates import day_start, month_starts


@dataclass(frozen=True)
class WalletMonth:
    month: date
    coins: int  # the balance at the end of the month
    xp: int  # total XP at the end of the month
    level: int


#: The ledger sums by (currency, month) of every month before the current one.
ClosedSums = dict[tuple[str, date], int]


def closed_month_sums(user: Any, *, current: date) -> ClosedSums:
    """The ledger sums of every month before `current` (history/cached.py keeps them:
    a month's ledger is closed once the month is over)."""
    return ledger_sums_by_month(user=user, since=None, until=day_start(current))


def wallet_by_month(
    user: Any, *, now: datetime | None = None, closed: ClosedSums | None = None
) -> list[WalletMonth]:
    """Coins and XP at the end of each of the last `PLAYER_PAGE_MONTHS` months, and
    the level reached: private (the owner's page only).

    The months before this one are closed: their sums are `closed` when given (as
    history/cached.py keeps them), else read from the ledger; this month ends on the
    balances the ledger keeps on the accounts. With `now` in an earlier month, that
    month is summed from the ledger.
    """
    real_now = timezone.now()
    now = now or real_now
    starts = month_starts(settings.PLAYER_PAGE_MONTHS, now=now)
    current = starts[-1]
    sums = closed if closed is not None else closed_month_sums(user, current=current)
    before = {"coins": 0, "xp": 0}
    for (currency, month), total in sums.items():
        if month < starts[0]:
            before[currency] = before.get(currency, 0) + total
    lines = []
    coins, xp = before["coins"], before["xp"]
    for start in starts[:-1]:
        coins += sums.get(("coins", start), 0)
        xp += sums.get(("xp", start), 0)
        lines.append(WalletMonth(month=start, coins=coins, xp=xp, level=level_progress(xp).level))
    if current == month_starts(1, now=real_now)[0]:
        money = balances(user)
        coins, xp = money["coins"], money["xp"]
    else:
        next_month = day_start((current + timedelta(days=31)).replace(day=1))
        this = ledger_sums_by_month(user=user, since=day_start(current), until=next_month)
        coins += this.get(("coins", current), 0)
        xp += this.get(("xp", current), 0)
    lines.append(WalletMonth(month=current, coins=coins, xp=xp, level=level_progress(xp).level))
    return lines
