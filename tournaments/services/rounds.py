"""Rounds: pairing a round (Swiss or knockout, by `tournaments.formats`), seating each
tie at a new table of the `tournament` mode through games' public life cycle, the next
game of a best-of-three tie, and the teams that did not show (docs/tournaments.md)."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import User
from games import errors as game_errors
from games import services as games
from games.models import Mode, Seat, SeatKind, Table, TableStatus
from tournaments import errors
from tournaments.formats import arena, duplicate, knockout, swiss
from tournaments.models import (
    Entry,
    Format,
    Game,
    Pairing,
    PairingState,
    Round,
    RoundState,
    Tournament,
)
from tournaments.services.common import changed, live_entries

#: Team A sits at seats 0 and 2 (pair 1 of the match), team B at 1 and 3.
TEAM_SEATS = ((0, 2), (1, 3))


def swiss_results(tournament: Tournament) -> list[swiss.SwissResult]:
    """The finished Swiss ties of the tournament, as the formats count them."""
    rows = Pairing.objects.filter(tournament=tournament, state=PairingState.FINISHED)
    return [
        swiss.SwissResult(
            team_a=p.entry_a_id,
            team_b=p.entry_b_id,
            vp_a=p.vp_a,
            vp_b=p.vp_b,
            points_a=p.points_a,
            points_b=p.points_b,
        )
        for p in rows.order_by("round__number", "number")
    ]


def _swiss_ties(tournament: Tournament, entries: list[Entry]) -> list[tuple[int, int | None]]:
    results = swiss_results(tournament)
    score = {e.pk: 0.0 for e in entries}
    met: dict[int, set[int]] = {e.pk: set() for e in entries}
    byes: set[int] = set()
    for r in results:
        if r.team_a in score:
            score[r.team_a] += r.vp_a
        if r.team_b is None:
            byes.add(r.team_a)
            continue
        if r.team_b in score:
            score[r.team_b] += r.vp_b
        met.setdefault(r.team_a, set()).add(r.team_b)
        met.setdefault(r.team_b, set()).add(r.team_a)
    pairing = swiss.swiss_pair(
        [
            swiss.SwissTeam(
                id=e.pk,
                score=score[e.pk],
                rating=e.rating,
                opponents=frozenset(met[e.pk]),
                had_bye=e.pk in byes,
            )
            for e in entries
        ]
    )
    ties: list[tuple[int, int | None]] = list(pairing.pairs)
    if pairing.bye is not None:
        ties.append((pairing.bye, None))
    return ties


def knockout_winners(tournament: Tournament, number: int) -> list[int]:
    """The winners of round `number`'s ties, in bracket order (table numbers)."""
    rows = Pairing.objects.filter(tournament=tournament, round__number=number).order_by("number")
    return [p.winner_id for p in rows if p.winner_id is not None]


def _knockout_ties(
    tournament: Tournament, entries: list[Entry], number: int
) -> list[tuple[int, int | None]]:
    if number == 1:
        seeds = [e.pk for e in sorted(entries, key=lambda e: (-e.rating, e.pk))]
        return list(knockout.bracket_first_round(seeds))
    return list(knockout.next_round(knockout_winners(tournament, number - 1)))


def arena_results(tournament: Tournament) -> dict[int, list[bool]]:
    """Each entry's arena matches in the order they ended (True: won); a tie stopped by
    staff (no winner) is left out."""
    results: dict[int, list[bool]] = {}
    rows = (
        Pairing.objects.filter(
            tournament=tournament, state=PairingState.FINISHED, winner__isnull=False
        )
        .order_by("finished_at", "pk")
        .values_list("entry_a_id", "entry_b_id", "winner_id")
    )
    for entry_a, entry_b, winner in rows:
        for entry in (entry_a, entry_b):
            if entry is not None:
                results.setdefault(entry, []).append(entry == winner)
    return results


