"""Handing a club to a chosen member (issue 44): the service's refusals, the owner's
pages (the list on the management page, the confirmation, the hand-over), and the
target leaving at the same instant (real threads)."""

from __future__ import annotations

from html import unescape

import pytest
from django.utils import translation

from accounts.services import user_ban
from clubs import errors, services
from clubs.models import Membership, Role
from tests.clubs.conftest import make_club
from tests.threads import run_together

pytestmark = [pytest.mark.postgres]


def roles(club):
    return dict(Membership.objects.filter(club=club).values_list("user__username", "role"))


@pytest.fixture
def members(make_user, club):
    """ana owns Los Ases; bea is an admin, carlos a member."""
    bea, carlos = make_user("bea"), make_user("carlos")
    for user in (bea, carlos):
        services.club_join(user=user, club_id=club.pk)
    services.member_set_role(user=club.created_by, club_id=club.pk, username="bea", role=Role.ADMIN)
    return bea, carlos


@pytest.mark.django_db
def test_the_owner_hands_the_club_to_a_member_and_stays_as_an_admin(player, club, members):
    heir = services.club_transfer(user=player, club_id=club.pk, username="carlos")
    assert heir.role == Role.OWNER
    assert roles(club) == {"ana": Role.ADMIN, "bea": Role.ADMIN, "carlos": Role.OWNER}
    club.refresh_from_db()
    assert club.members_count == 3 and club.is_open


@pytest.mark.django_db
def test_the_new_owner_may_hand_it_back_and_the_old_one_no_longer_can(player, club, members):
    bea = members[0]
    services.club_transfer(user=player, club_id=club.pk, username="bea")
    with pytest.raises(errors.NotOwner):
        services.club_transfer(user=player, club_id=club.pk, username="carlos")
    services.club_transfer(user=bea, club_id=club.pk, username="ana")
    assert roles(club) == {"ana": Role.OWNER, "bea": Role.ADMIN, "carlos": Role.MEMBER}


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["bea", "carlos", "zoe"])
def test_only_the_owner_may_hand_the_club_over(player, club, members, stranger, who):
    user = {"bea": members[0], "carlos": members[1], "zoe": stranger}[who]
    with pytest.raises(errors.NotOwner):
        services.club_transfer(user=user, club_id=club.pk, username="carlos")
    assert roles(club)["ana"] == Role.OWNER


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "error"),
    [
        ("ana", errors.AlreadyOwner),
        ("ANA", errors.AlreadyOwner),
        ("zoe", errors.MemberNotFound),  # a player, not a member
        ("nobody", errors.MemberNotFound),
        ("", errors.MemberNotFound),
        ("a\x00b", errors.MemberNotFound),
        ("x" * 400, errors.MemberNotFound),
    ],
)
def test_handing_it_to_yourself_or_a_non_member_is_refused(
    player, club, members, stranger, username, error
):
    with pytest.raises(error):
        services.club_transfer(user=player, club_id=club.pk, username=username)
    assert roles(club) == {"ana": Role.OWNER, "bea": Role.ADMIN, "carlos": Role.MEMBER}


@pytest.mark.django_db
def test_a_suspended_member_cannot_be_made_owner(player, club, members, staff_user):
    user_ban(user=members[1], staff_user=staff_user, reason="spam")
    with pytest.raises(errors.CannotOwn) as refused:
        services.club_transfer(user=player, club_id=club.pk, username="carlos")
    assert refused.value.code == "cannot_own_club"
    with translation.override("en"):
        assert "suspended" in str(refused.value.message)
    assert roles(club)["ana"] == Role.OWNER


@pytest.mark.django_db
def test_a_member_whose_account_is_closed_cannot_be_made_owner(player, club, members):
    carlos = members[1]
    carlos.is_active = False
    carlos.save(update_fields=["is_active"])
    with pytest.raises(errors.CannotOwn):
        services.club_transfer(user=player, club_id=club.pk, username="carlos")
    assert roles(club)["ana"] == Role.OWNER


@pytest.mark.django_db
def test_a_closed_or_unknown_club_is_refused(player, club, members):
    with pytest.raises(errors.ClubNotFound):
        services.club_transfer(user=player, club_id="x", username="bea")
    services.club_close(user=player, club_id=club.pk)
    with pytest.raises(errors.ClubClosed):
        services.club_transfer(user=player, club_id=club.pk, username="bea")


# --- pages ----------------------------------------------------------------------------


@pytest.fixture
def owner_client(client, player):
    client.force_login(player)
    return client


