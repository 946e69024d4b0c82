"""The clubs' services: every refusal, ownership passing, roles, announcements, club
tables (members only) and the matches a club records."""

from __future__ import annotations

import pytest
from django.utils import timezone, translation

from accounts.services import user_ban
from clubs import errors, services
from clubs.models import Admission, Announcement, Club, ClubMatch, JoinRequest, Membership, Role
from clubs.receivers import on_match_finished
from clubs.selectors import clubs_of, invitation_refusal, recent_matches
from games import services as games
from games.errors import GameError
from games.models import Invitation, InvitationStatus, MatchSeat
from tests.clubs.conftest import make_club
from tests.history.conftest import store_finished

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def role_of(club, user):
    return Membership.objects.get(club=club, user=user).role


def test_the_creator_owns_the_new_club(player):
    club = make_club(player, "  Los   Ases ", description="Los martes.", language="fr")
    assert (club.name, club.description, club.language, club.members_count) == (
        "Los Ases",
        "Los martes.",
        "fr",
        1,
    )
    assert role_of(club, player) == Role.OWNER


@pytest.mark.parametrize("name", ["Los Ases", "los-ases", "Ｌｏｓ Ａｓｅｓ", "LOSASES"])
def test_a_name_taken_or_looking_like_an_open_clubs_is_refused(player, stranger, club, name):
    with pytest.raises(errors.NameTaken):
        make_club(stranger, name)


def test_a_name_in_another_script_that_looks_the_same_is_refused(player, stranger):
    make_club(player, "Ace")
    with pytest.raises(errors.NameTaken):
        make_club(stranger, "Асе")  # Cyrillic А, с, е


def test_a_closed_clubs_name_is_free_again(player, stranger, club):
    services.club_close(user=player, club_id=club.pk)
    assert make_club(stranger, "Los Ases").pk != club.pk


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", "ab"),
        ("name", "cartas.es"),
        ("name", "Club Admin"),
        ("description", "ven a www.cartas.es"),
        ("description", "x" * 501),
        ("language", "de"),
        ("language", ""),
        ("admission", "maybe"),
    ],
)
def test_bad_details_are_refused_and_nothing_is_written(player, field, value):
    details = {"name": "Los Ases", "description": "", "language": "es", "admission": "open"}
    details[field] = value
    with pytest.raises(errors.InvalidClub):
        services.club_create(user=player, **details)
    assert not Club.objects.exists()


def test_a_suspended_player_neither_creates_nor_joins(player, stranger, staff_user, club):
    user_ban(user=stranger, staff_user=staff_user, reason="spam")
    with pytest.raises(errors.Banned):
        make_club(stranger, "Otro Club")
    with pytest.raises(errors.Banned):
        services.club_join(user=stranger, club_id=club.pk)


def test_joining_an_open_club_makes_a_member_once(player, stranger, club):
    services.club_join(user=stranger, club_id=club.pk)
    assert role_of(club, stranger) == Role.MEMBER
    with pytest.raises(errors.AlreadyMember):
        services.club_join(user=stranger, club_id=club.pk)
    club.refresh_from_db()
    assert club.members_count == 2


@pytest.mark.parametrize("club_id", [None, "", "abc", 0, -1, 2**63, 999999, "1.5"])
def test_an_unknown_club_is_said_so(player, club_id):
    with pytest.raises(errors.ClubNotFound):
        services.club_join(user=player, club_id=club_id)


def test_a_closed_club_takes_nobody(player, stranger, club):
    services.club_close(user=player, club_id=club.pk)
    with pytest.raises(errors.ClubClosed):
        services.club_join(user=stranger, club_id=club.pk)


def test_only_the_owner_or_staff_closes_a_club(player, stranger, staff_user, club):
    services.club_join(user=stranger, club_id=club.pk)
    with pytest.raises(errors.NotOwner):
        services.club_close(user=stranger, club_id=club.pk)
    services.club_close(user=staff_user, club_id=club.pk)
    club.refresh_from_db()
    assert club.closed_at is not None
    assert clubs_of(player.pk) == []


def test_a_club_by_request_takes_members_its_admins_accept(player, stranger, make_user):
    club = make_club(player, admission=Admission.REQUEST)
    asked = services.club_join(user=stranger, club_id=club.pk)
    assert isinstance(asked, JoinRequest)
    with pytest.raises(errors.AlreadyRequested):
        services.club_join(user=stranger, club_id=club.pk)
    with pytest.raises(errors.NotAdmin):
        services.request_accept(user=make_user("mallory"), request_id=asked.pk)
    services.request_accept(user=player, request_id=asked.pk)
    assert role_of(club, stranger) == Role.MEMBER
    with pytest.raises(errors.RequestNotFound):
        services.request_accept(user=player, request_id=asked.pk)