def arena_wave_start_locked(tournament: Tournament, now: datetime) -> Round | None:
    """Arena: pair every team that is not playing (nor flagged absent in its last tie)
    as a new wave of ties, by arena points then rating, never the same opponents twice
    running (they wait for another team); None when no tie can be made. Each wave is a
    Round (numbered on), all ending with the arena."""
    entries = live_entries(tournament)
    busy: set[int] = set()
    last_opponent: dict[int, int | None] = {}
    away: set[int] = set()
    for p in Pairing.objects.filter(tournament=tournament).order_by("pk"):
        if p.state == PairingState.PLAYING:
            busy.update(pk for pk in (p.entry_a_id, p.entry_b_id) if pk)
        last_opponent[p.entry_a_id] = p.entry_b_id
        if p.entry_b_id:
            last_opponent[p.entry_b_id] = p.entry_a_id
        for entry, absent in ((p.entry_a_id, p.no_show_a), (p.entry_b_id, p.no_show_b)):
            if entry is not None:
                away.discard(entry)
                if absent:
                    away.add(entry)
    results = arena_results(tournament)
    points = {e.pk: sum(arena.arena_points(results.get(e.pk, []))) for e in entries}
    idle = sorted(
        (e for e in entries if e.pk not in busy and e.pk not in away),
        key=lambda e: (-points[e.pk], -e.rating, e.pk),
    )
    if len(idle) < 2:
        return None
    order = [e.pk for e in idle]
    for i in range(0, len(order) - 1, 2):
        if last_opponent.get(order[i]) == order[i + 1] and i + 2 < len(order):
            order[i + 1], order[i + 2] = order[i + 2], order[i + 1]
    # Two teams that just met wait for another (unless nobody else is in the arena).
    ties: list[tuple[int, int | None]] = [
        (order[i], order[i + 1])
        for i in range(0, len(order) - 1, 2)
        if len(entries) == 2 or last_opponent.get(order[i]) != order[i + 1]
    ]
    if not ties:
        return None
    first = Round.objects.filter(tournament=tournament, number=1).first()
    ends_at = first.ends_at if first else now + timedelta(minutes=tournament.round_minutes)
    return _round_create(tournament, tournament.current_round + 1, ties, now, ends_at)


def duplicate_pair_numbers(entries: list[Entry]) -> dict[int, int]:
    """Duplicate: each entry's pair number in the movement (1 for the best-rated)."""
    ordered = sorted(entries, key=lambda e: (-e.rating, e.pk))
    return {e.pk: i for i, e in enumerate(ordered, start=1)}


def duplicate_movement(entries: list[Entry], rounds: int) -> duplicate.Movement:
    return duplicate.movement_for(len(entries), rounds=rounds)


def duplicate_rounds(tournament: Tournament, entries: int) -> int:
    """The rounds a duplicate plays: the tournament's, at most the movement's."""
    if entries < 2:
        return 1
    return len(duplicate.movement_for(entries).rounds[: tournament.rounds])


def duplicate_deal(tournament: Tournament, number: int) -> tuple[int, int]:
    """The seed and dealer of round `number`'s board, the same at every table: drawn from
    the site's secret, the tournament and the round (nobody can deal it beforehand)."""
    digest = hashlib.sha256(
        f"{settings.SECRET_KEY}:tournament:{tournament.pk}:board:{number}".encode()
    ).digest()
    return int.from_bytes(digest[:8], "big") >> 2, (number - 1) % 4


def _duplicate_ties(
    tournament: Tournament, entries: list[Entry], number: int
) -> list[tuple[int, int | None]]:
    numbers = duplicate_pair_numbers(entries)
    by_number = {n: pk for pk, n in numbers.items()}
    movement = duplicate_movement(entries, tournament.rounds)
    if number > len(movement.rounds):
        raise errors.RoundNotDue(round=number)
    seatings = sorted(movement.rounds[number - 1].seatings, key=lambda s: s.table)
    # A phantom pair (an odd Mitchell field) is no one: its opponents sit out.
    return [
        (by_number[s.ns], by_number[s.ew])
        for s in seatings
        if s.ns in by_number and s.ew in by_number
    ]


