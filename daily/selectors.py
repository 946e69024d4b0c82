"""Reads for the daily deal's pages (a few queries each, none per row)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from daily.deals import DEALS, RULES, TURN_NAMES, deal_dealer, deal_seed
from daily.models import DailyDay, DailyDeal, DailyEntry, DailyPlay, DayStatus, PlayStatus
from daily.scoring import deal_scores
from daily.services import day_end, day_of
from games.state import record_from_log
from history.charts import Chart, Series, bar_chart
from history.hooks import PlayerSection
from history.presentation import Replay


def turn_label(turn: str) -> str:
    """The player's place in the bidding order, in the page's language."""
    labels = {
        "mano": pgettext("daily deal seat", "mano (first to speak)"),
        "second": pgettext("daily deal seat", "second to speak"),
        "third": pgettext("daily deal seat", "third to speak"),
        "dealer": pgettext("daily deal seat", "dealer (last to speak)"),
    }
    return labels[turn]


def result_label(result: int | None) -> str:
    """A deal's result as the pages write it: +2, −1, or a dash for not finished."""
    if result is None:
        return "—"
    return f"+{result}" if result > 0 else f"−{-result}"


# --- The day's page ---------------------------------------------------------------


@dataclass
class DealLine:
    number: int
    turn: str
    status: str  # "todo", "next", "playing", "finished", "expired"
    result: int | None = None
    percent: float | None = None
    #: Nobody else has finished this deal: its percentage compares with no one yet.
    alone: bool = False

    @property
    def result_text(self) -> str:
        return result_label(self.result)


@dataclass
class DayView:
    when: date
    day: DailyDay | None
    entry: DailyEntry | None
    deals: list[DealLine]
    next_number: int | None
    in_progress: bool
    closes_at: Any
    yesterday: DailyEntry | None = None
    streak: int = 0


def day_view(*, user: Any, now: Any = None) -> DayView:
    """Today's deals as `user` stands with them."""
    now = now or timezone.now()
    today = day_of(now)
    day = DailyDay.objects.filter(date=today).first()
    entry = (
        DailyEntry.objects.filter(day=day, user=user).first()
        if day is not None and user.is_authenticated
        else None
    )
    plays = (
        {p.deal.number: p for p in DailyPlay.objects.filter(entry=entry).select_related("deal")}
        if entry is not None
        else {}
    )
    finishers: dict[int, int] = {}
    if any(p.status == PlayStatus.FINISHED for p in plays.values()):
        finishers = dict(
            DailyPlay.objects.filter(
                deal__day=day, status=PlayStatus.FINISHED, entry__voided_at__isnull=True
            )
            .values_list("deal__number")
            .annotate(n=Count("pk"))
            .values_list("deal__number", "n")
        )
    lines = []
    next_number = None
    in_progress = False
    for number in range(1, DEALS + 1):
        play = plays.get(number)
        turn = TURN_NAMES[deal_dealer(number)]
        if play is None:
            status = "next" if next_number is None else "todo"
            if next_number is None:
                next_number = number
            lines.append(DealLine(number, turn, status))
        elif play.status == PlayStatus.PLAYING:
            next_number, in_progress = number, True
            lines.append(DealLine(number, turn, "playing"))
        else:
            alone = play.status == PlayStatus.FINISHED and finishers.get(number, 0) <= 1
            lines.append(DealLine(number, turn, play.status, play.result, play.percent, alone))
    if entry is not None and entry.voided_at is not None:
        next_number = None
    yesterday = None
    if user.is_authenticated:
        yesterday = (
            DailyEntry.objects.filter(
                user=user, day__date=today - timedelta(days=1), day__status=DayStatus.CLOSED
            )
            .select_related("day")
            .first()
        )
    return DayView(
        when=today,
        day=day,
        entry=entry,
        deals=lines,
        next_number=next_number,
        in_progress=in_progress,
        closes_at=day_end(today),
        yesterday=yesterday,
        streak=streak_of(user) if user.is_authenticated else 0,
    )


# --- The ranking ------------------------------------------------------------------


def day_over(day: DailyDay, now: Any = None) -> bool:
    """Whether `day` has ended (Europe/Madrid midnight) or was closed: from then on
    anyone may see its deals' other hands and best lines (docs/daily.md, "Secrecy")."""
    return day.status == DayStatus.CLOSED or (now or timezone.now()) >= day_end(day.date)


@dataclass
class Ranking:
    when: date
    day: DailyDay | None
    final: bool
    #: The day has ended: its deals' pages show the best lines (`day_over`).
    over: bool
    rows: list[DailyEntry]
    mine: DailyEntry | None
    mine_listed: bool
    previous_day: date | None
    next_day: date | None


