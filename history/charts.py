"""Charts drawn on the server as SVG (no JavaScript): geometry for history/chart.html.

A chart is data — categories along the bottom, one or more series of numbers — and
every chart carries the same figures as a table, shown under it as its text
alternative. Labels arrive already translated; numbers are localised by the
template, so a chart reads the same in every language of the site.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.template.defaultfilters import floatformat
from django.utils.formats import localize
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT = 480, 250
LEFT, RIGHT, TOP, BOTTOM = 56, 10, 14, 46
FONT = 15  # px in the drawing's units (history.css); about 0.55 em per character

PLOT_W, PLOT_H = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
MAX_X_LABELS = 12
_ids = itertools.count(1)


@dataclass
class Series:
    label: str
    values: list[float | None]


@dataclass
class Chart:
    kind: str  # "bars" or "lines"
    title: str
    summary: str
    categories: list[str]
    series: list[Series]
    table_head: list[str]
    table_rows: list[list[Any]]
    id: str = field(default_factory=lambda: f"chart-{next(_ids)}")
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    bars: list[dict[str, Any]] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)
    grid: list[dict[str, Any]] = field(default_factory=list)
    x_labels: list[dict[str, Any]] = field(default_factory=list)
    marks: list[dict[str, Any]] = field(default_factory=list)

    @property
    def legend(self) -> list[dict[str, Any]]:
        return [{"label": s.label, "index": i} for i, s in enumerate(self.series)]

    @property
    def empty(self) -> bool:
        return not any(v for s in self.series for v in s.values)

    @property
    def table(self) -> SafeString:
        """The figures as the rows of a table (its text alternative): head and body
        cells, each value localised as the template would, a dash for none."""

        plain_ints = not settings.USE_THOUSAND_SEPARATOR  # localize(int) is then str(int)

        def cell(value: Any) -> str:
            if value is None:
                return "—"
            if plain_ints and type(value) is int:
                return str(value)
            return str(conditional_escape(localize(value)))

        head = "".join(f'<th scope="col">{cell(text)}</th>' for text in self.table_head)
        body = "".join(
            f'<tr><th scope="row">{cell(row[0])}</th>'
            + "".join(f"<td>{cell(value)}</td>" for value in row[1:])
            + "</tr>"
            for row in self.table_rows
        )
        return mark_safe(f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody>")  # escaped

    @property
    def drawing(self) -> SafeString:
        """The inside of the chart's <svg>, made here in one pass (the template puts it
        in place): numbers in the drawing are plain, the axis values localised, every
        text escaped."""
        out = [
            f'<title id="{self.id}-title">{escape(self.title)}</title>',
            f'<desc id="{self.id}-desc">{escape(self.summary)}</desc>',
            '<g class="chart-grid" aria-hidden="true">',
        ]
        right = self.width - 10
        for line in self.grid:
            y = line["y"]
            target = line.get("target")
            label = line.get("label") or floatformat(line.get("value"), "-1")
            css = ' class="chart-target"' if target else ""
            out.append(
                f'<line x1="{self.left}" x2="{right}" y1="{y}" y2="{y}"{css}/>'
                f'<text x="{self.width - 12 if target else self.left - 5}" y="{y}" '
                f'dy="{-4 if target else 4}" text-anchor="end">{escape(label)}</text>'
            )
        out.append("</g>")
        for bar in self.bars:
            out.append(
                f'<rect class="series-{bar["index"]}" x="{bar["x"]}" y="{bar["y"]}" '
                f'width="{bar["w"]}" height="{bar["h"]}"><title>{escape(bar["tip"])}</title></rect>'
            )
        for line in self.lines:
            out.append(
                f'<polyline class="line series-{line["index"]}" points="{line["points"]}" '
                'fill="none"/>'
            )
        for mark in self.marks:
            out.append(
                f'<circle class="mark series-{mark["index"]}" cx="{mark["x"]}" cy="{mark["y"]}" '
                f'r="3.5"><title>{escape(mark["tip"])}</title></circle>'
            )
        out.append('<g class="chart-axis" aria-hidden="true">')
        axis_y = self.height - 28
        for label in self.x_labels:
            x = label["x"]
            spans = "".join(
                f'<tspan x="{x}" dy="{"0" if i == 0 else "1.1em"}">{escape(text)}</tspan>'
                for i, text in enumerate(label["lines"])
            )
            out.append(f'<text x="{x}" y="{axis_y}" text-anchor="middle">{spans}</text>')
        out.append("</g>")
        return mark_safe("".join(out))  # every text above is escaped


def scale(top: float) -> tuple[float, float]:
    """(axis top, grid step) for values from 0 to `top`: whole steps of 1, 2 or 5
    times a power of ten, at most four of them (every figure charted is a whole number)."""
    if top <= 0:
        return 4, 1
    raw = top / 4
    power = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return step * math.ceil(top / step), step


def _y(value: float, low: float, high: float) -> float:
    return round(TOP + PLOT_H - (value - low) / (high - low) * PLOT_H, 1)


def _grid(
    low: float, high: float, step: float, labels: dict[float, str] | None
) -> list[dict[str, Any]]:
    if labels is not None:
        return [{"y": _y(v, low, high), "label": text} for v, text in labels.items()]
    count = round((high - low) / step)
    values = [low + step * i for i in range(count + 1)]
    return [{"y": _y(value, low, high), "value": value} for value in values]


def _wrap(text: str, width: float) -> list[str]:
    """`text` in at most two lines that fit `width` units (the second one may be cut)."""
    fits = max(3, int(width / (FONT * 0.55)))
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= fits:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    return [line if len(line) <= fits else line[: fits - 1] + "…" for line in lines]


def _x_labels(categories: list[str], centre: Any) -> list[dict[str, Any]]:
    every = max(1, math.ceil(len(categories) / MAX_X_LABELS))
    width = PLOT_W / max(1, len(categories)) * every
    return [
        {"x": centre(i), "lines": _wrap(text, width)}
        for i, text in enumerate(categories)
        if i % every == 0 or i == len(categories) - 1
    ]


def bar_chart(
    *,
    title: str,
    summary: str,
    categories: list[str],
    series: list[Series],
    stacked: bool,
    table_head: list[str],
    table_rows: list[list[Any]],
) -> Chart:
    """Vertical bars per category: the series side by side, or stacked."""
    chart = Chart("bars", title, summary, categories, series, table_head, table_rows)
    count = max(1, len(categories))
    slot = PLOT_W / count
    if stacked:
        totals = [sum(s.values[i] or 0 for s in series) for i in range(len(categories))]
    else:
        totals = [max((s.values[i] or 0 for s in series), default=0) for i in range(count)]
    high, step = scale(max(totals, default=0))
    chart.grid = _grid(0, high, step, None)
    bar_w = slot * 0.7 / (1 if stacked else max(1, len(series)))
    for i, category in enumerate(categories):
        left = LEFT + slot * i + slot * 0.15
        base = 0.0
        for index, s in enumerate(series):
            value = s.values[i] or 0
            if not value:
                continue
            low = base if stacked else 0
            top = low + value
            x = left if stacked else left + bar_w * index
            chart.bars.append(
                {
                    "x": round(x, 1),
                    "y": _y(top, 0, high),
                    "w": round(bar_w, 1),
                    "h": round(_y(low, 0, high) - _y(top, 0, high), 1),
                    "index": index,
                    "tip": f"{category} · {s.label}: {value:g}",
                }
            )
            if stacked:
                base = top
    chart.x_labels = _x_labels(categories, lambda i: round(LEFT + slot * (i + 0.5), 1))
    return chart


def line_chart(
    *,
    title: str,
    summary: str,
    categories: list[str],
    series: list[Series],
    table_head: list[str],
    table_rows: list[list[Any]],
    low: float = 0,
    high: float | None = None,
    y_labels: dict[float, str] | None = None,
    target: tuple[float, str] | None = None,
) -> Chart:
    """A line per series through its points (a gap where a value is None); with
    `y_labels` the vertical axis is named steps (league divisions) instead of numbers."""
    chart = Chart("lines", title, summary, categories, series, table_head, table_rows)
    values = [v for s in series for v in s.values if v is not None]
    step = 1.0
    if high is None:
        top = max([*values, target[0] if target else 0])
        span, step = scale(top - low)
        high = low + span
    chart.grid = _grid(low, high, step, y_labels)
    count = len(categories)

    def x_of(i: int) -> float:
        return round(LEFT + (PLOT_W * i / (count - 1) if count > 1 else PLOT_W / 2), 1)

    for index, s in enumerate(series):
        segment: list[str] = []
        for i, value in enumerate(s.values):
            if value is None:
                if segment:
                    chart.lines.append({"points": " ".join(segment), "index": index})
                segment = []
                continue
            x, y = x_of(i), _y(value, low, high)
            segment.append(f"{x},{y}")
            chart.marks.append(
                {"x": x, "y": y, "index": index, "tip": f"{categories[i]} · {s.label}: {value:g}"}
            )
        if segment:
            chart.lines.append({"points": " ".join(segment), "index": index})
    if target is not None:
        chart.grid.append({"y": _y(target[0], low, high), "label": target[1], "target": True})
    chart.x_labels = _x_labels(categories, x_of)
    return chart
