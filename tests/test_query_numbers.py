"""Every number a page reads from its query string (a page, a replay step, a league
division, a match to report) answers a clear 400 or 404 when it is not one the page
has, never a 500 and never some other page: huge, negative, zero, past the last,
not a number, empty. On PostgreSQL, whose bigint a huge page number once overflowed
(the history page's OFFSET)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import transaction
from django.utils import timezone

from economy import selectors as economy_selectors
from economy import services as economy_services
from history.models import PlayerMatch
from leagues.models import Division, LeagueWeek
from leagues.services import league_points_record, league_weeks_close_due
from tests.history.conftest import store_finished, store_played
from tests.leagues.conftest import MIDWEEK

ROOT = Path(__file__).resolve().parents[1]
APPS = (
    "accounts",
    "economy",
    "games",
    "leagues",
    "history",
    "online",
    "daily",
    "clubs",
    "cuatrola_site",
)

# (view module, parameter): every number a view reads from a query string.
PARAMETERS = {
    ("history/views.py", "page"),
    ("history/views.py", "step"),
    ("economy/views.py", "page"),
    ("leagues/views.py", "page"),
    ("leagues/views.py", "division"),
    ("accounts/views.py", "match"),
    ("daily/views.py", "at"),
    ("clubs/views.py", "page"),
}
HUGE = "99999999999999999999999"
# Not written as a whole number: 400 ("Bad request").
MALFORMED = ["abc", "", "1.5", "1e3", " 2", "0x10", "٣"]
# Whole numbers the page has no page, step, division or match for: 404.
ABSENT = [HUGE, "9223372036854775808", "-1", "-" + HUGE]


@pytest.fixture
def site(make_user, settings):
    """ana, with two pages of everything; for each numeric parameter: (view module,
    parameter, url, a valid value, the first value past the end)."""
    settings.HISTORY_PAGE_SIZE = 2
    settings.ECONOMY_TRANSACTIONS_PER_PAGE = 2
    settings.LEAGUE_ARCHIVE_WEEKS_PER_PAGE = 1
    settings.LEAGUE_ARCHIVE_STANDINGS_PER_PAGE = 1
    ana, bea = make_user("ana"), make_user("bea")
    store_finished([ana, bea, None, None], 3)
    replayed = store_played([ana, None, None, None])
    for index in range(3):
        economy_services.ledger_grant(user=ana, amount=10 + index, idempotency_key=f"q{index}")
    for match_id, user, week in ((9000, ana, 0), (9001, bea, 0), (9002, ana, 1)):
        when = MIDWEEK + timedelta(days=7 * week)
        league_points_record(user=user, match_id=match_id, points=5, finished_at=when)
    league_weeks_close_due(now=MIDWEEK + timedelta(days=14))
    week = LeagueWeek.objects.filter(status="closed").order_by("starts_at").first()
    history_pages = -(-PlayerMatch.objects.filter(user=ana).count() // 2)
    wallet_pages = -(-economy_selectors.user_transactions(ana).count() // 2)
    steps = replayed.version  # the replay's last step
    # A daily deal ana finished: its side-by-side replay stops at a few moments.
    from daily.models import DailyPlay
    from daily.selectors import deal_view
    from tests.daily.conftest import play_day

    settings.BOT_RUNNER, settings.DAILY_BOT_LEVEL = "off", "easy"
    play_day(ana, timezone.now(), deals=1)
    play = DailyPlay.objects.select_related("deal__day").get()
    moments = deal_view(deal=play.deal, mine=play, moment=0).moments
    daily_url = f"/daily/{play.deal.day.date.isoformat()}/deals/1/"
    from clubs.services import club_create

    club = club_create(user=ana, name="Los Ases", description="", language="es", admission="open")
    return ana, [
        ("clubs/views.py", "page", "/clubs/", "1", 2),
        ("clubs/views.py", "page", f"/clubs/{club.pk}/", "1", 2),
        ("daily/views.py", "at", daily_url, "1", moments),
        ("history/views.py", "page", "/history/", "2", history_pages + 1),
        ("history/views.py", "step", f"/history/matches/{replayed.pk}/", steps, steps + 1),
        ("economy/views.py", "page", "/wallet/", "2", wallet_pages + 1),
        ("leagues/views.py", "page", "/league/weeks/", "2", 3),
        ("leagues/views.py", "page", f"/league/weeks/{week.pk}/", "2", 3),
        ("leagues/views.py", "division", f"/league/weeks/{week.pk}/", Division.GOLD, 5),
        ("accounts/views.py", "match", "/u/bea/", replayed.pk, 2**63),
    ]


@pytest.mark.django_db
@pytest.mark.postgres
def test_every_numeric_query_parameter_answers_400_or_404_never_500(client, site):
    ana, parameters = site
    assert {(module, name) for module, name, *_ in parameters} == PARAMETERS
    client.force_login(ana)
    client.raise_request_exception = False  # a crash is a 500 here, counted below
    wrong = []
    for _module, name, url, valid, past_the_end in parameters:
        below = -1 if name in ("step", "at") else 0  # replay steps count from 0, the rest from 1
        cases = [(valid, 200), (past_the_end, 404), (below, 404)]
        cases += [(value, 404) for value in ABSENT] + [(value, 400) for value in MALFORMED]
        for value, status in cases:
            # Each request in a savepoint rolled back after it: a database error in
            # one (an aborted transaction) must not turn the next ones into 500s.
            savepoint = transaction.savepoint_create()
            response = client.get(url, {name: value})
            transaction.savepoint_rollback(savepoint)
            got = response.status_code
            if got != status or (status != 200 and 'class="error-page"' not in response.text):
                wrong.append(f"{url}?{name}={value!r}: {got}, expected {status}")
    assert not wrong, "\n".join(wrong)


def test_the_test_above_covers_every_number_a_view_reads_from_a_query_string():
    """A new numeric parameter must go through accounts.http.query_number and be
    listed above; no view reads the query string any other way but the history
    page's filter form (dates, names and choices, checked by the form) and the clubs'
    search form (a name and a language, checked by the form)."""
    read, raw = set(), set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            source = path.read_text()
            module = str(path.relative_to(ROOT))
            found = re.findall(r'query_number\(\s*request,\s*"(\w+)"', source)
            read |= {(module, name) for name in found}
            if re.search(r"request\.GET\b", source):
                raw.add(module)
    assert read == PARAMETERS
    assert raw == {"accounts/http.py", "history/views.py", "clubs/views.py"}