def ranking(*, day: date, user: Any) -> Ranking:
    """The top DAILY_RANKING_TOP of a day and the viewer's own line: two queries on the
    (day, rank) index, whatever the number of players."""
    row = DailyDay.objects.filter(date=day).first()
    rows: list[DailyEntry] = []
    mine = None
    if row is not None:
        rows = list(
            DailyEntry.objects.filter(
                day=row, rank__isnull=False, rank__lte=settings.DAILY_RANKING_TOP
            )
            .select_related("user")
            .only(
                "rank",
                "score",
                "deals_finished",
                "prize_coins",
                "finished_at",
                "user__username",
                "day_id",
            )
            .order_by("rank", "user__username")[: settings.DAILY_RANKING_TOP + 50]
        )
        if user.is_authenticated:
            mine = DailyEntry.objects.filter(day=row, user=user).first()
    listed = mine is not None and any(r.pk == mine.pk for r in rows)
    previous = (
        DailyDay.objects.filter(date__lt=day)
        .order_by("-date")
        .values_list("date", flat=True)
        .first()
    )
    following = (
        DailyDay.objects.filter(date__gt=day)
        .order_by("date")
        .values_list("date", flat=True)
        .first()
    )
    return Ranking(
        when=day,
        day=row,
        final=row is not None and row.status == DayStatus.CLOSED,
        over=row is not None and day_over(row),
        rows=rows,
        mine=mine,
        mine_listed=listed,
        previous_day=previous,
        next_day=following,
    )


# --- A deal: its results and the best line ---------------------------------------


@dataclass
class Side:
    """One line of play of the deal at one moment of the side-by-side replay."""

    title: str
    result: int | None
    frame: dict[str, Any]

    @property
    def result_text(self) -> str:
        return result_label(self.result)


@dataclass
class DealView:
    deal: DailyDeal
    turn: str
    mine: DailyPlay | None
    best: DailyPlay | None
    players: int
    chart: Chart | None
    rows: list[dict[str, Any]]
    #: The day has ended: the best line and every hand are shown (`day_over`);
    #: before, only the player's own play from their seat, other hands hidden.
    over: bool = True
    moment: int = 0
    moments: int = 1
    moment_label: str = ""
    sides: list[Side] = field(default_factory=list)

    @property
    def mine_text(self) -> str:
        return result_label(self.mine.result if self.mine is not None else None)


def deal_visible(*, deal: DailyDeal, user: Any, now: Any = None) -> tuple[bool, DailyPlay | None]:
    """Whether `user` may see the deal's results and lines (after they finished it, or
    it was stopped; anyone logged in once its day is over), and the user's play."""
    now = now or timezone.now()
    mine = (
        DailyPlay.objects.filter(deal=deal, entry__user=user).select_related("match").first()
        if user.is_authenticated
        else None
    )
    return day_over(deal.day, now) or (mine is not None and mine.status != PlayStatus.PLAYING), mine


def deal_view(
    *, deal: DailyDeal, mine: DailyPlay | None, moment: int | None, now: Any = None
) -> DealView:
    """The deal's results, and its lines: the player's own and, once the day is over,
    the best-scoring one. Before the day ends a player who finished the deal sees
    their own play from their seat only (the other hands' cards hidden, no best
    line): the deal and the bots' answers are the same for everyone, so a line shown
    during the day could be copied move for move by another account."""
    final = deal.day.status == DayStatus.CLOSED
    over = day_over(deal.day, now)
    counts: dict[int, int] = {}
    for result, n in (
        DailyPlay.objects.filter(
            deal=deal, status=PlayStatus.FINISHED, entry__voided_at__isnull=True
        )
        .values_list("result")
        .annotate(n=Count("pk"))
        .values_list("result", "n")
    ):
        if result is not None:
            counts[result] = n
    unfinished = 0
    if final:
        unfinished = (
            DailyPlay.objects.filter(deal=deal, entry__voided_at__isnull=True)
            .exclude(status=PlayStatus.FINISHED)
            .count()
        )
    scores = deal_scores(counts, unfinished=unfinished)
    results = sorted(counts)
    rows: list[dict[str, Any]] = [
        {
            "result": result,
            "label": result_label(result),
            "players": counts[result],
            "percent": scores.percent(scores.by_result[result]),
            "mine": mine is not None and mine.result == result,
        }
        for result in reversed(results)
    ]
    if unfinished:
        rows.append(
            {
                "result": None,
                "label": _("not finished"),
                "players": unfinished,
                "percent": scores.percent(scores.worst),
                "mine": mine is not None and mine.status != PlayStatus.FINISHED,
            }
        )
    chart = None
    if rows:
        categories = [str(r["label"]) for r in reversed(rows)]
        chart = bar_chart(
            title=_("Results of deal %(n)s") % {"n": deal.number},
            summary=_("How many players took each result (match points of their pair)."),
            categories=categories,
            series=[Series(_("Players"), [float(r["players"]) for r in reversed(rows)])],
            stacked=False,
            table_head=[_("Result"), _("Players"), pgettext("daily percentage", "Score")],
            table_rows=[[r["label"], r["players"], f"{r['percent']:.1f} %"] for r in rows],
        )
    best = (
        DailyPlay.objects.filter(
            deal=deal, status=PlayStatus.FINISHED, entry__voided_at__isnull=True
        )
        .select_related("match", "entry__user")
        .order_by("-result", "finished_at", "pk")
        .first()
        if over
        else None
    )
    view = DealView(
        deal=deal,
        turn=TURN_NAMES[deal.dealer],
        mine=mine,
        best=best,
        players=scores.players,
        chart=chart,
        rows=rows,
        over=over,
    )
    _sides(view, moment)
    return view


