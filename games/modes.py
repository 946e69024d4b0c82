"""Game modes as policies: the questions games asks a mode, and who answers them.

A table's `mode` (`games.models.Mode`, the one vocabulary of modes) names a
policy registered here. The table services ask it where modes differ, and
never branch on the mode themselves:

- who may sit: `seats_by_owner` — the room's owner invites players, moves them
  and gives seats to bots (friends); otherwise the mode's own services seat the
  players (practice: its creator alone; online: the matchmaker; stake: whoever
  pays the stake);
- what a seat leave does at a table not yet in play (`seat_leave`);
- how a finished match is settled (`match_settle`) and what rewards apply
  (`reward_rate`, the share of the ledger's place rewards the mode pays);
- what an aborted match undoes (`match_abort`);
- what "play again" opens (`table_rematch`);
- what is at stake at a table, shown to its players (`table_stakes`);
- what leaving a match in play does (`seat_leave_in_play`: abandoning it, or for
  the daily deal keeping it for later), and what an abandonment costs the player
  beyond the match (`seat_abandoned`: online and stake count it towards the waits
  before playing again);
- whether bots stand in for an absent player and turns have a time limit
  (`bots_stand_in`), whether bots play reproducibly (`bots_reproducible`), and what
  the mode adds to a table's frames (`table_info`);
- whether its matches go into the players' history and figures, and have a page
  there (`in_history`);
- a region of its own on the table page (`table_panel_url`);
- the stake of its tables as an expression a list of tables sorts by
  (`table_stake_expression`).

Practice and friends are answered by `games.policies` (registered from
`GamesConfig.ready`); online and stake by `online.policies` (registered from
`OnlineConfig.ready`). Adding a mode is one policy module and its registration
(docs/architecture.md, "How to add a mode").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from datetime import datetime

    from accounts.models import User
    from economy.services import RewardRate
    from games.models import Match, MatchSeat, Seat, Table


@dataclass(frozen=True)
class TableStakes:
    """What a table plays for, as its players see it: the coins each player put in to
    sit, and the pot those stakes make now."""

    stake: int
    pot: int


class ModePolicy:
    """The hooks a mode answers. Each is called inside the transaction of the
    service asking, with the table (and its seats) locked."""

    #: The value of `games.models.Mode` this policy answers for.
    mode: ClassVar[str]
    #: Who may sit: True when the room's owner arranges the seats (invitations,
    #: swaps, bots) and starts the match.
    seats_by_owner: ClassVar[bool] = False
    #: A bot plays for a player who is away, and a player's turn runs out after
    #: TURN_SECONDS_*. False: the player's seat waits for them, however long.
    bots_stand_in: ClassVar[bool] = True
    #: Bots choose with no clock (`choose_action(reproducible=True)`): the same
    #: position and seed give the same move under any load.
    bots_reproducible: ClassVar[bool] = False
    #: Whether its finished matches change the players' ratings (the table then
    #: shows each seat's rating, docs/ratings.md).
    rated: ClassVar[bool] = False
    #: Whether its players may write free text to each other while nobody holds
    #: cards (before the first deal, after the match); otherwise the fixed phrases
    #: only (games/words/talk_phrases.py, docs/protocol.md "Table talk").
    free_text_talk: ClassVar[bool] = False
    #: Whether its finished matches are recorded in the players' history (their
    #: list of matches, their figures, their reliability) and have a page there
    #: (the daily deal's matches do not: their cards are secret until the day ends,
    #: and its own pages show them when they may).
    in_history: ClassVar[bool] = True

    def open_to_watch(self, *, table: Table) -> bool:
        """Whether anyone signed in may watch `table` (docs/watching.md), besides its
        invitees and staff, who always may; a forbidding player still refuses them
        (`games.selectors.watchable`). None of the mode's tables by default."""
        return False

    def reward_rate(self) -> RewardRate | None:
        """The share of the place rewards a finished match pays (None: nothing)."""
        return None

    def seat_leave(self, *, table: Table, seats: list[Seat], seat: Seat) -> None:
        """`seat`'s player leaves `table`, which is not in play."""
        raise NotImplementedError

    def seat_leave_in_play(
        self, *, table: Table, match: Match, seats: list[Seat], seat: Seat
    ) -> None:
        """`seat`'s player leaves the match in play (table, match and seats locked)."""
        raise NotImplementedError

    def seat_abandoned(
        self, *, table: Table, match: Match, user_id: int, left: bool, at: datetime
    ) -> None:
        """`user_id` abandoned `match` at `at` (rows locked): `left` when they chose to
        leave, False when they were away too long. Nothing by default; online and
        stake count it towards the waits before playing again (docs/fairplay.md)."""

    def table_info(self, *, table: Table, seats: list[Seat], match: Match | None) -> dict[str, Any]:
        """JSON-ready facts the mode adds to the `table` part of every frame (its
        keys must not be the games app's own: docs/protocol.md)."""
        return {}

    def match_settle(self, *, table: Table, match: Match, match_seats: list[MatchSeat]) -> None:
        """Pays a match that just finished (its seats have their places)."""
        raise NotImplementedError

    def match_abort(self, *, table: Table, match: Match, seats: list[Seat]) -> None:
        """Staff stopped the match and the table is closed: undo what the mode holds
        (nobody earns anything from an aborted match)."""

    def table_rematch(self, *, user: User, table: Table, seats: list[Seat]) -> Table:
        """`user`, who sat at the finished `table`, plays again: the new table."""
        raise NotImplementedError

    def table_stakes(self, *, table: Table) -> TableStakes | None:
        """The stake and the pot of `table` (None: the mode plays for no stake). A
        read, asked each time the table's frames are built."""
        return None

    def table_stake_expression(self) -> Any | None:
        """An ORM expression over `Table` rows: the coins each player stakes at a table
        of this mode (None: the mode plays for no stake). The list of tables in play
        reads and sorts by it in the same query as the tables (games.selectors)."""
        return None

    def table_panel_url(self, *, table: Table) -> str | None:
        """The URL of a region the mode adds to `table`'s page (None: nothing), fetched
        by htmx when the page opens and again after every move it draws."""
        return None


_policies: dict[str, ModePolicy] = {}


def mode_register(policy: ModePolicy) -> None:
    """Called from an `AppConfig.ready()`: `policy` answers for its mode."""
    _policies[policy.mode] = policy


def modes_with_stand_in() -> list[str]:
    """The modes where a bot plays for an absent player (`ModePolicy.bots_stand_in`)."""
    return sorted(mode for mode, policy in _policies.items() if policy.bots_stand_in)


def modes_in_history() -> list[str]:
    """The modes whose matches the history records (every registered mode by default)."""
    return [mode for mode, policy in _policies.items() if policy.in_history]


def stake_expressions() -> list[Any]:
    """Every registered mode's `table_stake_expression` (those with a stake)."""
    found = (policy.table_stake_expression() for policy in _policies.values())
    return [expression for expression in found if expression is not None]


def mode_policy(mode: str) -> ModePolicy:
    """The registered policy of `mode`. A mode no installed app answers is a
    deployment error (LookupError), not a refusal to show a player."""
    try:
        return _policies[mode]
    except KeyError:
        raise LookupError(f"no policy is registered for the mode {mode!r}") from None
