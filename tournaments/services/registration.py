"""Entering a tournament and leaving it: registration (a fixed pair or a single), the
entry fees into the tournament's escrow, withdrawal with its refund, pairing the
singles at the close, and cancelling with every fee refunded (docs/tournaments.md)."""

from __future__ import annotations

import contextlib
import math
from datetime import datetime, timedelta
from statistics import fmean

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import User
from clubs.selectors import club_by_id, member_ids_among
from economy.errors import EscrowSettled, InsufficientFunds, NothingToRefund
from economy.services import accounts_lock, tournament_fee_hold, tournament_fee_refund
from ratings.selectors import ratings_of
from social.selectors import are_friends, blocked_between
from tournaments import errors
from tournaments.formats.partnerships import partnerships_from_singles
from tournaments.models import (
    LIVE_STATES,
    Entry,
    EntryPlayer,
    EntryState,
    Tournament,
    TournamentState,
)
from tournaments.services.common import changed, live_entries, now_or, tournament_locked


def _places_taken(tournament: Tournament) -> float:
    """Entries as the tournament counts them before the close: a pair is one, a
    single half of one."""
    rows = Entry.objects.filter(tournament=tournament, state=EntryState.REGISTERED)
    pairs = rows.filter(player_b__isnull=False).count()
    singles = rows.filter(player_b__isnull=True).count()
    return pairs + singles / 2


def tournament_register(
    *,
    tournament_id: int,
    user: User,
    partner: User | None = None,
    now: datetime | None = None,
) -> Entry:
    """Enter `user` in the tournament, with `partner` (a fixed pair) or alone (a single,
    paired by rating at the close). A paid tournament takes the entry fee of each
    player from the one registering (a fixed pair: twice the fee) into the
    tournament's escrow. One transaction: refused, nothing is written.

    Refusals: TournamentNotFound; RegistrationClosed (not open, or past the close);
    AlreadyRegistered; PartnerIsYou; PartnerUnknown (an inactive account);
    PartnerNotAllowed (either blocked the other); PartnerNotFriend (a partner is
    entered without being asked, so only a friend may be named); PartnerAlreadyRegistered;
    TournamentFull; ShortOfCoins; a club's tournament: NotClubMember,
    PartnerNotClubMember (both players must be members of the club).
    """
    now = now_or(now)
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        if (
            tournament.state != TournamentState.REGISTRATION_OPEN
            or now >= tournament.registration_closes_at
            or now < tournament.registration_opens_at
        ):
            raise errors.RegistrationClosed()
        if tournament.club_id is not None:
            _club_members_only(tournament.club_id, user, partner)
        players = [user]
        if partner is not None:
            if partner.pk == user.pk:
                raise errors.PartnerIsYou()
            if not partner.is_active:
                raise errors.PartnerUnknown()
            if blocked_between(user.pk, partner.pk):
                raise errors.PartnerNotAllowed()
            if not are_friends(user.pk, partner.pk):
                raise errors.PartnerNotFriend()
            players.append(partner)
        taken = set(
            EntryPlayer.objects.filter(
                tournament=tournament, user_id__in=[p.pk for p in players]
            ).values_list("user_id", flat=True)
        )
        if user.pk in taken:
            raise errors.AlreadyRegistered()
        if partner is not None and partner.pk in taken:
            raise errors.PartnerAlreadyRegistered()
        if _places_taken(tournament) + (1 if partner else 0.5) > tournament.max_entries:
            raise errors.TournamentFull()
        entry = Entry.objects.create(
            tournament=tournament,
            player_a=user,
            player_b=partner,
            single=partner is None,
            fee=tournament.entry_fee,
            registered_at=now,
        )
        try:
            with transaction.atomic():
                EntryPlayer.objects.bulk_create(
                    [EntryPlayer(tournament=tournament, entry=entry, user=p) for p in players]
                )
        except IntegrityError:  # the tournament's lock makes this a belt and braces
            raise errors.AlreadyRegistered() from None
        if tournament.entry_fee:
            accounts_lock(users=[user])
            try:
                tournament_fee_hold(
                    user=user,
                    tournament_id=tournament.pk,
                    amount=tournament.entry_fee * len(players),
                    idempotency_key=f"tournament-fee:{tournament.pk}:{entry.pk}",
                )
            except InsufficientFunds:
                raise errors.ShortOfCoins() from None
            except EscrowSettled:
                raise errors.RegistrationClosed() from None
        changed(tournament.pk, "entries")
    return entry


