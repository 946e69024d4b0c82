"""Clubs' pages and forms: each refusal said on the page, bad values and unknown ids
a clear 4xx, never a 500; the club page reads the same number of queries whatever
the club's size (no N+1)."""

from __future__ import annotations

from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs import services
from clubs.models import Admission, Announcement, Club, ClubTable, JoinRequest, Membership, Role
from clubs.receivers import on_match_finished
from games.models import MatchSeat
from tests.clubs.conftest import make_club
from tests.history.conftest import store_finished

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def signed_in(client, player):
    client.force_login(player)
    return client


def messages_of(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_a_player_creates_a_club_and_lands_on_its_page(signed_in):
    response = signed_in.post(
        "/clubs/new/",
        {"name": "Los Ases", "description": "Martes", "language": "es", "admission": "request"},
        follow=True,
    )
    club = Club.objects.get()
    assert response.redirect_chain[-1][0] == f"/clubs/{club.pk}/"
    assert "Los Ases" in unescape(response.text) and "Manage the club" in unescape(response.text)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"name": "cartas.es", "language": "es", "admission": "open"}, "link"),
        ({"name": "Los Ases!", "language": "es", "admission": "open"}, "letters"),
        ({"name": "Los Ases", "language": "xx", "admission": "open"}, "valid choice"),
        ({"name": "Los Ases", "language": "es", "admission": "maybe"}, "valid choice"),
        ({"name": "", "language": "es", "admission": "open"}, "required"),
        (
            {"name": "Los Ases", "language": "es", "admission": "open", "description": "x.com"},
            "Links",
        ),
    ],
)
def test_a_refused_club_is_said_on_the_form_kept_as_typed(signed_in, data, said):
    response = signed_in.post("/clubs/new/", data)
    assert response.status_code == 400
    assert said in unescape(response.text)
    assert not Club.objects.exists()


def test_a_taken_name_is_said_on_the_form(signed_in, stranger):
    make_club(stranger, "Los Ases")
    response = signed_in.post(
        "/clubs/new/", {"name": "LOS-ASES", "language": "es", "admission": "open"}
    )
    assert response.status_code == 400 and "already exists" in unescape(response.text)


def test_the_list_finds_clubs_by_name_and_language(client, player):
    make_club(player, "Los Ases", language="es")
    make_club(player, "Les Valets", language="fr")
    assert "Les Valets" in unescape(client.get("/clubs/", {"q": "valet"}).text)
    response = client.get("/clubs/", {"language": "es"})
    assert "Los Ases" in unescape(response.text) and "Les Valets" not in unescape(response.text)
    assert client.get("/clubs/", {"language": "zz"}).status_code == 200  # any language
    assert client.get("/clubs/", {"page": "9"}).status_code == 404
    assert client.get("/clubs/", {"page": "x"}).status_code == 400


def test_joining_leaving_and_requests_from_the_pages(client, player, stranger):
    club = make_club(player, admission=Admission.REQUEST)
    client.force_login(stranger)
    response = client.post(f"/clubs/{club.pk}/join/", follow=True)
    assert "the club's admins will answer it" in unescape(response.text)
    assert "Your request is waiting" in unescape(response.text)
    response = client.post(f"/clubs/{club.pk}/join/", follow=True)
    assert "already asked" in unescape(response.text)
    request = JoinRequest.objects.get()
    client.force_login(player)
    page = client.get(f"/clubs/{club.pk}/manage/")
    assert "zoe asks to join." in unescape(page.text)
    response = client.post(
        f"/clubs/requests/{request.pk}/accept/", {"club": club.pk, "from": "manage"}, follow=True
    )
    assert response.redirect_chain[-1][0] == f"/clubs/{club.pk}/manage/"
    assert "zoe is a member now." in unescape(response.text)
    response = client.post(
        f"/clubs/requests/{request.pk}/accept/", {"club": club.pk, "from": "manage"}, follow=True
    )
    assert "no such request" in unescape(response.text)
    client.force_login(stranger)
    response = client.post(f"/clubs/{club.pk}/leave/", follow=True)
    assert "You have left the club." in unescape(response.text)


def test_members_management_from_the_page(client, player, stranger, make_user):
    club = make_club(player)
    services.club_join(user=stranger, club_id=club.pk)
    client.force_login(player)
    client.post(f"/clubs/{club.pk}/members/role/", {"username": "zoe", "role": "admin"})
    assert Membership.objects.get(user=stranger).role == Role.ADMIN
    response = client.post(
        f"/clubs/{club.pk}/members/role/", {"username": "zoe", "role": "owner"}, follow=True
    )
    assert "Choose a member." in unescape(response.text)
    client.force_login(stranger)
    response = client.post(f"/clubs/{club.pk}/members/remove/", {"username": "ana"}, follow=True)
    assert "cannot be removed" in unescape(response.text)
    assert client.get(f"/clubs/{club.pk}/manage/").status_code == 200
    client.force_login(make_user("olga"))
    assert client.get(f"/clubs/{club.pk}/manage/").status_code == 404