@pytest.mark.parametrize("request_id", [None, "x", 0, 99999999])
def test_an_unknown_request_is_said_so(player, request_id):
    with pytest.raises(errors.RequestNotFound):
        services.request_accept(user=player, request_id=request_id)


def test_a_request_declined_or_cancelled_is_gone(player, stranger, make_user):
    club = make_club(player, admission=Admission.REQUEST)
    asked = services.club_join(user=stranger, club_id=club.pk)
    services.request_decline(user=player, request_id=asked.pk)
    assert not JoinRequest.objects.exists()
    services.club_join(user=stranger, club_id=club.pk)
    services.request_cancel(user=stranger, club_id=club.pk)
    with pytest.raises(errors.RequestNotFound):
        services.request_cancel(user=stranger, club_id=club.pk)


def test_a_player_belongs_to_at_most_so_many_clubs(settings, player, stranger, make_user):
    settings.CLUBS_PER_PLAYER_MAX = 2
    first = make_club(player, "Club Uno")
    second = make_club(player, "Club Dos")
    with pytest.raises(errors.TooManyClubs) as refused:
        make_club(player, "Club Tres")
    with translation.override("en"):
        assert "more than 2 clubs" in refused.value.message
    third = make_club(stranger, "Club Tres")
    with pytest.raises(errors.TooManyClubs):
        services.club_join(user=player, club_id=third.pk)
    services.club_leave(user=player, club_id=first.pk)
    services.club_join(user=player, club_id=third.pk)
    assert {m.club_id for m in clubs_of(player.pk)} == {second.pk, third.pk}


def _club_of_four(owner, make_user):
    club = make_club(owner)
    bea, carlos, dora = (make_user(n) for n in ("bea", "carlos", "dora"))
    for user in (bea, carlos, dora):
        services.club_join(user=user, club_id=club.pk)
    return club, bea, carlos, dora


def test_the_owner_leaving_passes_the_club_to_the_oldest_admin(player, make_user):
    club, bea, carlos, dora = _club_of_four(player, make_user)
    services.member_set_role(user=player, club_id=club.pk, username="dora", role=Role.ADMIN)
    services.member_set_role(user=player, club_id=club.pk, username="carlos", role=Role.ADMIN)
    services.club_leave(user=player, club_id=club.pk)
    assert role_of(club, carlos) == Role.OWNER  # joined before dora
    assert role_of(club, dora) == Role.ADMIN and role_of(club, bea) == Role.MEMBER


def test_without_admins_the_oldest_member_owns_it_and_the_last_to_leave_closes_it(
    player, make_user
):
    club, bea, carlos, dora = _club_of_four(player, make_user)
    services.club_leave(user=player, club_id=club.pk)
    assert role_of(club, bea) == Role.OWNER
    for user in (carlos, bea, dora):
        services.club_leave(user=user, club_id=club.pk)
    club.refresh_from_db()
    assert club.closed_at is not None and club.members_count == 0
    with pytest.raises(errors.ClubClosed):
        services.club_leave(user=dora, club_id=club.pk)


def test_the_last_admin_leaving_leaves_the_owner_in_charge(player, make_user):
    club, bea, _carlos, _dora = _club_of_four(player, make_user)
    services.member_set_role(user=player, club_id=club.pk, username="bea", role=Role.ADMIN)
    services.club_leave(user=bea, club_id=club.pk)
    assert role_of(club, player) == Role.OWNER
    assert not Membership.objects.filter(club=club, role=Role.ADMIN).exists()


def test_leaving_a_club_one_is_not_in_is_refused(player, stranger, club):
    with pytest.raises(errors.NotMember):
        services.club_leave(user=stranger, club_id=club.pk)


def test_the_owner_cannot_be_removed_or_demoted(player, make_user):
    club, bea, *_ = _club_of_four(player, make_user)
    services.member_set_role(user=player, club_id=club.pk, username="bea", role=Role.ADMIN)
    with pytest.raises(errors.OwnerStays):
        services.member_remove(user=bea, club_id=club.pk, username="ana")
    with pytest.raises(errors.NotOwner):
        services.member_set_role(user=bea, club_id=club.pk, username="ana", role=Role.MEMBER)
    with pytest.raises(errors.OwnerStays):
        services.member_set_role(user=player, club_id=club.pk, username="ana", role=Role.MEMBER)


def test_admins_remove_members_and_only_the_owner_removes_admins(player, make_user):
    club, bea, _carlos, dora = _club_of_four(player, make_user)
    services.member_set_role(user=player, club_id=club.pk, username="bea", role=Role.ADMIN)
    services.member_set_role(user=player, club_id=club.pk, username="carlos", role=Role.ADMIN)
    with pytest.raises(errors.NotOwner):
        services.member_remove(user=bea, club_id=club.pk, username="carlos")
    with pytest.raises(errors.NotAdmin):
        services.member_remove(user=dora, club_id=club.pk, username="bea")
    services.member_remove(user=bea, club_id=club.pk, username="dora")
    services.member_remove(user=player, club_id=club.pk, username="carlos")
    assert set(Membership.objects.filter(club=club).values_list("user__username", flat=True)) == {
        "ana",
        "bea",
    }
    with pytest.raises(errors.MemberNotFound):
        services.member_remove(user=player, club_id=club.pk, username="dora")
    with pytest.raises(errors.MemberNotFound):
        services.member_remove(user=player, club_id=club.pk, username="\x00" * 3)


