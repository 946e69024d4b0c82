"""A tournament's life without a person: the beat's tick opens and closes
registration, cancels below the minimum or starts, flags no-shows, seats the next
game of a tie, finishes rounds and starts the next after the pause, finishes the
tournament (standings, prizes) and creates the next instance of every recurring
tournament. Every step is idempotent and holds the tournament's row lock
(docs/tournaments.md, "Idempotency")."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.db.models import Max

from accounts.models import User
from economy.models import TransactionKind
from economy.services import Prize, prizes_grant, tournament_prizes_pay
from games.signals import results_recorded
from tournaments import errors
from tournaments.formats import arena, knockout, swiss
from tournaments.formats.prizes import prize_split
from tournaments.models import (
    LIVE_STATES,
    Entry,
    Format,
    Pairing,
    PairingState,
    Round,
    RoundState,
    Tournament,
    TournamentSchedule,
    TournamentState,
)
from tournaments.services.common import changed, live_entries, now_or, tournament_lock
from tournaments.services.registration import (
    cancel_locked,
    closing_notice_locked,
    registration_close_locked,
    registration_open_locked,
)
from tournaments.services.rounds import (
    arena_results,
    arena_wave_start_locked,
    duplicate_percentages,
    duplicate_round_score,
    duplicate_rounds,
    next_games_start_locked,
    no_shows_declare_locked,
    round_pair_locked,
    round_start_locked,
    swiss_results,
)


@dataclass
class Advanced:
    """What one tick did to one tournament (empty: nothing was due)."""

    steps: list[str] = field(default_factory=list)


def tournament_create(*, now: datetime | None = None, **fields: object) -> Tournament:
    """A one-off tournament (staff, from the admin or a schedule). BadSchedule when its
    times are out of order or the minimum exceeds the maximum."""
    tournament = Tournament(**fields)
    if (
        not (
            tournament.registration_opens_at
            <= tournament.registration_closes_at
            <= tournament.starts_at
        )
        or tournament.min_entries > tournament.max_entries
    ):
        raise errors.BadSchedule()
    tournament.save()
    return tournament


def _last_round(tournament: Tournament, entries: int) -> int:
    if tournament.format == Format.KNOCKOUT:
        first = Pairing.objects.filter(tournament=tournament, round__number=1).count()
        return knockout.rounds_needed(max(2, first * 2))
    if tournament.format == Format.DUPLICATE:
        return duplicate_rounds(tournament, entries)
    return min(tournament.rounds, max(1, entries - 1 if entries % 2 == 0 else entries))


def tournament_advance(*, tournament_id: int, now: datetime | None = None) -> Advanced:
    """Do whatever is due for one tournament, in one transaction with its row locked
    (skipped when another worker holds it: that one is doing it)."""
    now = now_or(now)
    done = Advanced()
    with transaction.atomic():
        tournament = tournament_lock(tournament_id, skip_locked=True)
        if tournament is None or tournament.state not in LIVE_STATES:
            return done
        if registration_open_locked(tournament, now):
            done.steps.append("registration_opened")
        if closing_notice_locked(tournament, now):
            done.steps.append("closing_notice")
        if registration_close_locked(tournament, now):
            done.steps.append("registration_closed")
        if tournament.state == TournamentState.REGISTRATION_CLOSED and now >= tournament.starts_at:
            if len(live_entries(tournament)) < tournament.min_entries:
                cancel_locked(tournament, now, reason="too_few_entries")
                done.steps.append("cancelled")
                return done
            tournament.state = TournamentState.RUNNING
            tournament.started_at = now
            tournament.save(update_fields=["state", "started_at"])
            round_start_locked(tournament, 1, now)
            done.steps.append("round_1_started")
            return done
        if tournament.state != TournamentState.RUNNING:
            return done
        if no_shows_declare_locked(tournament, now):
            done.steps.append("no_shows")
        if next_games_start_locked(tournament, now):
            done.steps.append("next_games")
        if tournament.format == Format.ARENA:
            _arena_advance(tournament, now, done)
            return done
        current = (
            Round.objects.select_for_update()
            .filter(tournament=tournament, number=tournament.current_round)
            .first()
        )
        if current is None:
            return done
        if current.state == RoundState.PLAYING:
            open_ties = Pairing.objects.filter(round=current).exclude(state=PairingState.FINISHED)
            if open_ties.exists():
                return done
            if tournament.format == Format.DUPLICATE:
                duplicate_round_score(current)
            current.state = RoundState.FINISHED
            current.finished_at = now
            current.next_starts_at = now + timedelta(minutes=tournament.pause_minutes)
            current.save(update_fields=["state", "finished_at", "next_starts_at"])
            done.steps.append(f"round_{current.number}_finished")
            changed(tournament.pk, "round")
        entries = len(live_entries(tournament))
        if current.number >= _last_round(tournament, entries) or (
            tournament.format == Format.KNOCKOUT
            and Pairing.objects.filter(round=current).count() == 1
        ):
            tournament_finish_locked(tournament, now)
            done.steps.append("finished")
            return done
        number = current.number + 1
        if not Round.objects.filter(tournament=tournament, number=number).exists():
            # Paired as soon as the previous round is over, so the players' notice
            # names their table during the pause (docs/tournaments.md, "Rounds").
            round_pair_locked(tournament, number, now, starts_at=current.next_starts_at or now)
            done.steps.append(f"round_{number}_paired")
        if current.next_starts_at is not None and now >= current.next_starts_at:
            round_start_locked(tournament, number, now)
            done.steps.append(f"round_{number}_started")
    return done


def _arena_advance(tournament: Tournament, now: datetime, done: Advanced) -> None:
    """Arena: every wave whose ties are all over is finished; until the arena's end the
    teams waiting are paired again at once; after it, once every tie is over, the
    tournament finishes."""
    open_rounds = Round.objects.select_for_update().filter(
        tournament=tournament, state=RoundState.PLAYING
    )
    for wave in open_rounds.order_by("pk"):
        if not Pairing.objects.filter(round=wave, state=PairingState.PLAYING).exists():
            wave.state = RoundState.FINISHED
            wave.finished_at = now
            wave.save(update_fields=["state", "finished_at"])
    first = Round.objects.filter(tournament=tournament, number=1).first()
    if first is not None and now < first.ends_at:
        started = arena_wave_start_locked(tournament, now)
        if started is not None:
            done.steps.append(f"round_{started.number}_started")
        return
    if not Pairing.objects.filter(tournament=tournament, state=PairingState.PLAYING).exists():
        tournament_finish_locked(tournament, now)
        done.steps.append("finished")


def standings_ranks(tournament: Tournament) -> dict[int, int]:
    """The final rank of every entry still in (entry id → rank; ties share a rank)."""
    entries = live_entries(tournament)
    if tournament.format == Format.DUPLICATE:
        shares = duplicate_percentages(tournament)
        average = {
            e.pk: round(sum(shares.get(e.pk, [])) / max(1, len(shares.get(e.pk, []))), 6)
            for e in entries
        }
        return {
            e.pk: 1 + sum(1 for other in entries if average[other.pk] > average[e.pk])
            for e in entries
        }
    if tournament.format == Format.ARENA:
        results = arena_results(tournament)
        return {
            s.id: s.rank
            for s in arena.arena_standings([(e.pk, results.get(e.pk, [])) for e in entries])
        }
    if tournament.format == Format.KNOCKOUT:
        last = Round.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"] or 0
        final = Pairing.objects.filter(tournament=tournament, round__number=last).first()
        champion = final.winner_id if final is not None else None

        def out(e: Entry) -> int:
            if e.pk == champion or e.eliminated_in is None:
                return last + 1
            return e.eliminated_in

        ranks = {}
        for entry in entries:
            later = sum(1 for other in entries if out(other) > out(entry))
            ranks[entry.pk] = later + 1
        return ranks
    standings = swiss.swiss_standings(
        [(e.pk, e.rating) for e in entries], swiss_results(tournament)
    )
    return {s.id: s.rank for s in standings}


def _halves(amount: int) -> tuple[int, int]:
    """A team's prize between its two players (an odd coin to the first)."""
    return amount - amount // 2, amount // 2


