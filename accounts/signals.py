"""Signals other apps connect to.

`user_banned` is sent after the ban's transaction has committed, with
`sender=User`, `user` and `ban`. The games app connects to it to give the
user's seat to a bot and to take them out of every queue.
"""

from django.dispatch import Signal

user_banned = Signal()
user_unbanned = Signal()
