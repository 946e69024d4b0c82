from __future__ import annotations

from games.models import Match, Table


def game_record(*, table: Table, match: Match, aborted: bool = False) -> None:
    raise NotImplementedError
