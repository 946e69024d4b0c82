"""The review queue in the admin: moderators see the flagged pairs, strongest first,
read the evidence with each match's replay a link away, and decide with a note;
nobody else may."""

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse
from django.utils import timezone

from fairplay.models import CloseDecision, FlagMatch, FlagRole, FlagStatus, PairFlag

pytestmark = pytest.mark.django_db

QUEUE = reverse("admin:fairplay_pairflag_changelist")


def make_flag(a, b, *, strength=4.0, status=FlagStatus.OPEN, **fields):
    now = timezone.now()
    return PairFlag.objects.create(
        user_a=a,
        user_b=b,
        strength=strength,
        status=status,
        reasons=["lucky"],
        created_at=now,
        updated_at=now,
        window_days=90,
        **fields,
    )


def evidence(flag, match, user, *, number):
    """The match shown with the flag (the pair won it), and one close decision of
    `user` in it at step `number`, found."""
    FlagMatch.objects.create(
        flag=flag,
        match=match,
        role=FlagRole.PARTNERS,
        mode="online",
        finished_at=match.finished_at,
        a_won=True,
        close=1,
        hits=1,
    )
    CloseDecision.objects.get_or_create(
        match=match,
        number=number,
        defaults={
            "hand_no": 1,
            "seat": 0,
            "user": user,
            "band": 1500,
            "chosen": "3o",
            "near": {"3o": [0.1, 24], "1o": [0.05, -6]},
            "unit": "points",
            "hit": True,
        },
    )


@pytest.fixture
def flags(people):
    a, b, c, d, e, f = people[:6]
    return {
        "weak": make_flag(a, b, strength=3.6),
        "strong": make_flag(c, d, strength=7.1),
        "dismissed": make_flag(e, f, strength=5.0, status=FlagStatus.DISMISSED),
    }


def decide_url(flag, decision):
    return reverse(f"admin:fairplay_pairflag_{decision}", args=[flag.pk])


def test_the_queue_lists_the_open_flags_strongest_first(client, moderator, flags):
    client.force_login(moderator)
    response = client.get(QUEUE)
    assert response.status_code == 200
    shown = list(response.context["cl"].result_list)
    assert shown == [flags["strong"], flags["weak"]]
    every = list(client.get(QUEUE, {"status": "all"}).context["cl"].result_list)
    assert every == [flags["strong"], flags["dismissed"], flags["weak"]]
    dismissed = client.get(QUEUE, {"status": "dismissed"}).context["cl"].result_list
    assert list(dismissed) == [flags["dismissed"]]


def test_a_status_that_does_not_exist_lists_nothing(client, moderator, flags):
    client.force_login(moderator)
    response = client.get(QUEUE, {"status": "banned"})
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == []


