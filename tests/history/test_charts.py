from django.utils import translation

from history.charts import Series, bar_chart, line_chart


def test_a_drawing_escapes_every_text_and_keeps_its_numbers_plain():
    chart = bar_chart(
        title="<b>Title</b>",
        summary="A & B",
        categories=["<i>one</i>", "two"],
        series=[Series("S<1>", [1500, 3])],
        stacked=True,
        table_head=[],
        table_rows=[],
    )
    drawing = str(chart.drawing)
    assert "<b>" not in drawing and "&lt;b&gt;Title&lt;/b&gt;" in drawing
    assert "A &amp; B" in drawing
    assert "&lt;i&gt;one&lt;/i&gt; · S&lt;1&gt;: 1500" in drawing  # a bar's tip
    assert drawing.count("<rect ") == 2
    assert 'x1="56" x2="470"' in drawing  # coordinates are never localised


def test_a_drawings_axis_values_are_in_the_pages_language():
    chart = line_chart(
        title="t",
        summary="s",
        categories=["a", "b"],
        series=[Series("coins", [0.5, 1.5])],
        table_head=[],
        table_rows=[],
        low=-0.5,
        high=1.5,
    )
    with translation.override("fr"):
        assert 'text-anchor="end">0,5</text>' in str(chart.drawing)
    with translation.override("en"):
        drawing = str(chart.drawing)
        assert 'text-anchor="end">0.5</text>' in drawing
        assert 'cx="56.0"' in drawing or 'cx="56"' in drawing  # coordinates stay plain
