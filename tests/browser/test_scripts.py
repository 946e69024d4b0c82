"""Korean and Thai pages draw real glyphs, not empty boxes: the live table and "How to
play" at a phone's and a laptop's size (screenshots kept in $SCREENSHOT_DIR); and the
table talk's emoji reactions are drawn (a colour emoji font), not boxes.

A character the fonts do not cover is drawn as the font's "missing glyph" (.notdef),
the same box for every such character. So each Hangul or Thai character of the page
is drawn on a canvas in the font of the element that holds it and compared, pixel for
pixel, with the drawing of a code point no font has: equal means a box. The last test
hides the Korean and Thai fonts from Chromium and checks that the same probe then
finds boxes, so the probe cannot pass vacuously.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import CHROMIUM_ARGS
from tests.browser.test_history_flow import log_in
from tests.conftest import CHROMIUM_PATH

SCREENSHOTS = os.environ.get("SCREENSHOT_DIR")
SIZES = {"390x844": {"width": 390, "height": 844}, "1280x800": {"width": 1280, "height": 800}}
# Hangul syllables and jamo; Thai.
SCRIPTS = {
    "ko": r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]",
    "th": r"[\u0e00-\u0e7f]",
    # The table talk's reactions (👍 😄 😮 👏): pictographs, not the symbols ★ ✓.
    "emoji": r"[\u{1F300}-\u{1FAFF}]",
}

# For each character of `pattern` in the text under `root` (up to 40 distinct ones):
# its drawing in its element's font, compared with the drawing of U+0378 (unassigned,
# so always the missing glyph). Returns the characters drawn as boxes, and how many
# were looked at.
BOXES = """([root, pattern]) => {
  const script = new RegExp(pattern, "u");
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 48;
  const ctx = canvas.getContext("2d", {willReadFrequently: true});
  const draw = (text, family) => {
    ctx.clearRect(0, 0, 48, 48);
    ctx.font = `32px ${family}`;
    ctx.textBaseline = "top";
    ctx.fillText(text, 8, 4);
    return Array.from(ctx.getImageData(0, 0, 48, 48).data).join(",");
  };
  const seen = new Map();
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && seen.size < 40; node = walker.nextNode()) {
    const family = getComputedStyle(node.parentElement).fontFamily;
    for (const ch of node.data) {
      if (script.test(ch) && !seen.has(ch)) seen.set(ch, family);
    }
  }
  const boxes = [];
  for (const [ch, family] of seen) {
    // Thai marks are drawn on a base consonant (alone they would sit on nothing).
    const base = /\\p{M}/u.test(ch) ? "\\u0e01" : "";
    if (draw(base + ch, family) === draw(base + "\\u0378", family)) boxes.push(ch);
  }
  return {boxes, looked: seen.size};
}"""


def assert_real_glyphs(page, root: str, language: str, least: int = 10) -> None:
    found = page.evaluate(BOXES, [root, SCRIPTS[language]])
    assert found["looked"] >= least, found  # the page really is in that script
    assert found["boxes"] == [], f"drawn as missing-glyph boxes: {found['boxes']}"


def shoot(page, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SCREENSHOTS}/{name}.png")


@pytest.fixture(autouse=True)
def _quiet_bots(settings):
    settings.BOT_RUNNER = "off"  # the bots wait: the table stays on our first turn
    settings.BOT_MOVE_PAUSE_SECONDS = 0


@pytest.mark.fonts
@pytest.mark.parametrize("language", ["ko", "th"])
def test_how_to_play_and_the_live_table_draw_korean_and_thai_glyphs(
    asgi_server, new_page, make_user, language
):
    user = make_user(f"reader_{language}", language=language)
    page = new_page(locale={"ko": "ko-KR", "th": "th-TH"}[language])
    log_in(page, asgi_server, user)

    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(asgi_server.url + "/how-to-play/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        page.evaluate("document.fonts.ready")
        assert_real_glyphs(page, "body", language)
        shoot(page, f"how-to-play-{language}-{size}")

    page.goto(asgi_server.url + "/play/")
    page.locator("form[action$='/play/practice/'] button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator(".tv-hand-card").first).to_be_visible(timeout=15_000)
    # Cards and suits are named in the page's language (as in the replay), not in Spanish.
    expect(page.locator(".tv-trump-suit")).to_be_visible()
    labels = page.locator(".tv-hand-card").evaluate_all("(cards) => cards.map((c) => c.ariaLabel)")
    named = " ".join([page.locator("#table-view").inner_text(), *labels])
    assert not re.search(r"\b(oros|copas|espadas|bastos|sota|caballo|rey)\b", named), named
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        expect(page.locator(".tv-hand-card").first).to_be_visible()
        assert_real_glyphs(page, "body", language)
        # The talk's emoji reactions are drawn, not boxes (fonts-noto-color-emoji).
        assert_real_glyphs(page, "#talk", "emoji", least=4)
        shoot(page, f"table-{language}-{size}")


SAMPLE = '<html lang="%s"><style>%s</style><body><main><p>%s</p></main></body></html>'


def test_the_probe_finds_boxes_when_the_korean_and_thai_fonts_are_missing(browser, tmp_path):
    # A second Chromium whose font configuration only has DejaVu (no Hangul, no Thai).
    dejavu = subprocess.run(
        ["fc-list", "--format", "%{file}\\n", ":family=DejaVu Sans"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if not dejavu:
        pytest.skip("needs the DejaVu fonts")
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        f'<?xml version="1.0"?><fontconfig><dir>{Path(dejavu[0]).parent}</dir>'
        f"<cachedir>{tmp_path}/cache</cachedir></fontconfig>"
    )
    css = (Path(__file__).resolve().parents[2] / "static" / "css" / "site.css").read_text()
    texts = {
        "ko": "카드 게임을 배우고 친구와 함께 놀아요 한국어",
        "th": "เล่นไพ่กับเพื่อน สมชาย ภาษาไทย",
        # Pictographs DejaVu lacks (it draws 😄 and 😮 in black and white).
        "emoji": "👍 👏 🎉 🏆",
    }
    env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    without = browser.browser_type.launch(
        executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS, env=env
    )
    try:
        page = without.new_page()
        for language, text in texts.items():
            page.set_content(SAMPLE % (language, css, text))
            found = page.evaluate(BOXES, ["body", SCRIPTS[language]])
            assert found["looked"] >= (4 if language == "emoji" else 10), found
            assert len(found["boxes"]) == found["looked"], found
    finally:
        without.close()
