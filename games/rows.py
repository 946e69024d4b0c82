"""The rows of a table in play, read and written with few, cheap statements.

Every move locks the table, its match and its seats and writes the move: on a
busy server that is the hottest path, and the ORM's query building costs more
CPU than PostgreSQL's work. These helpers issue the same locks in the same
order (table, match, seats by primary key) with hand-written SQL through
`Model.objects.raw` (model instances with the usual field conversions), and
write a move as one round trip on PostgreSQL. They work on SQLite too, where
row locks do not exist (the whole database is locked by a write).

Only `games.services` calls them (services are the only writers).
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import Field

from accounts.models import User
from games.models import Match, MatchAction, MatchStatus, Seat, Table


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


def _move_field(name: str) -> Field[Any, Any]:
    """A Match column field by name (get_field may also return relations; these never are)."""
    field = Match._meta.get_field(name)
    if not isinstance(field, Field):
        raise TypeError(f"Match.{name} is not a column")
    return field


def _for_update(alias: str) -> str:
    if not connection.features.has_select_for_update:
        return ""
    if connection.features.has_select_for_update_of:
        return f" FOR UPDATE OF {alias}"
    return " FOR UPDATE"


def _user(user_id: int, username: str) -> User:
    """A user instance holding only its id and username (the rest loads on access)."""
    return User.from_db(connection.alias, ["id", "username"], [user_id, username])


def lock_table(table_id: Any) -> Table | None:
    """Locks the table row (not its owner's) and loads its owner's username."""
    try:
        table_id = int(table_id)
    except (TypeError, ValueError):
        return None
    sql = (
        f"SELECT {_columns(Table, 't')}, u.username AS owner_username "
        "FROM games_table t JOIN accounts_user u ON u.id = t.owner_id "
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
        f"SELECT {_columns(Match, 'm', exclude=('record',))} FROM games_match m "
        f"WHERE m.table_id = %s AND m.status = %s ORDER BY m.id LIMIT 1{_for_update('m')}"
    )
    return next(iter(Match.objects.raw(sql, [table_id, MatchStatus.PLAYING.value])), None)


def lock_seats(table_id: int) -> list[Seat]:
    """Locks the table's seats in primary-key order; returns them by position."""
    sql = (
        f"SELECT {_columns(Seat, 's')}, u.username AS user_username "
        "FROM games_seat s LEFT JOIN accounts_user u ON u.id = s.user_id "
        f"WHERE s.table_id = %s ORDER BY s.id{_for_update('s')}"
    )
    seats = list(Seat.objects.raw(sql, [table_id]))
    for seat in seats:
        if seat.user_id is not None:
            # raw() sets the query's extra column on the row; django-stubs cannot know it.
            seat.user = _user(seat.user_id, seat.user_username)  # type: ignore[attr-defined]
    return sorted(seats, key=lambda seat: seat.position)


def lock_live(table_id: Any) -> tuple[Table | None, Match | None, list[Seat]]:
    """`lock_table`, `lock_playing_match` and `lock_seats` together: on PostgreSQL
    the three statements travel in one round trip and still run one after the other
    (each reads after the locks before it, with its own snapshot)."""
    if connection.vendor != "postgresql":
        table = lock_table(table_id)
        if table is None:
            return None, None, []
        return table, lock_playing_match(table.pk), lock_seats(table.pk)
    try:
        table_id = int(table_id)
    except (TypeError, ValueError):
        return None, None, []
    table_fields = _attnames(Table)
    match_fields = _attnames(Match, exclude=("record",))
    seat_fields = _attnames(Seat)
    sql = "; ".join(
        (
            f"SELECT {_columns(Table, 't')}, u.username FROM games_table t "
            "JOIN accounts_user u ON u.id = t.owner_id WHERE t.id = %s FOR UPDATE OF t",
            f"SELECT {_columns(Match, 'm', exclude=('record',))} FROM games_match m "
            "WHERE m.table_id = %s AND m.status = %s ORDER BY m.id LIMIT 1 FOR UPDATE OF m",
            f"SELECT {_columns(Seat, 's')}, u.username FROM games_seat s "
            "LEFT JOIN accounts_user u ON u.id = s.user_id "
            "WHERE s.table_id = %s ORDER BY s.id FOR UPDATE OF s",
        )
    )
    alias = connection.alias
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id, table_id, MatchStatus.PLAYING.value, table_id])
        table_rows = cursor.fetchall()
        cursor.nextset()
        match_rows = cursor.fetchall()
        cursor.nextset()
        seat_rows = cursor.fetchall()
    if not table_rows:
        return None, None, []
    *values, owner_name = table_rows[0]
    table = Table.from_db(alias, table_fields, values)
    table.owner = _user(table.owner_id, owner_name)
    match = Match.from_db(alias, match_fields, match_rows[0]) if match_rows else None
    seats = []
    for *values, username in seat_rows:
        seat = Seat.from_db(alias, seat_fields, values)
        if seat.user_id is not None:
            seat.user = _user(seat.user_id, username)
        seats.append(seat)
    return table, match, sorted(seats, key=lambda seat: seat.position)


def _attnames(model: Any, exclude: tuple[str, ...] = ()) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields if f.name not in exclude]


_MATCH_MOVE_FIELDS = ("version", "hand_no", "score_a", "score_b", "to_play", "turn_deadline")


def write_move(*, table: Table, match: Match, action: MatchAction) -> None:
    """Appends `action` to the log and stores the match's move columns and the
    table's `seq`, as they are on the instances (one round trip on PostgreSQL)."""
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
        if connection.vendor == "postgresql":
            # Client-side binding: several statements travel in one query.
            params = [param for _, part in statements for param in part]
            cursor.execute("; ".join(sql for sql, _ in statements), params)
        else:
            for sql, params in statements:
                cursor.execute(sql, params)
