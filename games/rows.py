"""The rows of a table in play, read and written with few, cheap statements.

Every move locks the table, its match and its seats and writes the move: on a
busy server that is the hottest path, and both the ORM's query building (in the
web process) and PostgreSQL's planning of each new query text (in the database)
cost more CPU than the work itself. So on PostgreSQL a move is two prepared
statements on the connection's own psycopg cursor:

- one locks the table, its match in play and its seats (`FOR UPDATE OF t, m, s`,
  rows sorted by seat id, so the locks are taken table, match, seats by primary
  key, the order every other service uses) and reads what the move needs;
- one appends the action and stores the match's move columns and the table's
  `seq` (data-modifying CTEs: one statement).

Prepared statements are planned once per connection (measured: the lock went from
about 990 µs of PostgreSQL CPU unprepared to 190 µs, BEGIN and COMMIT included).
Model instances are built straight from the rows, without `Model.__init__`'s
per-field work (no model here has a post_init receiver). Statements still appear
in `connection.queries` when queries are logged (DEBUG, tests).

Other vendors (SQLite for the embedded default) take the ORM's `raw()` path: row
locks do not exist there (the whole database is locked by a write).

Only `games.services` calls these helpers (services are the only writers).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from django.db import connection
from django.db.models import Field, JSONField
from django.db.models.base import ModelState
from psycopg.types.numeric import Int8

from accounts.models import User
from games.models import Match, MatchAction, MatchStatus, Seat, Table
from ops.sql import run_prepared


def _columns(model: Any, alias: str, exclude: tuple[str, ...] = ()) -> str:
    quote = connection.ops.quote_name
    return ", ".join(
        f"{alias}.{quote(field.column)}"
        for field in model._meta.concrete_fields
        if field.name not in exclude
    )


def _column(field: Field[Any, Any]) -> str:
    """A concrete field's column (django-stubs allows None: only non-concrete fields lack one)."""
    if field.column is None:
        raise TypeError(f"{field} has no column")
    return field.column