def _club_members_only(club_id: int, user: User, partner: User | None) -> None:
    """A club's tournament: both players must be members of its (open) club."""
    club = club_by_id(club_id)
    if club is None or not club.is_open:
        raise errors.NotClubMember()
    members = member_ids_among(club_id, [p.pk for p in (user, partner) if p is not None])
    if user.pk not in members:
        raise errors.NotClubMember()
    if partner is not None and partner.pk not in members:
        raise errors.PartnerNotClubMember()


def _entry_refund(tournament: Tournament, entry: Entry, payers: list[int], now: datetime) -> None:
    """Give back what `payers` paid into the escrow for `entry` (each refund keyed by the
    entry, so a player who enters again and withdraws again is refunded again)."""
    if not tournament.entry_fee:
        return
    users = User.objects.in_bulk(payers)
    for user_id in sorted(payers):
        with contextlib.suppress(NothingToRefund):
            tournament_fee_refund(
                tournament_id=tournament.pk,
                user=users[user_id],
                idempotency_key=f"tournament-refund:{tournament.pk}:{entry.pk}:{user_id}",
                now=now,
            )


def _payers(entry: Entry) -> list[int]:
    """Who paid for `entry`: its registering player, and for a pair made of two
    singles the second single too."""
    payers = [entry.player_a_id]
    merged = Entry.objects.filter(
        tournament_id=entry.tournament_id, state=EntryState.MERGED, player_a_id=entry.player_b_id
    )
    if entry.player_b_id is not None and merged.exists():
        payers.append(entry.player_b_id)
    return payers


def tournament_withdraw(*, tournament_id: int, user: User, now: datetime | None = None) -> Entry:
    """Withdraw `user`'s entry (their whole pair) before the tournament starts: the fees
    go back to whoever paid them, both players may enter again. Refusals:
    TournamentNotFound, NotRegistered, WithdrawAfterStart (running, finished or
    cancelled)."""
    now = now_or(now)
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        place = EntryPlayer.objects.filter(tournament=tournament, user=user).first()
        if tournament.state not in (
            TournamentState.SCHEDULED,
            TournamentState.REGISTRATION_OPEN,
            TournamentState.REGISTRATION_CLOSED,
        ):
            raise errors.WithdrawAfterStart()
        if place is None:
            raise errors.NotRegistered()
        entry = Entry.objects.select_for_update().get(pk=place.entry_id)
        payers = _payers(entry)
        EntryPlayer.objects.filter(entry=entry).delete()
        entry.state = EntryState.WITHDRAWN
        entry.save(update_fields=["state"])
        _entry_refund(tournament, entry, payers, now)
        changed(tournament.pk, "entries")
    return entry


def registration_open_locked(tournament: Tournament, now: datetime) -> bool:
    """Scheduled → registration open, once its time came (the tournament locked)."""
    if tournament.state != TournamentState.SCHEDULED or now < tournament.registration_opens_at:
        return False
    tournament.state = TournamentState.REGISTRATION_OPEN
    tournament.save(update_fields=["state"])
    changed(tournament.pk, "state")
    return True


