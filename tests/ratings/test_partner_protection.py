"""The partner left with a bot is not rated down for that match, unless the two are
linked accounts or the same pair abandons repeatedly (PLATFORM.md, "Ratings"; issue
40, hole 3: "a rating that only goes up"). Decided in the rating service
(ratings.services.match_rate), at the settlement."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games import services as games
from online.services import seating
from ratings.models import Rating, RatingChange
from ratings.skill import NEW
from tests.ratings.conftest import finish, stake_table, user_at

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _seats_in_sitting_order(monkeypatch):
    """A stake table's players take seats 0, 1, 2, 3 in the order they sit (the service
    draws a free seat at random): the first and third sit together, as two people who
    chose their seats would."""
    monkeypatch.setattr(seating.rng, "choice", lambda free: free[0])


@pytest.fixture(autouse=True)
def _no_wait_after_abandoning(settings):
    """The same players abandon match after match here: the wait that abandoning
    rated matches costs (docs/fairplay.md; tests/online/test_quitting.py) would keep
    them from sitting again, so it is a warning only in these tests of the ratings."""
    settings.QUIT_WAIT_MINUTES = [0]


def link(a, b):
    """`a` and `b` signed in on the same device (an account and its alt)."""
    from accounts.services import sign_in_record

    for user in (a, b):
        sign_in_record(user_id=user.pk, address=None, device_id="S" * 32)


def match_where(cast, clock, *, abandoner=None, winner=0):
    """A stake match of `cast` (seats in that order: 0 and 2 against 1 and 3), the
    player `abandoner` leaving it, won by pair `winner`. Returns the match."""
    table = stake_table(cast, clock)
    assert [user_at(table, p) for p in range(4)] == list(cast)
    if abandoner is not None:
        games.seat_leave(user=abandoner, table_id=table.pk)
    match = finish(table, winner=winner)
    clock.advance(60)
    return match


def change(match, user):
    return RatingChange.objects.get(match=match, user=user).change


def test_an_unlinked_partner_left_with_a_bot_is_not_rated_down_once(players, clock):
    cast = players(4)
    match = match_where(cast, clock, abandoner=cast[3])
    kept = RatingChange.objects.get(match=match, user=cast[1])
    assert kept.change == 0 and (kept.mu_after, kept.sigma_after) == (NEW.mu, NEW.sigma)


def test_a_linked_partner_left_with_a_bot_is_rated_down(players, clock):
    """A sits with their alt; the alt leaves as the pair is losing: A loses rating."""
    cast = players(4)
    link(cast[1], cast[3])
    match = match_where(cast, clock, abandoner=cast[3])
    assert change(match, cast[1]) < 0
    assert Rating.objects.get(user=cast[1]).value < 1500
    assert change(match, cast[3]) < 0  # the abandoner, as always


def test_linked_opponents_do_not_take_the_protection_from_an_unlinked_partner(players, clock):
    cast = players(4)
    link(cast[1], cast[0])  # linked to an opponent, not to the partner who left
    match = match_where(cast, clock, abandoner=cast[3])
    assert change(match, cast[1]) == 0


def test_the_second_abandonment_within_a_pair_ends_the_protection(players, clock):
    cast = players(4)
    first = match_where(cast, clock, abandoner=cast[3])
    assert change(first, cast[1]) == 0
    second = match_where(cast, clock, abandoner=cast[3])
    assert change(second, cast[1]) < 0


def test_an_abandonment_by_either_of_the_pair_counts(players, clock):
    cast = players(4)
    match_where(cast, clock, abandoner=cast[1], winner=0)  # the player left first
    second = match_where(cast, clock, abandoner=cast[3], winner=0)  # then the partner
    assert change(second, cast[1]) < 0


def test_abandonments_as_opponents_or_with_other_partners_do_not_count(players, clock):
    ana, bea, carla, dora, eva = players(5)
    match_where([bea, eva, carla, dora], clock, abandoner=eva)  # eva against bea
    match_where([bea, ana, dora, carla], clock, abandoner=bea, winner=1)  # bea with dora
    together = match_where([ana, bea, carla, eva], clock, abandoner=eva)  # bea with eva
    assert change(together, bea) == 0  # the first abandonment between them


def test_the_pairs_window_is_a_setting(players, clock, settings):
    settings.RATING_PAIR_ABANDON_MATCHES = 2
    cast = players(4)
    match_where(cast, clock, abandoner=cast[3])
    match_where(cast, clock)  # a clean match together: the first abandonment drops out
    third = match_where(cast, clock, abandoner=cast[3])
    assert change(third, cast[1]) == 0
    fourth = match_where(cast, clock, abandoner=cast[3])
    assert change(fourth, cast[1]) < 0


def test_the_abandonments_that_end_it_are_a_setting(players, clock, settings):
    settings.RATING_PAIR_ABANDONMENTS = 3
    cast = players(4)
    match_where(cast, clock, abandoner=cast[3])
    second = match_where(cast, clock, abandoner=cast[3])
    assert change(second, cast[1]) == 0
    third = match_where(cast, clock, abandoner=cast[3])
    assert change(third, cast[1]) < 0


def test_a_partner_whose_pair_won_gains_as_any_winner_linked_or_not(players, clock):
    cast = players(4)
    link(cast[1], cast[3])
    match = match_where(cast, clock, abandoner=cast[3], winner=1)
    assert change(match, cast[1]) > 0 and change(match, cast[3]) < 0


def test_each_withheld_protection_is_kept_with_its_reason(players, clock):
    from ratings.models import ProtectionWithheld

    cast = players(4)
    link(cast[1], cast[3])
    linked = match_where(cast, clock, abandoner=cast[3])
    clean = match_where(cast, clock, abandoner=cast[0], winner=1)  # ana left carla: unlinked
    rows = {(r.match_id, r.user_id): r.reason for r in ProtectionWithheld.objects.all()}
    assert rows == {(linked.pk, cast[1].pk): "linked"}
    assert change(clean, cast[2]) == 0


def test_the_replay_withholds_the_same_protections_after_the_sign_ins_are_gone(players, clock):
    from accounts.models import SignIn
    from ratings.models import ProtectionWithheld

    cast = players(4)
    link(cast[1], cast[3])
    match_where(cast, clock, abandoner=cast[3])
    match_where(cast, clock, abandoner=cast[0], winner=1)
    match_where(cast, clock, abandoner=cast[0], winner=1)  # ana again: withheld from carla
    assert ProtectionWithheld.objects.count() == 2
    before = sorted(RatingChange.objects.values_list("match_id", "user_id", "after"))
    SignIn.objects.all().delete()  # past their keep
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert sorted(RatingChange.objects.values_list("match_id", "user_id", "after")) == before


def test_staff_see_in_the_rating_history_why_the_protection_was_withheld(
    client, staff_user, players, clock
):
    from django.urls import reverse

    cast = players(4)
    link(cast[1], cast[3])
    match_where(cast, clock, abandoner=cast[3])
    client.force_login(staff_user)
    page = client.get(
        reverse("admin:ratings_rating_change", args=[cast[1].pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Partner left, rated down all the same: Linked accounts" in page
    listing = client.get(reverse("admin:ratings_protectionwithheld_changelist"))
    assert listing.status_code == 200 and cast[1].username in listing.content.decode()
