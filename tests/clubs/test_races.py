"""Races, with real threads released together on PostgreSQL (tests/threads.py): the
constraint on the name's key and the club row's lock decide, and nothing is written
twice."""

from __future__ import annotations

import pytest

from clubs import errors, services
from clubs.models import Admission, Club, Membership, Role
from tests.clubs.conftest import make_club
from tests.threads import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    "names", [("Los Ases", "Los Ases"), ("Los Ases", "los-ases"), ("Ace", "Асе")]
)
def test_two_creating_the_same_or_a_look_alike_name_at_once_make_one_club(make_user, names):
    users = [make_user("ana"), make_user("bea")]
    results = run_together(2, lambda i: make_club(users[i], names[i]))
    made = [r for r in results if isinstance(r, Club)]
    refused = [r for r in results if isinstance(r, errors.NameTaken)]
    assert len(made) == 1 and len(refused) == 1, results
    assert Club.objects.count() == 1 and Membership.objects.count() == 1


def test_a_request_accepted_twice_at_once_makes_one_member(make_user):
    owner, admin, asker = make_user("ana"), make_user("bea"), make_user("carlos")
    club = make_club(owner, admission=Admission.REQUEST)
    services.club_join(user=admin, club_id=club.pk)  # a request...
    services.request_accept(user=owner, request_id=club.join_requests.get().pk)
    services.member_set_role(user=owner, club_id=club.pk, username="bea", role=Role.ADMIN)
    request = services.club_join(user=asker, club_id=club.pk)
    admins = [owner, admin]
    results = run_together(
        2, lambda i: services.request_accept(user=admins[i], request_id=request.pk)
    )
    assert sum(isinstance(r, Membership) for r in results) == 1, results
    assert sum(isinstance(r, errors.RequestNotFound) for r in results) == 1, results
    club.refresh_from_db()
    assert club.members_count == 3 == Membership.objects.filter(club=club).count()


def test_joining_twice_at_once_makes_one_membership(make_user):
    club = make_club(make_user("ana"))
    bea = make_user("bea")
    results = run_together(2, lambda i: services.club_join(user=bea, club_id=club.pk))
    assert sum(isinstance(r, Membership) for r in results) == 1, results
    assert sum(isinstance(r, errors.AlreadyMember) for r in results) == 1, results


def test_joining_many_clubs_at_once_keeps_the_cap(settings, make_user):
    settings.CLUBS_PER_PLAYER_MAX = 2
    owners = [make_user(f"owner{i}") for i in range(4)]
    clubs = [make_club(owner, f"Club {chr(65 + i)}x") for i, owner in enumerate(owners)]
    bea = make_user("bea")
    results = run_together(4, lambda i: services.club_join(user=bea, club_id=clubs[i].pk))
    assert sum(isinstance(r, Membership) for r in results) == 2, results
    assert sum(isinstance(r, errors.TooManyClubs) for r in results) == 2, results


def test_the_owner_and_the_only_admin_leaving_at_once_leave_one_owner(make_user):
    ana, bea, carlos = make_user("ana"), make_user("bea"), make_user("carlos")
    club = make_club(ana)
    for user in (bea, carlos):
        services.club_join(user=user, club_id=club.pk)
    services.member_set_role(user=ana, club_id=club.pk, username="bea", role=Role.ADMIN)
    leaving = [ana, bea]
    results = run_together(2, lambda i: services.club_leave(user=leaving[i], club_id=club.pk))
    assert all(isinstance(r, Club) for r in results), results
    assert list(Membership.objects.filter(club=club).values_list("user__username", "role")) == [
        ("carlos", Role.OWNER)
    ]


def test_removing_a_member_while_they_leave_ends_with_them_gone_once(make_user):
    ana, bea = make_user("ana"), make_user("bea")
    club = make_club(ana)
    services.club_join(user=bea, club_id=club.pk)
    work = [
        lambda: services.member_remove(user=ana, club_id=club.pk, username="bea"),
        lambda: services.club_leave(user=bea, club_id=club.pk),
    ]
    results = run_together(2, lambda i: work[i]())
    failures = [r for r in results if isinstance(r, Exception)]
    assert len(failures) == 1 and isinstance(failures[0], (errors.MemberNotFound, errors.NotMember))
    club.refresh_from_db()
    assert club.members_count == 1