def tournament_finish_locked(tournament: Tournament, now: datetime) -> None:
    """Final standings, prizes paid by rank: a paid tournament's whole escrow through
    the ledger (one transaction, keyed by the tournament: never paid twice); a free
    one's XP pool as grants (one per player, keyed). Each team's prize is split
    between its two players."""
    entries = {e.pk: e for e in live_entries(tournament)}
    ranks = standings_ranks(tournament)
    rank_list = sorted(ranks.items())
    users = User.objects.in_bulk(sorted({pk for e in entries.values() for pk in e.player_ids}))
    coins: dict[int, int] = {}
    xp: dict[int, int] = {}
    shares = [int(s) for s in tournament.prize_shares or [1]]
    if tournament.entry_fee:
        pool = tournament.entry_fee * sum(len(e.player_ids) for e in entries.values())
        coins = prize_split(pool, shares, rank_list) if rank_list else {}
        prizes: list[tuple[User, int]] = []
        for entry_id, amount in sorted(coins.items()):
            entry = entries[entry_id]
            for user_id, half in zip(entry.player_ids, _halves(amount), strict=False):
                prizes.append((users[user_id], half))
        tournament_prizes_pay(
            tournament_id=tournament.pk,
            prizes=prizes,
            idempotency_key=f"tournament-prizes:{tournament.pk}",
            now=now,
        )
    elif tournament.xp_pool and rank_list:
        xp = prize_split(tournament.xp_pool, shares, rank_list)
        prizes_grant(
            prizes=[
                Prize(
                    user_id=user_id,
                    idempotency_key=f"tournament-xp:{tournament.pk}:{user_id}",
                    xp=half,
                    xp_at=now,
                    memo=f"prize of tournament {tournament.pk}",
                )
                for entry_id, amount in sorted(xp.items())
                for user_id, half in zip(
                    entries[entry_id].player_ids, _halves(amount), strict=False
                )
            ],
            kind=TransactionKind.GRANT,
            now=now,
        )
    for entry_id, entry in entries.items():
        entry.rank = ranks.get(entry_id)
        entry.prize_coins = coins.get(entry_id, 0)
        entry.prize_xp = xp.get(entry_id, 0)
    Entry.objects.bulk_update(list(entries.values()), ["rank", "prize_coins", "prize_xp"])
    tournament.state = TournamentState.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["state", "finished_at"])
    changed(tournament.pk, "state")
    results_recorded.send(sender=Tournament, event="tournament", ref_id=tournament.pk)


