"""The mode of a practised position (games.models.Mode.POSITION), registered from
`CoachConfig.ready()`.

A position table is a practice table that starts in the middle of a hand and ends
with it: nothing is paid, the match is not a match of the player's history (it
never reaches their list, figures or reliability), playing again deals the same
position again, and the table page shows the coach's panel (what to find, and
whether the choice made was within the threshold).
"""

from __future__ import annotations

from django.urls import reverse

from accounts.models import User
from coach.errors import CoachError
from coach.services import practice_again
from games.errors import NotAllowed
from games.models import Mode, Seat, Table
from games.policies import TablePolicy


class PositionPolicy(TablePolicy):
    mode = Mode.POSITION
    in_history = False

    def table_rematch(self, *, user: User, table: Table, seats: list[Seat]) -> Table:
        try:
            return practice_again(user=user, table=table)
        except CoachError as error:  # the table's page shows the games app's refusals
            raise NotAllowed(error.lazy_message) from None

    def table_panel_url(self, *, table: Table) -> str | None:
        return reverse("coach:practice_panel", args=[table.pk])