@pytest.mark.parametrize("role", ["owner", "", "king", None])
def test_a_role_other_than_admin_or_member_is_refused(player, stranger, club, role):
    services.club_join(user=stranger, club_id=club.pk)
    with pytest.raises(errors.ClubError):
        services.member_set_role(user=player, club_id=club.pk, username="zoe", role=role)
    assert role_of(club, stranger) == Role.MEMBER


def test_admins_post_announcements_members_read_them(player, stranger, club):
    services.club_join(user=stranger, club_id=club.pk)
    with pytest.raises(errors.NotAdmin):
        services.announcement_post(user=stranger, club_id=club.pk, text="Hola")
    with pytest.raises(errors.InvalidAnnouncement):
        services.announcement_post(user=player, club_id=club.pk, text="en www.x.com")
    with pytest.raises(errors.InvalidAnnouncement):
        services.announcement_post(user=player, club_id=club.pk, text="x" * 501)
    posted = services.announcement_post(user=player, club_id=club.pk, text=" Martes 21 h ")
    assert posted.text == "Martes 21 h"
    with pytest.raises(errors.NotAdmin):
        services.announcement_delete(user=stranger, announcement_id=posted.pk)
    services.announcement_delete(user=player, announcement_id=posted.pk)
    assert not Announcement.objects.exists()


def test_a_club_table_invites_members_only(player, stranger, make_user, club):
    services.club_join(user=stranger, club_id=club.pk)
    outsider = make_user("olga")
    table = services.club_table_open(user=player, club_id=club.pk, rules="classic")
    assert table.rules == "classic"
    services.club_table_invite(user=player, club_id=club.pk, table_id=table.pk, username="zoe")
    with pytest.raises(errors.MemberNotFound):
        services.club_table_invite(user=player, club_id=club.pk, table_id=table.pk, username="olga")
    # Through the room's own invitation form too: games asks clubs.
    with pytest.raises(GameError) as refused:
        games.invitation_create(user=player, table_id=table.pk, username="olga")
    with translation.override("en"):
        assert "members" in refused.value.message
    assert invitation_refusal(table.pk, outsider.pk) is not None
    assert invitation_refusal(table.pk, stranger.pk) is None


def test_a_member_removed_after_the_invitation_cannot_take_the_seat(player, stranger, club):
    services.club_join(user=stranger, club_id=club.pk)
    table = services.club_table_open(user=player, club_id=club.pk)
    invitation = services.club_table_invite(
        user=player, club_id=club.pk, table_id=table.pk, username="zoe"
    )
    services.member_remove(user=player, club_id=club.pk, username="zoe")
    with pytest.raises(GameError):
        games.invitation_accept(user=stranger, invitation_id=invitation.pk)
    assert Invitation.objects.get(pk=invitation.pk).status == InvitationStatus.PENDING


def test_only_admins_open_club_tables_and_games_refusals_pass_through(player, stranger, club):
    services.club_join(user=stranger, club_id=club.pk)
    with pytest.raises(errors.NotAdmin):
        services.club_table_open(user=stranger, club_id=club.pk)
    with pytest.raises(GameError):
        services.club_table_open(user=player, club_id=club.pk, rules="poker")
    services.club_table_open(user=player, club_id=club.pk)
    with pytest.raises(GameError):  # already at a live table
        services.club_table_open(user=player, club_id=club.pk)


def test_a_plain_friends_room_is_not_restricted(player, stranger):
    table = games.table_create_friends(user=player)
    assert invitation_refusal(table.pk, stranger.pk) is None


def test_a_finished_match_of_two_members_is_the_clubs(player, stranger, make_user, club):
    services.club_join(user=stranger, club_id=club.pk)
    other = make_club(make_user("olga"), "Otro Club")
    (together,) = store_finished([player, None, stranger, None], 1)
    (alone,) = store_finished([player, None, None, None], 1)
    for match in (together, alone):
        seats = list(MatchSeat.objects.filter(match=match))
        on_match_finished(None, match=match, table=match.table, match_seats=seats, engine=None)
        on_match_finished(None, match=match, table=match.table, match_seats=seats, engine=None)
    assert list(ClubMatch.objects.values_list("club_id", "match_id")) == [(club.pk, together.pk)]
    (recent,) = recent_matches(club.pk)
    assert recent.pair_a == ["ana", "zoe"] and recent.pair_b == [None, None]
    assert recent_matches(other.pk) == []
    assert recent.finished_at <= timezone.now()