def next_start(schedule: TournamentSchedule, now: datetime) -> datetime:
    """The schedule's next start after `now`: its weekday and local time in its zone."""
    zone = ZoneInfo(schedule.timezone)
    local = now.astimezone(zone)
    day: date = local.date() + timedelta(days=(schedule.weekday - local.weekday()) % 7)
    start = datetime.combine(day, schedule.local_time, tzinfo=zone)
    if start <= now:
        start = datetime.combine(day + timedelta(days=7), schedule.local_time, tzinfo=zone)
    return start


def schedules_create_next(*, now: datetime | None = None) -> list[Tournament]:
    """For every active recurring tournament, its next instance if it is not there yet
    (the unique (schedule, starts_at) makes a second beat's attempt a no-op)."""
    now = now_or(now)
    made = []
    for schedule in TournamentSchedule.objects.filter(active=True).order_by("pk"):
        starts_at = next_start(schedule, now)
        if Tournament.objects.filter(schedule=schedule, starts_at=starts_at).exists():
            continue
        template = {
            name: getattr(schedule, name)
            for name in (
                "name",
                "format",
                "rules",
                "bot_level",
                "rounds",
                "best_of",
                "round_minutes",
                "pause_minutes",
                "entry_fee",
                "xp_pool",
                "min_entries",
                "max_entries",
                "prize_shares",
                "club_id",
            )
        }
        closes_at = starts_at - timedelta(minutes=schedule.registration_close_minutes)
        opens_at = min(closes_at, starts_at - timedelta(hours=schedule.registration_open_hours))
        try:
            with transaction.atomic():
                made.append(
                    tournament_create(
                        schedule=schedule,
                        starts_at=starts_at,
                        registration_opens_at=opens_at,
                        registration_closes_at=closes_at,
                        **template,
                    )
                )
        except IntegrityError:
            continue  # another beat made it at the same moment
    return made


def tournaments_tick(*, now: datetime | None = None) -> dict[int, list[str]]:
    """The beat's one periodic task: the next instance of every recurring tournament,
    then whatever is due for every tournament that has not ended, each in its own
    transaction (TOURNAMENT_TICK_SECONDS). What each tournament did, by id."""
    now = now_or(now)
    schedules_create_next(now=now)
    done: dict[int, list[str]] = {}
    live = Tournament.objects.filter(
        state__in=LIVE_STATES, registration_opens_at__lte=now
    ).values_list("pk", flat=True)
    for tournament_id in list(live.order_by("pk")):
        steps = tournament_advance(tournament_id=tournament_id, now=now).steps
        if steps:
            done[tournament_id] = steps
    return done
