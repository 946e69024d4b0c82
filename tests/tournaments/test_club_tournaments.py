"""Club tournaments (docs/tournaments.md, "Club tournaments"): scheduled by the club's
owner or admins from the club's pages, every field checked (a clear error each,
nothing written), open to the members only, listed to them, shown on the club page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from clubs import services as clubs
from clubs.models import Admission
from tests.tournaments.conftest import befriend
from tournaments import errors
from tournaments.models import Entry, Tournament, TournamentState
from tournaments.services import tournament_register
from tournaments.services.clubs import CLUB_TOURNAMENTS_MAX, club_tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_pages(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture
def cast(players):
    """owner (of Los Ases), admin, member, member2 (members), outsider."""
    owner, admin, member, member2, outsider = players(5, prefix="c")
    club = clubs.club_create(
        user=owner, name="Los Ases", description="", language="es", admission=Admission.OPEN
    )
    for user in (admin, member, member2):
        clubs.club_join(user=user, club_id=club.pk)
    clubs.member_set_role(user=owner, club_id=club.pk, username=admin.username, role="admin")
    return {
        "club": club,
        "owner": owner,
        "admin": admin,
        "member": member,
        "member2": member2,
        "outsider": outsider,
    }


def fields(**changes):
    values = {
        "name": "Torneo del club",
        "format": "swiss",
        "rules": "online",
        "starts_at": timezone.now() + timedelta(days=1),
        "rounds": 3,
        "best_of": 1,
        "round_minutes": 30,
        "pause_minutes": 2,
        "entry_fee": 50,
        "min_entries": 2,
        "max_entries": 16,
        "registration_close_minutes": 5,
    }
    values.update(changes)
    return values


def form_data(**changes):
    values = fields(**changes)
    values["starts_at"] = timezone.localtime(values["starts_at"]).strftime("%Y-%m-%dT%H:%M")
    return values


# The service -----------------------------------------------------------------------------


def test_an_admin_schedules_a_club_tournament_open_for_registration_now(cast):
    tournament = club_tournament_create(user=cast["admin"], club_id=cast["club"].pk, **fields())
    assert tournament.club_id == cast["club"].pk
    assert tournament.state == TournamentState.REGISTRATION_OPEN
    assert tournament.registration_closes_at == tournament.starts_at - timedelta(minutes=5)
    assert tournament.xp_pool == 0


@pytest.mark.parametrize("who", ["member", "outsider"])
def test_only_the_owner_and_admins_may_schedule_one(cast, who):
    with pytest.raises(errors.NotClubAdmin):
        club_tournament_create(user=cast[who], club_id=cast["club"].pk, **fields())
    assert not Tournament.objects.exists()


def test_a_closed_or_unknown_club_schedules_nothing(cast):
    with pytest.raises(errors.NotClubAdmin):
        club_tournament_create(user=cast["owner"], club_id=987654, **fields())
    clubs.club_close(user=cast["owner"], club_id=cast["club"].pk)
    with pytest.raises(errors.NotClubAdmin):
        club_tournament_create(user=cast["owner"], club_id=cast["club"].pk, **fields())
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": "ab"}, "name"),
        ({"name": "see www.cartas.es"}, "name"),
        ({"format": "poker"}, "format"),
        ({"rules": "chinchon"}, "rules"),
        ({"best_of": 2}, "best_of"),
        ({"starts_at": timezone.now() + timedelta(minutes=5)}, "starts_at"),
        ({"starts_at": timezone.now() + timedelta(days=90)}, "starts_at"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 40}, "rounds"),
        ({"round_minutes": 5}, "round_minutes"),
        ({"pause_minutes": 0}, "pause_minutes"),
        ({"entry_fee": -1}, "entry_fee"),
        ({"entry_fee": 1_000_000}, "entry_fee"),
        ({"min_entries": 1}, "min_entries"),
        ({"max_entries": 500}, "max_entries"),
        ({"min_entries": 10, "max_entries": 4}, "max_entries"),
        ({"registration_close_minutes": 121}, "registration_close_minutes"),
        (
            {
                "starts_at": timezone.now() + timedelta(minutes=40),
                "registration_close_minutes": 60,
            },
            "registration_close_minutes",
        ),
    ],
)
def test_every_field_out_of_bounds_is_refused_by_the_service(cast, change, field):
    with pytest.raises(errors.InvalidTournament) as refused:
        club_tournament_create(user=cast["owner"], club_id=cast["club"].pk, **fields(**change))
    assert refused.value.params["field"] == field
    assert not Tournament.objects.exists()


def test_a_club_has_at_most_so_many_tournaments_to_come(cast):
    for _ in range(CLUB_TOURNAMENTS_MAX):
        club_tournament_create(user=cast["owner"], club_id=cast["club"].pk, **fields())
    with pytest.raises(errors.TooManyClubTournaments):
        club_tournament_create(user=cast["owner"], club_id=cast["club"].pk, **fields())
    assert Tournament.objects.count() == CLUB_TOURNAMENTS_MAX


# Registration ----------------------------------------------------------------------------


@pytest.fixture
def club_tournament(cast):
    return club_tournament_create(user=cast["owner"], club_id=cast["club"].pk, **fields())


def test_members_enter_alone_or_with_a_member(cast, club_tournament, coins_of):
    tournament_register(tournament_id=club_tournament.pk, user=cast["admin"])
    befriend(cast["member"], cast["member2"])
    entry = tournament_register(
        tournament_id=club_tournament.pk, user=cast["member"], partner=cast["member2"]
    )
    assert entry.player_b_id == cast["member2"].pk
    assert coins_of(cast["member"]) == 1000 - 2 * 50


def test_a_non_member_cannot_register_and_pays_nothing(cast, club_tournament, coins_of):
    with pytest.raises(errors.NotClubMember) as refused:
        tournament_register(tournament_id=club_tournament.pk, user=cast["outsider"])
    with translation.override("en"):
        assert "members of its club" in str(refused.value.message)
    assert not Entry.objects.exists()
    assert coins_of(cast["outsider"]) == 1000


def test_a_partner_who_is_not_a_member_is_refused(cast, club_tournament, coins_of):
    befriend(cast["member"], cast["outsider"])
    with pytest.raises(errors.PartnerNotClubMember):
        tournament_register(
            tournament_id=club_tournament.pk, user=cast["member"], partner=cast["outsider"]
        )
    assert not Entry.objects.exists()
    assert coins_of(cast["member"]) == 1000


def test_nobody_registers_once_the_club_is_closed(cast, club_tournament):
    clubs.club_close(user=cast["owner"], club_id=cast["club"].pk)
    with pytest.raises(errors.NotClubMember):
        tournament_register(tournament_id=club_tournament.pk, user=cast["member"])


# Pages -----------------------------------------------------------------------------------


def new_url(club) -> str:
    return f"/clubs/{club.pk}/tournaments/new/"


@pytest.mark.parametrize("who", ["owner", "admin"])
def test_the_owner_and_admins_get_the_form(client, cast, who):
    client.force_login(cast[who])
    answer = client.get(new_url(cast["club"]))
    assert answer.status_code == 200
    assert b'name="starts_at"' in answer.content and b'name="entry_fee"' in answer.content


@pytest.mark.parametrize("who", ["member", "outsider"])
def test_members_and_strangers_can_neither_see_nor_post_the_form(client, cast, who):
    client.force_login(cast[who])
    assert client.get(new_url(cast["club"])).status_code == 404
    assert client.post(new_url(cast["club"]), form_data()).status_code == 404
    assert not Tournament.objects.exists()


def test_an_anonymous_reader_is_sent_to_log_in(client, cast):
    answer = client.get(new_url(cast["club"]))
    assert answer.status_code == 302 and "login" in answer["Location"]


def test_posting_the_form_schedules_the_tournament(client, cast):
    client.force_login(cast["admin"])
    answer = client.post(new_url(cast["club"]), form_data(name="  Copa   de  invierno "))
    tournament = Tournament.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == f"/tournaments/{tournament.pk}/"
    assert tournament.name == "Copa de invierno" and tournament.club_id == cast["club"].pk


@pytest.mark.parametrize(
    ("change", "field", "said"),
    [
        ({"name": ""}, "name", "This field is required."),
        ({"name": "go to www.cartas.es"}, "name", "cannot hold a link"),
        ({"format": "poker"}, "format", "Select a valid choice."),
        ({"starts_at": "tomorrow"}, "starts_at", "Enter a valid date/time."),
        ({"rounds": "0"}, "rounds", "greater than or equal to 1"),
        ({"rounds": "x"}, "rounds", "Enter a whole number."),
        ({"entry_fee": "-5"}, "entry_fee", "greater than or equal to 0"),
        ({"entry_fee": "5000"}, "entry_fee", "less than or equal to 1000"),
        ({"round_minutes": "500"}, "round_minutes", "less than or equal to 120"),
        ({"min_entries": "10", "max_entries": "4"}, "max_entries", "at least the minimum"),
        ({"best_of": "2"}, "best_of", "Select a valid choice."),
    ],
)
def test_a_bad_value_is_said_next_to_its_field_and_nothing_is_written(
    client, cast, change, field, said
):
    client.force_login(cast["owner"])
    data = form_data()
    data.update(change)
    answer = client.post(new_url(cast["club"]), data)
    assert answer.status_code == 400
    errors_of = answer.context["form"].errors
    assert list(errors_of) == [field]
    assert said in " ".join(errors_of[field])
    assert not Tournament.objects.exists()


def test_a_start_too_soon_is_said_on_the_start(client, cast):
    client.force_login(cast["owner"])
    soon = timezone.now() + timedelta(minutes=10)
    answer = client.post(new_url(cast["club"]), form_data(starts_at=soon))
    assert answer.status_code == 400
    assert "at least 30 minutes from now" in " ".join(answer.context["form"].errors["starts_at"])
    assert not Tournament.objects.exists()


def test_the_club_page_shows_its_tournaments_and_the_link_to_admins_only(
    client, cast, club_tournament
):
    url = f"/clubs/{cast['club'].pk}/"
    schedule = new_url(cast["club"]).encode()
    client.force_login(cast["owner"])
    page = client.get(url).content
    assert club_tournament.name.encode() in page and schedule in page
    client.force_login(cast["member"])
    page = client.get(url).content
    assert club_tournament.name.encode() in page and schedule not in page
    client.logout()
    page = client.get(url).content
    assert club_tournament.name.encode() in page and schedule not in page


def test_the_tournament_list_shows_a_club_tournament_to_its_members_only(
    client, cast, club_tournament
):
    client.force_login(cast["member"])
    page = client.get("/tournaments/").content
    assert club_tournament.name.encode() in page and b"Los Ases" in page
    client.force_login(cast["outsider"])
    assert club_tournament.name.encode() not in client.get("/tournaments/").content
    client.logout()
    assert club_tournament.name.encode() not in client.get("/tournaments/").content


def test_a_non_member_registering_from_the_page_is_told_why(client, cast, club_tournament):
    client.force_login(cast["outsider"])
    answer = client.post(
        f"/tournaments/{club_tournament.pk}/register/",
        {"partner": ""},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="tournament-entry",
    )
    assert answer.status_code == 200
    assert b"for the members of its club only" in answer.content
    assert not Entry.objects.exists()


def test_a_club_tournament_page_names_its_club_to_any_reader(client, cast, club_tournament):
    page = client.get(f"/tournaments/{club_tournament.pk}/").content.decode()
    assert "Los Ases" in page and "members only" in page
    assert f'href="/clubs/{cast["club"].pk}/"' in page