def closing_notice_locked(tournament: Tournament, now: datetime) -> int:
    """Registration open and closing within TOURNAMENT_CLOSING_NOTICE_MINUTES: every
    registered player (both of a pair, and each single) is told once that it closes
    soon (a reminder that the tournament is near and that they may still withdraw).
    Marked on the tournament (`closing_noticed_at`), so a later tick sends nothing; the
    notification's key (the tournament) holds it to once a player even if the mark
    were bypassed. Returns how many players were told."""
    lead = timedelta(minutes=settings.TOURNAMENT_CLOSING_NOTICE_MINUTES)
    if (
        tournament.state != TournamentState.REGISTRATION_OPEN
        or tournament.closing_noticed_at is not None
        or not (tournament.registration_closes_at - lead <= now < tournament.registration_closes_at)
    ):
        return 0
    from notifications import kinds
    from notifications.services import Outgoing, notifications_send_many

    tournament.closing_noticed_at = now
    tournament.save(update_fields=["closing_noticed_at"])
    minutes = math.ceil((tournament.registration_closes_at - now).total_seconds() / 60)
    link = reverse("tournaments:detail", args=[tournament.pk])
    users = sorted(
        EntryPlayer.objects.filter(tournament=tournament).values_list("user_id", flat=True)
    )
    return notifications_send_many(
        Outgoing(
            user_id=user_id,
            kind=kinds.TOURNAMENT_CLOSING,
            params={"tournament": tournament.name, "minutes": minutes},
            link=link,
            dedup_key=f"tournament-closing:{tournament.pk}",
        )
        for user_id in users
    )


def registration_close_locked(tournament: Tournament, now: datetime) -> bool:
    """Registration open → closed at its time: singles are paired into partnerships by
    rating (`formats.partnerships`), one left over is refunded, each pair's rating
    stored; below the minimum the tournament is cancelled, every fee refunded."""
    if (
        tournament.state != TournamentState.REGISTRATION_OPEN
        or now < tournament.registration_closes_at
    ):
        return False
    entries = live_entries(tournament)
    singles = {e.player_a_id: e for e in entries if e.player_b_id is None}
    single_ratings = ratings_of(sorted(singles))
    pairs, left_over = partnerships_from_singles(
        [(user_id, float(single_ratings[user_id])) for user_id in sorted(singles)]
    )
    for first, second in pairs:
        kept, merged = singles[first], singles[second]
        kept.player_b_id = second
        kept.save(update_fields=["player_b"])
        merged.state = EntryState.MERGED
        merged.save(update_fields=["state"])
        EntryPlayer.objects.filter(entry=merged).update(entry=kept)
    for user_id in left_over:
        entry = singles[user_id]
        EntryPlayer.objects.filter(entry=entry).delete()
        entry.state = EntryState.UNPAIRED
        entry.save(update_fields=["state"])
        _entry_refund(tournament, entry, [user_id], now)
    teams = live_entries(tournament)
    ratings = ratings_of(sorted({pk for e in teams for pk in e.player_ids}))
    for entry in teams:
        entry.rating = fmean(ratings[pk] for pk in entry.player_ids)
    Entry.objects.bulk_update(teams, ["rating"])
    tournament.state = TournamentState.REGISTRATION_CLOSED
    tournament.save(update_fields=["state"])
    changed(tournament.pk, "state")
    if len(teams) < tournament.min_entries:
        cancel_locked(tournament, now, reason="too_few_entries")
    return True


def cancel_locked(tournament: Tournament, now: datetime, *, reason: str) -> None:
    """Cancel the locked tournament: every fee still in its escrow goes back to whoever
    paid it and the escrow is settled (once: the ledger's key); its games in play, if
    any, finish as rated matches that count for nothing here."""
    if tournament.state not in LIVE_STATES:
        raise errors.TournamentNotCancellable()
    tournament.state = TournamentState.CANCELLED
    tournament.cancelled_at = now
    tournament.cancel_reason = reason
    tournament.save(update_fields=["state", "cancelled_at", "cancel_reason"])
    Entry.objects.filter(tournament=tournament, state=EntryState.REGISTERED).update(
        state=EntryState.REFUNDED
    )
    if tournament.entry_fee:
        tournament_fee_refund(tournament_id=tournament.pk, now=now)
    changed(tournament.pk, "state")


def tournament_cancel(
    *, tournament_id: int, reason: str = "staff", now: datetime | None = None
) -> Tournament:
    """Cancel a tournament that has not ended (staff, from the admin), every fee
    refunded. TournamentNotCancellable when it already finished or was cancelled."""
    now = now_or(now)
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        cancel_locked(tournament, now, reason=reason)
    return tournament
