"""One PlayerMatch per person of every match finished before this app recorded them."""

from django.db import migrations

from cuatrola.engine import Match as EngineMatch
from history.figures import seat_figures

CHUNK = 500


def _record(match, actions_by_hand):
    if match.record.get("hands"):
        return match.record
    hands = [
        {
            "rules": match.rules,
            "dealer": hand.dealer,
            "scores": list(hand.scores_before),
            "deal": hand.deal,
            "trump": hand.trump,
            "actions": actions_by_hand.get(hand.number, []),
        }
        for hand in match.hands.filter(number__lte=match.hand_no).order_by("number")
    ]
    if not hands:
        return None
    return {
        "format": 1,
        "rules": match.rules,
        "seed": match.seed,
        "first_dealer": match.first_dealer,
        "hands": hands,
    }


def backfill(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    MatchSeat = apps.get_model("games", "MatchSeat")
    MatchAction = apps.get_model("games", "MatchAction")
    PlayerMatch = apps.get_model("history", "PlayerMatch")
    finished = Match.objects.filter(status="finished").select_related("table").order_by("pk")
    rows = []
    for match in finished.iterator(chunk_size=CHUNK):
        seats = list(MatchSeat.objects.filter(match=match).order_by("position"))
        if not any(seat.user_id for seat in seats):
            continue
        engine = None
        actions = {}
        if not match.record.get("hands"):
            logged = MatchAction.objects.filter(match=match, number__lte=match.version)
            for hand_no, action in logged.order_by("number").values_list("hand_no", "action"):
                actions.setdefault(hand_no, []).append(action)
        record = _record(match, actions)
        if record is not None:
            engine = EngineMatch.from_dict(record)
        users = {seat.position: seat.user_id for seat in seats}
        scores = (match.score_a, match.score_b)
        for seat in seats:
            if seat.user_id is None:
                continue
            p = seat.position
            outcome = "abandoned" if seat.abandoned else "won" if seat.won else "lost"
            rows.append(
                PlayerMatch(
                    match_id=match.pk,
                    user_id=seat.user_id,
                    position=p,
                    mode=match.table.mode,
                    rules=match.rules,
                    finished_at=match.finished_at or match.started_at,
                    outcome=outcome,
                    partner_id=users.get((p + 2) % 4),
                    opponent_1_id=users.get((p + 1) % 4),
                    opponent_2_id=users.get((p + 3) % 4),
                    own_score=scores[p % 2],
                    other_score=scores[1 - p % 2],
                    place=seat.place,
                    **(seat_figures(engine, p) if engine is not None else {}),
                )
            )
        if len(rows) >= CHUNK:
            PlayerMatch.objects.bulk_create(rows, ignore_conflicts=True)
            rows = []
    PlayerMatch.objects.bulk_create(rows, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("history", "0001_initial"),
        ("games", "0004_seat_reliability"),
    ]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
