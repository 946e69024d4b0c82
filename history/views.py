from django.contrib.auth.decorators import login_required
from django.template.response import TemplateResponse

from accounts.selectors import user_by_username
from games.models import Mode
from history import selectors
from history.presentation import Replay, hand_summaries, seat_names


@login_required
def history(request):
    mode = request.GET.get("mode") or None
    page, rows = selectors.history_page(request.user, mode=mode, page=request.GET.get("page"))
    return TemplateResponse(
        request,
        "history/history.html",
        {
            "page": page,
            "rows": rows,
            "mode": mode if mode in Mode.values else "",
            "modes": Mode.choices,
        },
    )


def record(request, username: str):
    player = user_by_username(username)
    return TemplateResponse(
        request,
        "history/record.html",
        {"player": player, "record": selectors.player_record(player)},
    )


def match(request, match_id: int):
    stored = selectors.finished_match(match_id)
    names = seat_names(stored.seats)
    replay = Replay(stored.record, names)
    frame = replay.frame(replay.clamp(request.GET.get("step", 0)))
    # Players of the match may report the other people who sat at it.
    played = request.user.is_authenticated and any(
        seat.user_id == request.user.pk for seat in stored.seats
    )
    reportable = (
        [s.user for s in stored.seats if s.user_id and s.user_id != request.user.pk]
        if played
        else []
    )
    partial = bool(request.htmx) and request.htmx.target == "replay"
    template = "history/match.html#replay" if partial else "history/match.html"
    return TemplateResponse(
        request,
        template,
        {
            "stored": stored,
            "match": stored.match,
            "names": names,
            "seats": stored.seats,
            "results": [] if partial else selectors.match_results(stored),
            "hands": [] if partial else hand_summaries(stored.engine, names),
            "frame": frame,
            "reportable": reportable,
        },
    )
