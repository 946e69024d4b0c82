"""Signals other apps connect to (the receivers live in each app's `receivers.py`).

`user_banned` is sent after the ban's transaction has committed, with
`sender=User`, `user` and `ban`. The games app connects to it to give the
user's seat to a bot, and the online app to take them out of every queue.
`user_unbanned` is sent the same way when a ban is lifted.
`report_closed` is sent inside the transaction that closes a report, with
`sender=Report` and `report` (the notification centre tells the reporter).
"""

from __future__ import annotations

from django.dispatch import Signal

user_banned = Signal()
user_unbanned = Signal()
report_closed = Signal()