def round_ties(tournament: Tournament, number: int) -> list[tuple[int, int | None]]:
    """Round `number`'s ties as the format pairs them now (Swiss, knockout, duplicate)."""
    entries = live_entries(tournament)
    if tournament.format == Format.SWISS:
        return _swiss_ties(tournament, entries)
    if tournament.format == Format.KNOCKOUT:
        return _knockout_ties(tournament, entries, number)
    if tournament.format == Format.DUPLICATE:
        return _duplicate_ties(tournament, entries, number)
    raise errors.UnsupportedFormat(format=tournament.format)


def round_pair_locked(
    tournament: Tournament, number: int, now: datetime, *, starts_at: datetime
) -> Round:
    """Pair round `number` of the locked, running tournament ahead of its start (the
    previous round has just finished): its pairings and table numbers are written and
    each player is told their table; nothing is seated until `round_seat_locked` at
    `starts_at`. The unique (tournament, number) refuses a second pairing
    (RoundAlreadyStarted): a tick or worker that runs again never pairs twice."""
    if tournament.format == Format.ARENA:
        raise errors.RoundNotDue(round=number)  # an arena has no rounds to pair ahead
    if Round.objects.filter(tournament=tournament, number=number).exists():
        raise errors.RoundAlreadyStarted(round=number)
    previous = Round.objects.filter(tournament=tournament, number=number - 1).first()
    if number > 1 and (previous is None or previous.state != RoundState.FINISHED):
        raise errors.RoundNotDue(round=number)
    return _round_pair(
        tournament,
        number,
        round_ties(tournament, number),
        now,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=tournament.round_minutes),
    )


def round_start_locked(tournament: Tournament, number: int, now: datetime) -> Round:
    """Start round `number` of the locked, running tournament: seat the round paired
    ahead (`round_pair_locked`), or pair it now and seat it (round one, or a round
    nobody paired yet). A round already seated is refused (RoundAlreadyStarted): a
    beat or worker that runs again never starts a round twice."""
    paired = Round.objects.select_for_update().filter(tournament=tournament, number=number).first()
    if paired is not None:
        if paired.state != RoundState.PAIRED:
            raise errors.RoundAlreadyStarted(round=number)
        return round_seat_locked(tournament, paired, now)
    previous = Round.objects.filter(tournament=tournament, number=number - 1).first()
    if number > 1 and (previous is None or previous.state != RoundState.FINISHED):
        raise errors.RoundNotDue(round=number)
    if tournament.format == Format.ARENA:
        if number != 1:
            raise errors.RoundNotDue(round=number)
        started = arena_wave_start_locked(tournament, now)
        if started is None:
            raise errors.RoundNotDue(round=number)
        return started
    ends_at = now + timedelta(minutes=tournament.round_minutes)
    return _round_create(tournament, number, round_ties(tournament, number), now, ends_at)


def _round_create(
    tournament: Tournament,
    number: int,
    ties: list[tuple[int, int | None]],
    now: datetime,
    ends_at: datetime,
) -> Round:
    """Round `number` with these ties, paired and seated at once (round one, an arena's
    wave)."""
    round_ = _round_pair(tournament, number, ties, now, starts_at=now, ends_at=ends_at)
    return round_seat_locked(tournament, round_, now, ends_at=ends_at)