def _moments(replay: Replay) -> list[int]:
    """The steps the side-by-side replay stops at: the deal, the end of the bidding,
    the end of each trick (the last one ends the deal)."""
    return [0, *replay.boundaries] if replay.boundaries else [0]


def _sides(view: DealView, moment: int | None) -> None:
    names = [
        pgettext("daily deal seat name", "You"),
        pgettext("daily deal seat name", "Right-hand opponent"),
        pgettext("daily deal seat name", "Partner"),
        pgettext("daily deal seat name", "Left-hand opponent"),
    ]
    lines: list[tuple[str, DailyPlay]] = []
    if view.mine is not None and view.mine.status == PlayStatus.FINISHED:
        lines.append((_("Your play"), view.mine))
    if view.best is not None:
        lines.append((_("The best-scoring line"), view.best))
    replays = []
    for title, play in lines:
        assert play.match is not None
        replay = Replay(record_from_log(play.match), names)
        replays.append((title, play, replay, _moments(replay)))
    if not replays:
        return
    view.moments = max(len(m) for *_, m in replays)
    view.moment = min(max(moment or 0, 0), view.moments - 1)  # the view refuses others
    view.moment_label = moment_label(view.moment)
    for title, play, replay, moments in replays:
        step = moments[min(view.moment, len(moments) - 1)]
        frame = replay.frame(step)
        if not view.over:
            _hide_other_hands(frame)
        view.sides.append(Side(title=title, result=play.result, frame=frame))


def _hide_other_hands(frame: dict[str, Any]) -> None:
    """The replay frame as the player's seat (0) saw it: the cards still in the other
    hands are replaced by their number."""
    for seat in frame["seats"]:
        if seat["seat"] != 0:
            seat["hidden"] = len(seat["cards"])
            seat["cards"] = []


def moment_label(moment: int) -> str:
    if moment == 0:
        return _("The deal")
    if moment == 1:
        return _("After the bidding")
    return _("After trick %(n)s") % {"n": moment - 1}


# --- The player page ----------------------------------------------------------------


def streak_of(user: Any, today: date | None = None) -> int:
    """Days in a row the player played the set through, up to today (or yesterday,
    while today's is still to play)."""
    today = today or day_of(timezone.now())
    days = set(
        DailyEntry.objects.filter(
            user=user,
            finished_at__isnull=False,
            voided_at__isnull=True,
            day__date__gte=today - timedelta(days=400),
        ).values_list("day__date", flat=True)
    )
    day = today if today in days else today - timedelta(days=1)
    streak = 0
    while day in days:
        streak += 1
        day -= timedelta(days=1)
    return streak


def best_streak(days: list[date]) -> int:
    best = run = 0
    previous = None
    for day in sorted(days):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    return best


def player_section(*, player: Any, viewer: Any) -> PlayerSection:
    """The player page's panel: the player's last days and their streak."""
    entries = list(
        DailyEntry.objects.filter(user=player)
        .select_related("day")
        .order_by("-day__date")[: settings.DAILY_PLAYER_DAYS]
    )
    through = list(
        DailyEntry.objects.filter(
            user=player, finished_at__isnull=False, voided_at__isnull=True
        ).values_list("day__date", flat=True)
    )
    return PlayerSection(
        template="daily/player_section.html",
        context={
            "entries": entries,
            "streak": streak_of(player),
            "best_streak": best_streak(through),
            "days_played": len(through),
        },
    )


def offline_deals(*, day: date) -> dict[str, Any]:
    """A past day's deals as the offline practice replays them: seed (a decimal
    string) and dealer (the stored ones; a day nobody opened is drawn as it would
    have been), and the last hand (1)."""
    stored = list(DailyDeal.objects.filter(day__date=day).order_by("number"))
    deals = [(d.number, d.seed, d.dealer) for d in stored] or [
        (n, deal_seed(secret=settings.DAILY_SECRET, day=day, number=n), deal_dealer(n))
        for n in range(1, DEALS + 1)
    ]
    return {
        "date": day.isoformat(),
        "rules": RULES,
        "last_hand": 1,
        "deals": [
            # The seed as a decimal string: 62 bits, which a JavaScript number
            # (exact to 2**53) would round, dealing other cards.
            {"number": number, "seed": str(seed), "dealer": dealer, "turn": TURN_NAMES[dealer]}
            for number, seed, dealer in deals
        ],
    }


def deals_counts(day: DailyDay) -> dict[str, int]:
    """Participation of a day, for the admin."""
    entries = DailyEntry.objects.filter(day=day)
    return entries.aggregate(
        players=Count("pk"),
        through=Count("pk", filter=Q(finished_at__isnull=False)),
        voided=Count("pk", filter=Q(voided_at__isnull=False)),
        prized=Count("pk", filter=Q(prize_coins__gt=0)),
    )