def messages_of(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.mark.django_db
def test_the_management_page_lists_the_admins_first_then_the_members(
    owner_client, club, members, make_user
):
    services.club_join(user=make_user("aaron"), club_id=club.pk)
    text = owner_client.get(f"/clubs/{club.pk}/manage/").content.decode()
    start = text.index('id="transfer-username"')
    form = text[start : text.index("</select>", start)]
    assert form.index(">bea<") < form.index(">aaron<") < form.index(">carlos<")
    assert ">ana<" not in form
    assert 'label="Admins"' in form and 'label="Members"' in form


@pytest.mark.django_db
def test_an_admin_sees_no_transfer_form(client, club, members):
    client.force_login(members[0])
    text = client.get(f"/clubs/{club.pk}/manage/").content.decode()
    assert "transfer-username" not in text
    assert client.get(f"/clubs/{club.pk}/transfer/?username=carlos").status_code == 404
    response = client.post(f"/clubs/{club.pk}/transfer/", {"username": "carlos"})
    assert response.status_code == 404
    assert roles(club)["ana"] == Role.OWNER


@pytest.mark.django_db
def test_the_owner_confirms_then_hands_the_club_over(owner_client, club, members):
    page = owner_client.get(f"/clubs/{club.pk}/transfer/", {"username": "carlos"})
    assert page.status_code == 200
    text = unescape(page.content.decode())
    assert "Make carlos the owner?" in text and "Hand the club to carlos" in text
    assert roles(club)["ana"] == Role.OWNER  # nothing changes before the confirmation
    done = owner_client.post(f"/clubs/{club.pk}/transfer/", {"username": "carlos"}, follow=True)
    assert done.redirect_chain[-1][0] == f"/clubs/{club.pk}/"
    assert "carlos owns Los Ases now; you are one of its admins." in messages_of(done)
    assert roles(club) == {"ana": Role.ADMIN, "bea": Role.ADMIN, "carlos": Role.OWNER}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "said"),
    [
        ("zoe", "This player is not a member of the club."),
        ("", "Choose a member."),
        ("ana", "You already own this club: choose another member."),
    ],
)
def test_a_bad_choice_goes_back_to_the_management_page_with_its_reason(
    owner_client, club, members, stranger, username, said
):
    for response in (
        owner_client.get(f"/clubs/{club.pk}/transfer/", {"username": username}, follow=True),
        owner_client.post(f"/clubs/{club.pk}/transfer/", {"username": username}, follow=True),
    ):
        assert response.redirect_chain[-1][0] == f"/clubs/{club.pk}/manage/"
        assert said in messages_of(response)
    assert roles(club)["ana"] == Role.OWNER


@pytest.mark.django_db
def test_a_member_who_left_after_the_confirmation_page_is_refused(owner_client, club, members):
    assert owner_client.get(f"/clubs/{club.pk}/transfer/?username=carlos").status_code == 200
    services.club_leave(user=members[1], club_id=club.pk)
    response = owner_client.post(f"/clubs/{club.pk}/transfer/", {"username": "carlos"}, follow=True)
    assert "This player is not a member of the club." in messages_of(response)
    assert roles(club) == {"ana": Role.OWNER, "bea": Role.ADMIN}


@pytest.mark.django_db
def test_a_signed_out_visitor_is_sent_to_sign_in(client, club, members):
    response = client.post(f"/clubs/{club.pk}/transfer/", {"username": "bea"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert roles(club)["ana"] == Role.OWNER


# --- the race ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_the_target_leaving_at_the_same_instant_leaves_one_owner_who_is_a_member(
    make_user, attempt
):
    ana, bea, carlos = make_user("ana"), make_user("bea"), make_user("carlos")
    club = make_club(ana)
    for user in (bea, carlos):
        services.club_join(user=user, club_id=club.pk)
    work = [
        lambda: services.club_transfer(user=ana, club_id=club.pk, username="carlos"),
        lambda: services.club_leave(user=carlos, club_id=club.pk),
    ]
    results = run_together(2, lambda i: work[i]())
    left = roles(club)
    assert "carlos" not in left  # the leave always happens
    owners = [name for name, role in left.items() if role == Role.OWNER]
    assert len(owners) == 1, (results, left)
    if isinstance(results[0], Membership):
        # the transfer first: carlos owned it, then left; it passed to the oldest admin
        assert left == {"ana": Role.OWNER, "bea": Role.MEMBER}
    else:
        assert isinstance(results[0], errors.MemberNotFound), results
        assert left == {"ana": Role.OWNER, "bea": Role.MEMBER}
    club.refresh_from_db()
    assert club.members_count == 2
