from django.contrib.auth.decorators import login_required
from django.core.paginator import EmptyPage, Page
from django.http import Http404, HttpRequest
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest, query_number, user_or_404
from coach import selectors as coach_selectors
from coach.presentation import summary as coach_summary
from economy.levels import level_progress
from games.modes import mode_policy
from history import cached, player_charts, selectors
from history.forms import HistoryFilterForm
from history.hooks import player_sections
from history.presentation import Replay, hand_summaries, history_cells, replay_moves
from history.selectors import HistoryRow
from history.selectors import partners as pair_selectors
from leagues.selectors import division_labels
from ratings.selectors import player_rating, rating_history
from social.selectors import partnership, partnerships_of


@login_required
def history(request: AuthenticatedHttpRequest) -> TemplateResponse:
    """The player's own matches, filtered; a filter that makes no sense lists nothing
    and says why (the form's errors), it never falls back to everything."""
    number = query_number(request, "page", default=1, minimum=1)
    form = HistoryFilterForm(request.GET)  # every field optional: no query, no filter
    page: Page | None = None
    rows: list[HistoryRow] = []
    if form.is_valid():
        try:
            page, rows = selectors.history_page(request.user, filters=form.filters(), number=number)
        except EmptyPage:
            raise Http404(f"no page {number}") from None
    replay_text = _("View and replay")
    history_cells(rows, replay_text)
    query = request.GET.copy()
    query.pop("page", None)
    return TemplateResponse(
        request,
        "history/history.html",
        {
            "form": form,
            "filtered": any(v for k, v in request.GET.items() if k != "page"),
            "query": query.urlencode(),
            "page": page,
            "rows": rows,
            "form_errors": form.errors.as_json() if form.errors else "",
        },
    )


def record(request: HttpRequest, username: str) -> TemplateResponse:
    """The player page: public figures for everyone, the wallet for its owner only."""
    player = user_or_404(username)
    is_self = request.user.is_authenticated and request.user.pk == player.pk
    stats = cached.player_stats(player)
    weeks = selectors.league_weeks(player)
    context = {
        "player": player,
        "is_self": is_self,
        "stats": stats,
        "record": stats.totals,
        "reputation": stats.reputation,
        "mode_chart": player_charts.results_by_mode(stats),
        "month_chart": player_charts.results_by_month(stats),
        "contract_chart": player_charts.contracts(stats),
        "league_weeks": weeks,
        # Panels of apps above history (the daily deal's days): history.hooks.
        "player_sections": player_sections(player=player, viewer=request.user),
        "rating": player_rating(player.pk),
        # Registered pairs, standing ones first (docs/social.md, "Partners").
        "partnerships": partnerships_of(player.pk),
        "rating_chart": player_charts.rating(rating_history(player.pk)),
    }
    months = cached.wallet_by_month(player) if is_self else []
    # The owner's level is that of their XP now, the wallet's last month (one query less).
    context["level"] = level_progress(months[-1].xp) if months else selectors.level_of(player)
    if weeks:
        context["league_chart"] = player_charts.league(weeks, division_labels())
    if is_self:  # the coach's trends: the owner's page only
        trend = coach_selectors.accuracy_trend(user=player)
        if trend:
            context["coach_chart"] = player_charts.coach_accuracy(trend)
            context["coach_losses"] = player_charts.coach_losses(trend)
    if months:  # the owner's page only
        context["coins_chart"], context["xp_chart"] = player_charts.wallet(months)
        context["levels_reached"] = player_charts.levels_reached(months)
    return TemplateResponse(request, "history/record.html", context)


def match(request: HtmxHttpRequest, match_id: int) -> TemplateResponse:
    stored = selectors.finished_match(match_id)
    if stored is None:  # live, aborted or unknown: a live match's cards never show
        raise Http404
    if not mode_policy(stored.match.table.mode).in_history:
        raise Http404  # the daily deal's own pages show its matches, when they may
    names = stored.names
    replay = Replay(stored.record, names)
    frame = replay.frame(query_number(request, "step", default=0, minimum=0, maximum=replay.last))
    # Players of the match may report the other people who sat at it.
    played = request.user.is_authenticated and any(
        seat.user_id == request.user.pk for seat in stored.seats
    )
    reportable = (
        [s.user for s in stored.seats if s.user_id and s.user_id != request.user.pk]
        if played
        else []
    )
    # The table talk, for the players of the match and staff only (free text in a
    # friends room was said to them, not to every visitor of a public record).
    talk = selectors.match_talk(match_id) if played or request.user.is_staff else []
    partial = bool(request.htmx) and request.htmx.target == "replay"
    template = "history/match.html#replay" if partial else "history/match.html"
    coaching = coach_selectors.match_coaching(match_id)
    replay_moves(frame, replay, coaching, names, request.user)
    hands = [] if partial else hand_summaries(stored.engine, names)
    score_chart = None
    if hands:
        pairs = (f"{names[0]} · {names[2]}", f"{names[1]} · {names[3]}")
        score_chart = player_charts.scores_by_hand(hands, pairs, stored.engine.rules.target)
    return TemplateResponse(
        request,
        template,
        {
            "stored": stored,
            "match": stored.match,
            "names": names,
            "seats": stored.seats,
            "results": [] if partial else selectors.match_results(stored),
            "talk": talk,
            "talk_here": [line for line in talk if line["step"] == frame["step"]],
            "hands": hands,
            "score_chart": score_chart,
            "frame": frame,
            "reportable": reportable,
            "coach": None
            if partial
            else coach_summary(
                user=request.user,
                match_id=match_id,
                match_seats=stored.seats,
                names=names,
                coaching=coaching,
                now=timezone.now(),
            ),
        },
    )


def pair(request: HttpRequest, pair_id: str) -> TemplateResponse:
    """A registered pair's page, standing or dissolved (its history stays): the two,
    their pair rating, record and latest matches together."""
    found = partnership(int(pair_id))
    if found is None:
        raise Http404(_("There is no such pair."))
    member = request.user.is_authenticated and request.user.pk in (
        found.user_low_id,
        found.user_high_id,
    )
    context = {
        "pair": found,
        "member": member,
        "rating": pair_selectors.pair_rating(found),
        "record": pair_selectors.pair_record(found),
        "matches": pair_selectors.pair_matches(found),
    }
    return TemplateResponse(request, "history/pair.html", context)


def pairs(request: HttpRequest) -> TemplateResponse:
    """The pair leaderboard: standing pairs by pair rating."""
    return TemplateResponse(
        request,
        "history/pairs.html",
        {"board": pair_selectors.pair_leaderboard(), "size": pair_selectors.PAIR_BOARD_SIZE},
    )