def _round_pair(
    tournament: Tournament,
    number: int,
    ties: list[tuple[int, int | None]],
    now: datetime,
    *,
    starts_at: datetime,
    ends_at: datetime,
) -> Round:
    """Round `number`'s row and its pairings (table numbers from 1), not seated; each
    player of a tie that will be played at a table is told their table (once: the
    notification's key names the tournament and the round). The round's unique number
    refuses a second one."""
    try:
        with transaction.atomic():
            round_ = Round.objects.create(
                tournament=tournament,
                number=number,
                state=RoundState.PAIRED,
                paired_at=now,
                ends_at=ends_at,
            )
    except IntegrityError:
        raise errors.RoundAlreadyStarted(round=number) from None
    pairings = Pairing.objects.bulk_create(
        [
            Pairing(
                round=round_,
                tournament=tournament,
                number=i,
                entry_a_id=a,
                entry_b_id=b,
                state=PairingState.PAIRED,
            )
            for i, (a, b) in enumerate(ties, start=1)
        ]
    )
    if tournament.format != Format.ARENA or number == 1:
        _tables_tell(tournament, round_, pairings, starts_at=starts_at)
    changed(tournament.pk, "round")
    return round_


def _tables_tell(
    tournament: Tournament, round_: Round, pairings: list[Pairing], *, starts_at: datetime
) -> None:
    """Each player of the round's ties learns their table number (a knockout bye, which
    passes without a table, is not told): one notification a player and round,
    in bulk, pushed after commit (notifications' `tournament_round`)."""
    from notifications import kinds
    from notifications.services import Outgoing, notifications_send_many

    entries = Entry.objects.in_bulk(
        sorted({pk for p in pairings for pk in (p.entry_a_id, p.entry_b_id) if pk})
    )
    link = reverse("tournaments:detail", args=[tournament.pk])
    outgoing = []
    for pairing in pairings:
        if pairing.entry_b_id is None and tournament.format == Format.KNOCKOUT:
            continue
        for entry_id in (pairing.entry_a_id, pairing.entry_b_id):
            if entry_id is None:
                continue
            for user_id in entries[entry_id].player_ids:
                outgoing.append(
                    Outgoing(
                        user_id=user_id,
                        kind=kinds.TOURNAMENT_ROUND,
                        params={
                            "tournament": tournament.name,
                            "round": round_.number,
                            "table": pairing.number,
                            "bye": pairing.entry_b_id is None,
                            "starts_at": starts_at.isoformat(),
                        },
                        link=link,
                        dedup_key=f"tournament-round:{tournament.pk}:{round_.number}",
                    )
                )
    notifications_send_many(outgoing)


def round_seat_locked(
    tournament: Tournament, round_: Round, now: datetime, *, ends_at: datetime | None = None
) -> Round:
    """Seat the paired round `round_` of the locked tournament: its row locked (the
    round's lock), refused unless still only paired (RoundAlreadyStarted: never seated
    twice); each tie at a new table (a knockout bye goes through at once), the round
    playing from `now`. Duplicate: every table plays the round's one board."""
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    if locked.state != RoundState.PAIRED:
        raise errors.RoundAlreadyStarted(round=locked.number)
    deal = (
        duplicate_deal(tournament, locked.number) if tournament.format == Format.DUPLICATE else None
    )
    entries = live_entries(tournament)
    pairings = list(Pairing.objects.select_for_update().filter(round=locked).order_by("number"))
    by_pk = {e.pk: e for e in entries}
    wanted = {pk for p in pairings for pk in (p.entry_a_id, p.entry_b_id) if pk}
    if wanted - set(by_pk):
        # An entry that left after the pairing (not possible through the services once
        # the tournament runs; staff's admin) still has its rows: its seats are bots'.
        by_pk.update(Entry.objects.in_bulk(sorted(wanted - set(by_pk))))
    users = User.objects.in_bulk(sorted({pk for e in by_pk.values() for pk in e.player_ids}))
    locked.state = RoundState.PLAYING
    locked.started_at = now
    locked.ends_at = ends_at or now + timedelta(minutes=tournament.round_minutes)
    locked.save(update_fields=["state", "started_at", "ends_at"])
    played = []
    for pairing in pairings:
        if pairing.entry_b_id is None and tournament.format == Format.KNOCKOUT:
            # A knockout bye: the higher seed goes through without playing.
            pairing.state = PairingState.FINISHED
            pairing.winner_id = pairing.entry_a_id
            pairing.finished_at = now
            pairing.save(update_fields=["state", "winner", "finished_at"])
        else:
            pairing.state = PairingState.PLAYING
            played.append(pairing)
    Pairing.objects.filter(pk__in=[p.pk for p in played]).update(state=PairingState.PLAYING)
    for pairing in played:
        game_start(tournament, pairing, 1, by_pk, users, deal=deal)
    tournament.current_round = locked.number
    tournament.save(update_fields=["current_round"])
    changed(tournament.pk, "round")
    return locked


