"""The games app's receivers of other apps' signals, connected in `GamesConfig.ready()`."""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games import selectors
from games.fanout import transport
from games.services import user_remove_from_tables


def banned_user_leave_tables(sender: Any, user: User, **kwargs: Any) -> None:
    """A banned user leaves their live table (`accounts.signals.user_banned`)."""
    user_remove_from_tables(user=user)


def balances_tell_sockets(sender: Any, user_ids: list[int], **kwargs: Any) -> None:
    """A payout, refund or stake moved these users' coins (`economy.signals.
    balances_changed`): their sockets learn the new balances (the table page and the
    lobby update the nav in place)."""
    transport.send_balances(selectors.user_balances(user_ids))