def _move_field(name: str, model: Any = Match) -> Field[Any, Any]:
    """A column field by name (get_field may also return relations; these never are)."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field):
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return field


def _for_update(alias: str) -> str:
    if not connection.features.has_select_for_update:
        return ""
    if connection.features.has_select_for_update_of:
        return f" FOR UPDATE OF {alias}"
    return " FOR UPDATE"


def _attnames(model: Any, exclude: tuple[str, ...] = ()) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields if f.name not in exclude]


@functools.cache
def _json_fields(model: Any) -> list[tuple[str, JSONField[Any]]]:
    return [(f.attname, f) for f in model._meta.concrete_fields if isinstance(f, JSONField)]


def _instance(model: Any, attnames: list[str], values: Any) -> Any:
    """A model instance loaded from the database, as `Model.from_db` makes it but
    without `__init__` (which sets each field through its descriptor); fields not
    in `attnames` are deferred (they load on access)."""
    instance = model.__new__(model)
    instance.__dict__.update(zip(attnames, values, strict=True))
    # A JSON column comes as its text (Django's loader leaves it to the field).
    for name, field in _json_fields(model):
        value = instance.__dict__.get(name)
        if isinstance(value, str):
            instance.__dict__[name] = json.loads(value, cls=field.decoder)
    state = instance._state = ModelState()
    state.adding = False
    state.db = connection.alias
    return instance


def _user(user_id: int, username: str) -> User:
    """A user instance holding only its id and username (the rest loads on access)."""
    user: User = _instance(User, ["id", "username"], (user_id, username))
    return user


def lock_table(table_id: Any) -> Table | None:
    """Locks the table row (not its owner's) and loads its owner's username."""
    try:
        table_id = int(table_id)
    except (TypeError, ValueError):
        return None
    sql = (
        f"SELECT {_columns(Table, 't')}, u.username AS owner_username "
        f"FROM {Table._meta.db_table} t JOIN {User._meta.db_table} u ON u.id = t.owner_id "
        f"WHERE t.id = %s{_for_update('t')}"
    )
    table = next(iter(Table.objects.raw(sql, [table_id])), None)
    if table is not None:
        # raw() sets the query's extra column on the row; django-stubs cannot know it.
        table.owner = _user(table.owner_id, table.owner_username)  # type: ignore[attr-defined]
    return table


def lock_playing_match(table_id: int) -> Match | None:
    """Locks the table's match in play; its cached `record` is left unloaded."""
    sql = (
        f"SELECT {_columns(Match, 'm', exclude=('record',))} FROM {Match._meta.db_table} m "
        f"WHERE m.table_id = %s AND m.status = %s ORDER BY m.id LIMIT 1{_for_update('m')}"
    )
    return next(iter(Match.objects.raw(sql, [table_id, MatchStatus.PLAYING.value])), None)


def lock_seats(table_id: int) -> list[Seat]:
    """Locks the table's seats in primary-key order; returns them by position."""
    sql = (
        f"SELECT {_columns(Seat, 's')}, u.username AS user_username "
        f"FROM {Seat._meta.db_table} s LEFT JOIN {User._meta.db_table} u ON u.id = s.user_id "
        f"WHERE s.table_id = %s ORDER BY s.id{_for_update('s')}"
    )
    seats = list(Seat.objects.raw(sql, [table_id]))
    for seat in seats:
        if seat.user_id is not None:
            # raw() sets the query's extra column on the row; django-stubs cannot know it.
            seat.user = _user(seat.user_id, seat.user_username)  # type: ignore[attr-defined]
    return sorted(seats, key=lambda seat: seat.position)


@functools.cache
def _live_statement(lock: bool = True) -> tuple[str, int, int, list[str], list[str], list[str]]:
    """The statement of `lock_live` (`read_live` without `lock`) on PostgreSQL, and
    how to cut its rows."""
    table_fields = _attnames(Table)
    match_fields = _attnames(Match, exclude=("record",))
    seat_fields = _attnames(Seat)
    # The match: the table's first in play, as `lock_playing_match` picks it. Each
    # row is (table, owner's name, match, seat, seat user's name), sorted by seat id:
    # the locks are taken table, match, then seats by primary key.
    table, match, seat, user = (model._meta.db_table for model in (Table, Match, Seat, User))
    sql = (
        f"SELECT {_columns(Table, 't')}, ou.username, "
        f"{_columns(Match, 'm', exclude=('record',))}, {_columns(Seat, 's')}, su.username "
        f"FROM {table} t "
        f"JOIN {user} ou ON ou.id = t.owner_id "
        f"JOIN {match} m ON m.id = ("
        f"SELECT min(id) FROM {match} WHERE table_id = $1 AND status = $2) "
        # Checked again on the row as locked (a match finished while this waited).
        "AND m.status = $2 "
        f"JOIN {seat} s ON s.table_id = t.id "
        f"LEFT JOIN {user} su ON su.id = s.user_id "
        "WHERE t.id = $1 ORDER BY s.id" + (" FOR UPDATE OF t, m, s" if lock else "")
    )
    match_at = len(table_fields) + 1
    seat_at = match_at + len(match_fields)
    return sql, match_at, seat_at, table_fields, match_fields, seat_fields


def lock_live(table_id: Any) -> tuple[Table | None, Match | None, list[Seat]]:
    """`lock_table`, `lock_playing_match` and `lock_seats` together (one prepared
    statement on PostgreSQL). Without a match in play the table (if any) is locked
    and returned with no match."""
    try:
        table_id = int(table_id)
    except (TypeError, ValueError):
        return None, None, []
    if connection.vendor != "postgresql":
        return _lock_live_apart(table_id)
    found = _live_rows(table_id, lock=True)
    if not found:  # no table, or none in play: the slower statements tell which
        return _lock_live_apart(table_id)
    return _live_instances(found)


def read_live(table_id: int) -> tuple[Table, Match, list[Seat]] | None:
    """The table, its match in play and its seats (by position) as they are committed,
    without a lock (one prepared statement on PostgreSQL); None when the table has no
    match in play. For what is decided before a lock is taken (a bot's move)."""
    if connection.vendor != "postgresql":
        table, match, seats = _lock_live_apart(table_id)  # no row locks on SQLite
        return None if table is None or match is None else (table, match, seats)
    found = _live_rows(table_id, lock=False)
    return _live_instances(found) if found else None


def _live_rows(table_id: int, *, lock: bool) -> list[Any]:
    sql = _live_statement(lock)[0]
    return run_prepared(sql, (Int8(table_id), MatchStatus.PLAYING.value)).fetchall()


def _live_instances(found: list[Any]) -> tuple[Table, Match, list[Seat]]:
    _, match_at, seat_at, table_fields, match_fields, seat_fields = _live_statement()
    first = found[0]
    table = _instance(Table, table_fields, first[: match_at - 1])
    table.owner = _user(table.owner_id, first[match_at - 1])
    match = _instance(Match, match_fields, first[match_at:seat_at])
    seats = []
    for row in found:
        seat = _instance(Seat, seat_fields, row[seat_at:-1])
        if seat.user_id is not None:
            seat.user = _user(seat.user_id, row[-1])
        seats.append(seat)
    return table, match, sorted(seats, key=lambda seat: seat.position)


def _lock_live_apart(table_id: int) -> tuple[Table | None, Match | None, list[Seat]]:
    table = lock_table(table_id)
    if table is None:
        return None, None, []
    return table, lock_playing_match(table.pk), lock_seats(table.pk)


_MATCH_MOVE_FIELDS = ("version", "hand_no", "score_a", "score_b", "to_play", "turn_deadline")
_ACTION_FIELDS = ("match_id", "number", "hand_no", "seat", "action", "source", "created_at")


@functools.cache
def _move_statement() -> str:
    """The write of `write_move` on PostgreSQL: $1–$7 the action's fields, $8–$13
    the match's move columns, $14 the table's seq, $15 the table."""
    quote = connection.ops.quote_name
    columns = [_column(_move_field(name, MatchAction)) for name in _ACTION_FIELDS]
    moves = ", ".join(
        f"{quote(_column(_move_field(name)))} = ${8 + n}"
        for n, name in enumerate(_MATCH_MOVE_FIELDS)
    )
    return (
        f"WITH logged AS (INSERT INTO {quote(MatchAction._meta.db_table)} "
        f"({', '.join(quote(c) for c in columns)}) "
        f"VALUES ({', '.join(f'${n + 1}' for n in range(len(columns)))})), "
        f"moved AS (UPDATE {quote(Match._meta.db_table)} SET {moves} WHERE id = $1) "
        f"UPDATE {quote(Table._meta.db_table)} SET seq = $14 WHERE id = $15"
    )


def new_action(
    *, match: Match, number: int, hand_no: int, seat: int, action: str, source: str, created_at: Any
) -> MatchAction:
    """The action a move appends (`write_move`), as `MatchAction(...)` makes it but
    without `Model.__init__`, which sets each field through its descriptor: a move's
    one new instance, 3 % of a web process's time a move (py-spy, issue 45)."""
    logged: MatchAction = MatchAction.__new__(MatchAction)
    logged.__dict__.update(
        id=None,
        match_id=match.pk,
        number=number,
        hand_no=hand_no,
        seat=seat,
        action=action,
        source=source,
        created_at=created_at,
    )
    logged._state = ModelState()
    logged._state.fields_cache["match"] = match
    return logged


def write_move(*, table: Table, match: Match, action: MatchAction) -> None:
    """Appends `action` to the log and stores the match's move columns and the
    table's `seq`, as they are on the instances (one statement on PostgreSQL)."""
    if connection.vendor != "postgresql":
        _write_move_apart(table=table, match=match, action=action)
        return
    params = (
        Int8(match.pk),
        Int8(action.number),
        Int8(action.hand_no),
        Int8(action.seat),
        action.action,
        action.source,
        action.created_at,
        Int8(match.version),
        Int8(match.hand_no),
        Int8(match.score_a),
        Int8(match.score_b),
        None if match.to_play is None else Int8(match.to_play),
        match.turn_deadline,
        Int8(table.seq),
        Int8(table.pk),
    )
    assert action.match_id == match.pk
    run_prepared(_move_statement(), params)


def _write_move_apart(*, table: Table, match: Match, action: MatchAction) -> None:
    ops = connection.ops
    quote = ops.quote_name
    action_fields = [f for f in MatchAction._meta.concrete_fields if not f.primary_key]
    statements = [
        (
            f"INSERT INTO {quote(MatchAction._meta.db_table)} "
            f"({', '.join(quote(_column(f)) for f in action_fields)}) "
            f"VALUES ({', '.join(['%s'] * len(action_fields))})",
            [f.get_db_prep_save(getattr(action, f.attname), connection) for f in action_fields],
        ),
        (
            f"UPDATE {quote(Match._meta.db_table)} SET "
            + ", ".join(f"{quote(name)} = %s" for name in _MATCH_MOVE_FIELDS)
            + f" WHERE {quote('id')} = %s",
            [
                _move_field(name).get_db_prep_save(getattr(match, name), connection)
                for name in _MATCH_MOVE_FIELDS
            ]
            + [match.pk],
        ),
        (
            f"UPDATE {quote(Table._meta.db_table)} SET {quote('seq')} = %s "
            f"WHERE {quote('id')} = %s",
            [table.seq, table.pk],
        ),
    ]
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)