def test_a_flag_shows_its_evidence_with_each_match_and_its_replay(client, moderator, people, store):
    a, b, c, d = people[:4]
    match = store([a, c, b, d])
    flag = make_flag(a, b, lucky_z_a=4.2, close_decisions=12, lucky_hits=11)
    evidence(flag, match, a, number=7)
    client.force_login(moderator)
    page = client.get(reverse("admin:fairplay_pairflag_change", args=[flag.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    replay = reverse("history_match", args=[match.pk])
    assert f'href="{replay}"' in html
    assert f'href="{replay}?step=7"' in html
    assert reverse("admin:games_match_change", args=[match.pk]) in html
    assert reverse("admin:accounts_user_change", args=[a.pk]) in html
    assert "+4,2" in client.get(QUEUE).content.decode()  # Spanish decimals
    assert decide_url(flag, "dismiss") in html and decide_url(flag, "confirm") in html


def test_a_moderator_confirms_a_flag_with_a_note(client, moderator, flags):
    client.force_login(moderator)
    flag = flags["strong"]
    form = client.get(decide_url(flag, "confirm"))
    assert form.status_code == 200
    response = client.post(decide_url(flag, "confirm"), {"note": "Same household, shares cards."})
    assert response.status_code == 302 and response.url == QUEUE
    flag.refresh_from_db()
    assert (flag.status, flag.reviewed_by, flag.note) == (
        FlagStatus.CONFIRMED,
        moderator,
        "Same household, shares cards.",
    )
    assert LogEntry.objects.filter(user=moderator, object_id=str(flag.pk)).exists()


def test_a_moderator_opens_a_dismissed_flag_again(client, moderator, flags):
    client.force_login(moderator)
    flag = flags["dismissed"]
    url = reverse("admin:fairplay_pairflag_reopen", args=[flag.pk])
    response = client.post(url, {"note": "They are at it again."})
    assert response.status_code == 302
    flag.refresh_from_db()
    assert flag.status == FlagStatus.OPEN


@pytest.mark.parametrize("note", ["", "   "])
def test_a_decision_without_a_note_is_refused_and_changes_nothing(client, moderator, flags, note):
    client.force_login(moderator)
    flag = flags["weak"]
    response = client.post(decide_url(flag, "dismiss"), {"note": note})
    assert response.status_code == 400
    assert response.context["form"].errors
    flag.refresh_from_db()
    assert flag.status == FlagStatus.OPEN and not LogEntry.objects.exists()


def test_deciding_a_decided_flag_again_says_why_and_changes_nothing(client, moderator, flags):
    client.force_login(moderator)
    flag = flags["dismissed"]
    response = client.post(decide_url(flag, "confirm"), {"note": "Cheats after all."})
    assert response.status_code == 400
    assert response.context["form"].non_field_errors()
    flag.refresh_from_db()
    assert flag.status == FlagStatus.DISMISSED
    reopen = reverse("admin:fairplay_pairflag_reopen", args=[flags["weak"].pk])
    assert client.post(reopen, {"note": "Open?"}).status_code == 400


@pytest.mark.parametrize("decision", ["ban", "dismissed", "CONFIRM", "x" * 50])
def test_a_decision_the_queue_does_not_know_is_not_found(client, moderator, flags, decision):
    client.force_login(moderator)
    url = f"/admin/fairplay/pairflag/{flags['weak'].pk}/{decision}/"
    response = client.post(url, {"note": "Why."})
    assert response.status_code in (302, 404)  # the admin's "no such page": nothing done
    flags["weak"].refresh_from_db()
    assert flags["weak"].status == FlagStatus.OPEN


def test_a_flag_that_does_not_exist_is_not_found(client, moderator):
    client.force_login(moderator)
    url = reverse("admin:fairplay_pairflag_dismiss", args=[999999])
    assert client.post(url, {"note": "Why."}).status_code == 404
    assert client.get(reverse("admin:fairplay_pairflag_reopen", args=[999999])).status_code == 404
    change = reverse("admin:fairplay_pairflag_change", args=[999999])
    assert client.get(change).status_code in (302, 404)  # the admin's "no such object"


def test_people_who_are_not_staff_never_see_the_queue(client, people, flags):
    client.force_login(people[6])
    for url in (
        QUEUE,
        reverse("admin:fairplay_pairflag_change", args=[flags["weak"].pk]),
        decide_url(flags["weak"], "dismiss"),
    ):
        response = client.get(url)
        assert response.status_code == 302 and "/login/" in response.url
    client.post(decide_url(flags["weak"], "dismiss"), {"note": "Mine."})
    flags["weak"].refresh_from_db()
    assert flags["weak"].status == FlagStatus.OPEN


def test_staff_outside_the_moderators_may_neither_read_nor_decide(client, make_user, flags):
    clerk = make_user("clerk", is_staff=True)
    client.force_login(clerk)
    assert client.get(QUEUE).status_code == 403
    response = client.post(decide_url(flags["weak"], "dismiss"), {"note": "Fine."})
    assert response.status_code == 403
    flags["weak"].refresh_from_db()
    assert flags["weak"].status == FlagStatus.OPEN


def test_the_screens_runs_and_baseline_are_read_only(client, moderator):
    client.force_login(moderator)
    for name in ("screenrun", "baselineband", "screenedmatch"):
        assert client.get(reverse(f"admin:fairplay_{name}_changelist")).status_code == 200
        assert client.get(reverse(f"admin:fairplay_{name}_add")).status_code == 403