def test_announcements_are_posted_by_admins_and_read_by_everyone(client, player, stranger):
    club = make_club(player)
    client.force_login(player)
    response = client.post(f"/clubs/{club.pk}/announce/", {"text": "www.x.com"}, follow=True)
    assert "Links are not allowed" in unescape(response.text)
    client.post(f"/clubs/{club.pk}/announce/", {"text": "Torneo el sábado"})
    response = client.post(f"/clubs/{club.pk}/announce/", {"text": "x" * 501}, follow=True)
    assert "at most 500" in unescape(response.text)
    client.force_login(stranger)
    page = client.get(f"/clubs/{club.pk}/")
    assert "Torneo el sábado" in unescape(page.text) and "New announcement" not in unescape(
        page.text
    )
    response = client.post(f"/clubs/{club.pk}/announce/", {"text": "hola"}, follow=True)
    assert "Only the club's admins" in unescape(response.text)
    assert Announcement.objects.count() == 1


def test_an_admin_opens_a_club_table_and_invites_members(client, player, stranger):
    club = make_club(player)
    services.club_join(user=stranger, club_id=club.pk)
    client.force_login(player)
    response = client.post(f"/clubs/{club.pk}/table/", {"rules": "poker"}, follow=True)
    assert "Choose the rules." in unescape(response.text)
    response = client.post(f"/clubs/{club.pk}/table/", {"rules": "classic"})
    table = ClubTable.objects.get().table
    assert response.url == f"/tables/{table.pk}/"
    page = client.get(f"/clubs/{club.pk}/manage/")
    assert "Invite to the table" in unescape(page.text)
    response = client.post(
        f"/clubs/{club.pk}/table/invite/", {"username": "zoe", "from": "manage"}, follow=True
    )
    assert "zoe is invited to your club table." in unescape(response.text)


@pytest.mark.parametrize(
    "url",
    ["/clubs/999999/", "/clubs/999999/manage/", "/clubs/99999999999999/", "/clubs/abc/"],
)
def test_unknown_clubs_are_404(signed_in, url):
    assert signed_in.get(url).status_code == 404


def test_actions_on_unknown_or_closed_clubs_say_so(signed_in, player, stranger):
    club = make_club(stranger)
    services.club_close(user=stranger, club_id=club.pk)
    for url in (f"/clubs/{club.pk}/join/", "/clubs/999999999999/join/"):
        response = signed_in.post(url, follow=True)
        assert response.redirect_chain[-1][0] == "/clubs/"
        assert any(m in unescape(response.text) for m in ("closed", "no such club"))
    assert signed_in.get(f"/clubs/{club.pk}/").status_code == 404
    assert signed_in.post("/clubs/requests/999/accept/", follow=True).status_code == 200
    assert signed_in.get("/clubs/999999/join/").status_code == 405


def test_pages_need_a_login_to_change_anything(client, player):
    club = make_club(player)
    assert client.get(f"/clubs/{club.pk}/").status_code == 200  # anyone reads it
    response = client.post(f"/clubs/{club.pk}/join/")
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_the_player_page_and_the_lobby_show_a_players_clubs(client, player, stranger):
    club = make_club(player, "Los Ases", admission=Admission.REQUEST)
    services.club_join(user=stranger, club_id=club.pk)
    client.force_login(player)
    assert "Los Ases" in unescape(client.get("/u/ana/").text)
    lobby = unescape(client.get("/play/").text)
    assert "Los Ases" in lobby and "1 request to join" in lobby
    assert 'href="/clubs/"' in unescape(client.get("/").text)


def _big_club(owner, make_user, members, name="Los Ases", prefix="m"):
    club = make_club(owner, name)
    users = [make_user(f"{prefix}{index:04d}") for index in range(members)]
    Membership.objects.bulk_create([Membership(club=club, user=u) for u in users])
    for index in range(0, len(users) - 1, 2):
        (match,) = store_finished([users[index], None, users[index + 1], None], 1)
        seats = list(MatchSeat.objects.filter(match=match))
        on_match_finished(None, match=match, table=match.table, match_seats=seats, engine=None)
    services.announcement_post(user=owner, club_id=club.pk, text="Hola")
    return club


def _queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize("who", ["owner", "visitor"])
def test_the_club_page_reads_as_many_queries_for_60_members_as_for_6(
    client, player, make_user, who
):
    small = _big_club(player, make_user, 5)
    big = _big_club(make_user("bea"), make_user, 59, "Club Grande", prefix="b")
    if who == "owner":
        client.force_login(player)
        # ana owns both (the owner's management page also lists whom to hand it to).
        Membership.objects.filter(club=big).update(role=Role.MEMBER)
        Membership.objects.create(club=big, user=player, role=Role.OWNER)
    assert _queries(client, f"/clubs/{small.pk}/") == _queries(client, f"/clubs/{big.pk}/")
    if who == "owner":
        small_manage = _queries(client, f"/clubs/{small.pk}/manage/")
        assert small_manage == _queries(client, f"/clubs/{big.pk}/manage/")
