"""Signals other apps connect to (the economy's own receivers: `economy/receivers.py`).

`balances_changed` is sent after the commit of a ledger transaction that moved
users' balances, with `user_ids` and the transaction's `kind` (the signup bonus
aside: nobody watches a balance yet). The games app tells those users' open
sockets their new balance.
"""

from django.dispatch import Signal

balances_changed = Signal()
