"""Tables to watch, for the tests of the watchers' pages (docs/watching.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.models import Table
from online import services as online


def online_table(make_user: Callable[..., Any], prefix: str, *people: Any) -> Table:
    """An online table in play: `people` (made up to four with `prefix`) matched by the
    queue."""
    cast = list(people) + [make_user(f"{prefix}{i}") for i in range(4 - len(people))]
    for user in cast:
        online.queue_join(user=user)
    online.queue_match()  # the pass after the last join (run already after a commit)
    return Table.objects.get(seats__user=cast[0], seats__live=True)


def stake_table(
    make_user: Callable[..., Any],
    prefix: str,
    *people: Any,
    stake: int = 100,
    forbid: bool = False,
) -> Table:
    """A full stake table, its match in play: `people` first (made up to four with
    `prefix`); the first player forbids watchers if told."""
    cast = list(people) + [make_user(f"{prefix}{i}") for i in range(4 - len(people))]
    table = online.stake_table_open(user=cast[0], stake=stake, allow_watchers=not forbid)
    for user in cast[1:]:
        online.stake_table_sit(user=user, table_id=table.pk)
    return table