def game_start(
    tournament: Tournament,
    pairing: Pairing,
    number: int,
    entries: dict[int, Entry],
    users: dict[int, User],
    *,
    deal: tuple[int, int] | None = None,
) -> Game:
    """Seat game `number` of `pairing` at a new table and deal: team A at seats 0 and 2,
    team B at 1 and 3 (bots for a Swiss bye's opponents). A player already at another
    live table cannot be seated: a bot plays their seat (a no-show for this game)."""
    entry_a = entries[pairing.entry_a_id]
    entry_b = entries.get(pairing.entry_b_id) if pairing.entry_b_id else None
    table = Table.objects.create(
        mode=Mode.TOURNAMENT,
        rules=tournament.rules,
        bot_level=tournament.bot_level,
        owner=users[entry_a.player_a_id],
        status=TableStatus.OPEN,
    )
    at: dict[int, int | None] = {}
    for team, seats in zip((entry_a, entry_b), TEAM_SEATS, strict=True):
        players = [] if team is None else team.player_ids
        for position, index in zip(seats, (0, 1), strict=True):
            at[position] = players[index] if index < len(players) else None
    bots = []
    for position in range(4):
        user_id = at[position]
        if user_id is None:
            bots.append(position)
            continue
        try:
            games.seat_take(seat=Seat(table=table, position=position), user=users[user_id])
        except game_errors.AlreadyAtTable:
            bots.append(position)
    Seat.objects.bulk_create([Seat(table=table, position=p, kind=SeatKind.BOT) for p in bots])
    game = Game.objects.create(pairing=pairing, number=number, table=table)
    table = games.table_lock(table_id=table.pk)
    if deal is None:
        match = games.table_start(table=table, seats=games.seats_lock(table=table), fresh=True)
    else:
        seed, dealer = deal
        match = games.table_start(
            table=table,
            seats=games.seats_lock(table=table),
            seed=seed,
            first_dealer=dealer,
            last_hand=1,
            fresh=True,
        )
    game.match = match
    game.save(update_fields=["match"])
    for user_id in at.values():
        if user_id is not None:
            games.user_notify(user_id=user_id, what="tournament")
    return game


def next_games_start_locked(tournament: Tournament, now: datetime) -> int:
    """Knockout: seat the next game of every tie of the current round whose last game is
    over and which is still open (best of three; or a game stopped by staff, which
    decided nothing). Returns how many started."""
    if tournament.format != Format.KNOCKOUT:
        return 0
    open_ties = list(
        Pairing.objects.select_for_update()
        .filter(
            tournament=tournament,
            round__number=tournament.current_round,
            state=PairingState.PLAYING,
        )
        .order_by("pk")
    )
    started = 0
    for pairing in open_ties:
        games_of = list(Game.objects.filter(pairing=pairing).order_by("number"))
        if games_of and games_of[-1].recorded_at is None:
            continue  # its game is being played
        entries = Entry.objects.in_bulk([pairing.entry_a_id, pairing.entry_b_id])
        users = User.objects.in_bulk(sorted({pk for e in entries.values() for pk in e.player_ids}))
        game_start(tournament, pairing, len(games_of) + 1, entries, users)
        started += 1
    return started


