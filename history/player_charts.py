"""The charts of the player page and of a replay, built from the selectors' figures."""

from __future__ import annotations

import itertools
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from history.charts import Chart, Series, bar_chart, line_chart
from history.presentation import bid_label
from history.selectors import LeagueWeekLine, PlayerStats, WalletMonth
from ratings.selectors import RatingPoint


def _outcome_series(results: list[Any]) -> list[Series]:
    return [
        Series(pgettext("matches", "Won"), [r.won for r in results]),
        Series(pgettext("matches", "Lost"), [r.lost for r in results]),
        Series(pgettext("matches", "Abandoned"), [r.abandoned for r in results]),
    ]


def _outcome_rows(labels: list[str], results: list[Any]) -> list[list[Any]]:
    return [
        [label, r.played, r.won, r.lost, r.abandoned]
        for label, r in zip(labels, results, strict=True)
    ]


def _outcome_head(first: str) -> list[str]:
    return [
        first,
        _("Played"),
        pgettext("matches", "Won"),
        pgettext("matches", "Lost"),
        pgettext("matches", "Abandoned"),
    ]


def results_by_mode(stats: PlayerStats) -> Chart:
    labels = [r.label for r in stats.by_mode]
    return bar_chart(
        title=_("Results by mode"),
        summary=", ".join(
            ngettext(
                "%(mode)s: %(played)s match, %(won)s won",
                "%(mode)s: %(played)s matches, %(won)s won",
                r.played,
            )
            % {"mode": r.label, "played": r.played, "won": r.won}
            for r in stats.by_mode
        ),
        categories=labels,
        series=_outcome_series(stats.by_mode),
        stacked=True,
        table_head=_outcome_head(_("Mode")),
        table_rows=_outcome_rows(labels, stats.by_mode),
    )


def results_by_month(stats: PlayerStats) -> Chart:
    short = [formats.date_format(month, "M") for month, _r in stats.by_month]
    long = [formats.date_format(month, "YEAR_MONTH_FORMAT") for month, _r in stats.by_month]
    results = [r for _month, r in stats.by_month]
    played = sum(r.played for r in results)
    return bar_chart(
        title=_("Matches month by month"),
        summary=ngettext(
            "%(played)s match over the last %(months)s months, %(won)s won.",
            "%(played)s matches over the last %(months)s months, %(won)s won.",
            played,
        )
        % {"played": played, "months": len(results), "won": sum(r.won for r in results)},
        categories=short,
        series=_outcome_series(results),
        stacked=True,
        table_head=_outcome_head(_("Month")),
        table_rows=_outcome_rows(long, results),
    )


def contracts(stats: PlayerStats) -> Chart:
    lines = stats.contracts
    labels = [bid_label(line.contract) for line in lines]
    return bar_chart(
        title=_("Contracts bid, played and made"),
        summary="; ".join(
            _("%(contract)s: bid %(bids)s, played %(played)s, made %(made)s")
            % {"contract": label, "bids": c.bids, "played": c.played, "made": c.made}
            for label, c in zip(labels, lines, strict=True)
        ),
        categories=labels,
        series=[
            Series(_("Bid"), [c.bids for c in lines]),
            Series(_("Played as declarer"), [c.played for c in lines]),
            Series(_("Made"), [c.made for c in lines]),
        ],
        stacked=False,
        table_head=[_("Contract"), _("Bid"), _("Played as declarer"), _("Made"), _("Made (%)")],
        table_rows=[
            [label, c.bids, c.played, c.made, c.made_percent]
            for label, c in zip(labels, lines, strict=True)
        ],
    )


def league(weeks: list[LeagueWeekLine], divisions: dict[int, Any]) -> Chart:
    dates = [formats.date_format(w.starts_at, "SHORT_DATE_FORMAT") for w in weeks]
    return line_chart(
        title=_("League division week by week"),
        summary="; ".join(
            _("week of %(date)s: %(division)s, rank %(rank)s")
            % {"date": d, "division": w.division_label, "rank": w.rank}
            for d, w in zip(dates, weeks, strict=True)
        ),
        categories=[formats.date_format(w.starts_at, "j M") for w in weeks],
        series=[Series(_("Division"), [w.division for w in weeks])],
        low=min(divisions) - 0.5,
        high=max(divisions) + 0.5,
        y_labels={float(value): label for value, label in divisions.items()},
        table_head=[_("Week of"), _("Division"), _("Rank"), _("Points")],
        table_rows=[
            [d, w.division_label, w.rank, w.points] for d, w in zip(dates, weeks, strict=True)
        ],
    )


def rating(points: list[RatingPoint]) -> Chart | None:
    """The rating after each of the latest rated matches (and resets), oldest first,
    drawn from the rating before the first of them (a newcomer's 1500): one match is
    a line from where the player started, not a lone dot."""
    if not points:
        return None
    start = points[0].value - points[0].change
    start_label = pgettext("rating chart", "Start")
    dates = [formats.date_format(p.at, "SHORT_DATE_FORMAT") for p in points]
    values = [start, *(p.value for p in points)]
    low = (min(values) - 50) // 100 * 100

    def shown(p: RatingPoint) -> str:
        return f"{p.value}?" if p.provisional else str(p.value)

    def change(p: RatingPoint) -> str:
        if p.reset:
            return _("reset")
        return f"+{p.change}" if p.change > 0 else f"\u2212{-p.change}" if p.change else "±0"

    return line_chart(
        title=_("Rating match by match"),
        summary=ngettext(
            "Rating %(now)s after the latest rated match, from %(first)s.",
            "Rating %(now)s after the latest %(n)s rated matches, from %(first)s.",
            len(points),
        )
        % {"now": shown(points[-1]), "n": len(points), "first": start},
        categories=[start_label, *(formats.date_format(p.at, "j M") for p in points)],
        series=[Series(_("Rating"), [float(v) for v in values])],
        low=float(low),
        table_head=[_("Date"), _("Rating"), pgettext("rating", "Change")],
        table_rows=[
            [start_label, str(start), ""],
            *([d, shown(p), change(p)] for d, p in zip(dates, points, strict=True)),
        ],
    )


