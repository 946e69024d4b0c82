"""The table page stops after exactly the refusals docs/protocol.md says it stops
after, and says why in the page's language: the close-code table of the protocol and
`REFUSED` in static/js/table.js are read here, so the two cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

from django.utils import translation

from games.frames.renderer_texts import refusal_texts, table_strings
from games.sockets import admission

ROOT = Path(__file__).resolve().parents[2]
STOPS = "says so and stops"


def protocol_close_codes() -> dict[int, str]:
    """Close code -> what the table page does, from the protocol's table."""
    rows: dict[int, str] = {}
    for line in (ROOT / "docs" / "protocol.md").read_text().splitlines():
        found = re.match(r"\|\s*`(\d{4})`\s*\|.*\|\s*([^|]+?)\s*\|\s*$", line)
        if found:
            rows[int(found.group(1))] = found.group(2)
    return rows


def final_codes_in_table_js() -> set[int]:
    source = (ROOT / "static" / "js" / "table.js").read_text()
    found = re.search(r"const REFUSED = \[([\d,\s]+)\];", source)
    assert found, "static/js/table.js lists its final close codes in `const REFUSED = [...]`"
    return {int(code) for code in found.group(1).split(",")}


def test_the_protocol_documents_every_refusal_code_the_server_sends():
    codes = protocol_close_codes()
    for name in dir(admission):
        if name.startswith("CLOSE_"):
            assert getattr(admission, name) in codes, name


def test_every_code_the_protocol_says_stops_is_final_in_the_table_page_and_no_other():
    codes = protocol_close_codes()
    stops = {code for code, does in codes.items() if STOPS in does}
    assert {4401, 4403, 4404, 4433, 4434, 4435, 4436, 4437} <= stops
    assert final_codes_in_table_js() == stops


def test_every_final_code_has_its_reason_in_every_language():
    final = final_codes_in_table_js()
    for language in ("es", "en", "fr", "it", "ko", "th"):
        with translation.override(language):
            texts = refusal_texts()
            assert {int(code) for code in texts} == final
            assert table_strings()["refusals"] == texts
            assert all(texts.values())
    with translation.override("es"):
        assert refusal_texts()["4435"] == (
            "Ya estás mirando en 3 pestañas más. Cierra una y vuelve a cargar esta página."
        )