def no_shows_declare_locked(tournament: Tournament, now: datetime) -> int:
    """Flag the teams of the ties in play whose two players have not shown: both
    seats played by bots (absent since the start, games' sweep, or not seated at all)
    within NO_SHOW window after the game started. The format scores them
    (docs/tournaments.md). Returns how many teams were flagged now."""
    grace = timedelta(seconds=settings.ABSENCE_CONNECT_GRACE_SECONDS)
    window = timedelta(seconds=settings.TOURNAMENT_NO_SHOW_SECONDS)
    games_in_play = (
        Game.objects.filter(
            pairing__tournament=tournament,
            pairing__state=PairingState.PLAYING,
            recorded_at__isnull=True,
            match__isnull=False,
            match__started_at__lte=now - grace,
            match__started_at__gte=now - window,
        )
        .select_related("pairing")
        .order_by("pairing_id")
    )
    flagged = 0
    for game in games_in_play:
        pairing = game.pairing
        seats = {
            s.position: s
            for s in Seat.objects.filter(table_id=game.table_id).only(
                "position", "kind", "connections", "absent_since", "user_id"
            )
        }
        updates = []
        for team, (field, positions) in enumerate(
            (("no_show_a", TEAM_SEATS[0]), ("no_show_b", TEAM_SEATS[1]))
        ):
            if team == 1 and pairing.entry_b_id is None:
                continue
            if getattr(pairing, field):
                continue
            away = all(
                seats[p].kind == SeatKind.BOT
                or (seats[p].connections == 0 and seats[p].absent_since is not None)
                for p in positions
            )
            if away:
                setattr(pairing, field, True)
                updates.append(field)
        if updates:
            Pairing.objects.filter(pk=pairing.pk).update(**{f: True for f in updates})
            flagged += len(updates)
    return flagged


def duplicate_round_score(round_: Round) -> None:
    """Duplicate: once every table of the round has played its board, each pair's
    matchpoints on it, compared with every pair that held the same cards in the same
    direction (`formats.duplicate.score_board` on the points won minus lost), stored as
    the pairing's victory points; a team that did not show scores 0 on the board."""
    pairings = list(Pairing.objects.select_for_update().filter(round=round_).order_by("pk"))
    results = []
    for p in pairings:
        if p.entry_b_id is None:
            continue
        results.append(duplicate.BoardResult(p.entry_a_id, "NS", p.points_a - p.points_b))
        results.append(duplicate.BoardResult(p.entry_b_id, "EW", p.points_b - p.points_a))
    matchpoints = duplicate.score_board(results)
    for p in pairings:
        p.vp_a = 0 if p.no_show_a else matchpoints.get(p.entry_a_id, 0)
        p.vp_b = 0 if p.no_show_b or p.entry_b_id is None else matchpoints.get(p.entry_b_id, 0)
    Pairing.objects.bulk_update(pairings, ["vp_a", "vp_b"])


def duplicate_percentages(tournament: Tournament) -> dict[int, list[float]]:
    """Duplicate: each entry's share of the top on each board it played (percent), from
    the stored matchpoints: the top of a board is 2 × (pairs in that direction − 1)."""
    shares: dict[int, list[float]] = {}
    rows = Pairing.objects.filter(
        tournament=tournament, state=PairingState.FINISHED, entry_b__isnull=False
    ).values_list("round_id", "entry_a_id", "entry_b_id", "vp_a", "vp_b")
    by_round: dict[int, list[tuple[int, int, int, int]]] = {}
    for round_id, a, b, vp_a, vp_b in rows:
        by_round.setdefault(round_id, []).append((a, b, vp_a, vp_b))
    for tables in by_round.values():
        top = 2 * (len(tables) - 1)
        for a, b, vp_a, vp_b in tables:
            shares.setdefault(a, []).append(100 * vp_a / top if top else 50.0)
            shares.setdefault(b, []).append(100 * vp_b / top if top else 50.0)
    return shares