def wallet(months: list[WalletMonth]) -> tuple[Chart, Chart]:
    short = [formats.date_format(m.month, "M") for m in months]
    long = [formats.date_format(m.month, "YEAR_MONTH_FORMAT") for m in months]
    head = [_("Month"), _("Coins"), _("XP"), _("Level")]
    rows = [[label, m.coins, m.xp, m.level] for label, m in zip(long, months, strict=True)]
    last = months[-1] if months else None
    coins = line_chart(
        title=_("Coins at the end of each month"),
        summary=_("Now %(coins)s coins.") % {"coins": last.coins if last else 0},
        categories=short,
        series=[Series(_("Coins"), [m.coins for m in months])],
        table_head=head,
        table_rows=rows,
    )
    xp = line_chart(
        title=_("XP at the end of each month"),
        summary=_("Now %(xp)s XP, level %(level)s.")
        % {"xp": last.xp if last else 0, "level": last.level if last else 1},
        categories=short,
        series=[Series(_("XP"), [m.xp for m in months])],
        table_head=head,
        table_rows=rows,
    )
    return coins, xp


def levels_reached(months: list[WalletMonth]) -> list[tuple[Any, int]]:
    """(month, level) for each month in which a new level was reached."""
    reached = []
    for before, month in itertools.pairwise(months):
        if month.level > before.level:
            reached.append((month.month, month.level))
    return reached


def scores_by_hand(hands: list[dict[str, Any]], pair_names: tuple[str, str], target: int) -> Chart:
    """The replay's chart: each pair's match score after every hand."""
    categories = ["0", *(str(h["number"]) for h in hands)]
    pair_a = [0, *(h["score_after"][0] for h in hands)]
    pair_b = [0, *(h["score_after"][1] for h in hands)]
    return line_chart(
        title=_("Score hand by hand"),
        summary=ngettext(
            "%(a)s end on %(sa)s, %(b)s on %(sb)s, after %(n)s hand.",
            "%(a)s end on %(sa)s, %(b)s on %(sb)s, after %(n)s hands.",
            len(hands),
        )
        % {
            "a": pair_names[0],
            "b": pair_names[1],
            "sa": pair_a[-1],
            "sb": pair_b[-1],
            "n": len(hands),
        },
        categories=categories,
        series=[Series(pair_names[0], pair_a), Series(pair_names[1], pair_b)],
        target=(target, _("Target: %(points)s") % {"points": target}),
        table_head=[_("After hand"), pair_names[0], pair_names[1]],
        table_rows=[[n, a, b] for n, a, b in zip(categories, pair_a, pair_b, strict=True)][1:],
    )


def coach_accuracy(rows: list[Any]) -> Chart:
    """The coach's trend: the player's accuracy in each of their last analysed matches
    (`coach.selectors.accuracy_trend`, oldest first)."""
    dates = [formats.date_format(r.finished_at, "SHORT_DATE_FORMAT") for r in rows]
    rated = [r.accuracy for r in rows if r.accuracy is not None]
    summary = (
        ngettext(
            "%(n)s analysed match, average accuracy %(avg)s, last %(last)s.",
            "%(n)s analysed matches, average accuracy %(avg)s, last %(last)s.",
            len(rows),
        )
        % {"n": len(rows), "avg": round(sum(rated) / len(rated)), "last": rated[-1]}
        if rated
        else _("No analysed match yet.")
    )
    return line_chart(
        title=_("Accuracy in your last analysed matches"),
        summary=summary,
        categories=[formats.date_format(r.finished_at, "j M") for r in rows],
        series=[Series(_("Accuracy"), [r.accuracy for r in rows])],
        low=0,
        high=100,
        y_labels={float(v): str(v) for v in (0, 25, 50, 75, 100)},
        table_head=[
            _("Match of"),
            _("Accuracy"),
            _("Decisions judged"),
            _("Mistakes and blunders"),
        ],
        table_rows=[
            [d, "—" if r.accuracy is None else r.accuracy, r.judged, r.mistakes + r.blunders]
            for d, r in zip(dates, rows, strict=True)
        ],
    )


def coach_losses(rows: list[Any]) -> list[dict[str, Any]]:
    """Where the player loses expected match points, by kind of decision, over the same
    matches: decisions judged, points lost, and lost per decision; the kind with the
    most points lost first (`worst` marks it when anything was lost)."""
    kinds = [
        ("bids", "lost_bids", pgettext("coach decisions", "Bids")),
        ("leads", "lost_leads", pgettext("coach decisions", "Leads")),
        ("follows", "lost_follows", pgettext("coach decisions", "Following")),
    ]
    lines = []
    for count_field, lost_field, label in kinds:
        count = sum(getattr(r, count_field) for r in rows)
        lost = sum(getattr(r, lost_field) for r in rows)
        lines.append(
            {
                "label": label,
                "judged": count,
                "lost": formats.number_format(lost, decimal_pos=1),
                "per_decision": formats.number_format(lost / count, decimal_pos=2)
                if count
                else "—",
                "value": lost,
            }
        )
    lines.sort(key=lambda line: -line["value"])
    if lines and lines[0]["value"] > 0:
        lines[0]["worst"] = True
    return lines
