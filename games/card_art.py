"""The drawn Spanish deck: one small SVG per card face and one back, made here.

`python manage.py draw_cards` writes them to ``static/cards/<code>.svg`` and
``static/cards/back.svg``; a test checks that the committed files are exactly
what this module draws, so change the drawing here, never the files by hand.

Every card is 130 x 200 units (the 61 x 94 mm proportion of a Spanish deck).
A suit is told by its symbol first: coins (oros) are round, cups (copas) are
chalices, swords (espadas) are straight blades with a hilt, clubs (bastos) are
knotty sticks; colour is a second cue, and the traditional "pinta" (breaks in
the frame line: none for oros, one for copas, two for espadas, three for
bastos) a third. Ranks carry their number in two corners, as Spanish decks
do: 1, 3, 10 (sota), 11 (caballo), 12 (rey); the figures are drawn as figures.

Only presentation attributes and internal ``#id`` references are used: no
``<style>``, no fonts or images fetched, so the files render the same in an
``<img>``, offline, and under the site's Content-Security-Policy.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Final, NamedTuple

from cuatrola.engine import CARD_CODES

WIDTH: Final = 130
HEIGHT: Final = 200
INK: Final = "#2b2118"
PAPER: Final = "#fffdf6"
SKIN: Final = "#f4d3b0"
GOLD: Final = "#e9b72c"
GOLD_DARK: Final = "#8a5a00"


#: Per suit: main colour, dark outline, light fill, the index colour (dark enough
#: to read on the paper), and the number of breaks in the frame line.
class Suit(NamedTuple):
    main: str
    dark: str
    light: str
    index: str  # type: ignore[assignment]  # a field named like tuple.index, on purpose
    breaks: int


SUITS: Final[dict[str, Suit]] = {
    "o": Suit("#e9b72c", "#7a4a00", "#f8dc6c", "#8a5300", 0),
    "c": Suit("#c8322b", "#6b1410", "#ef7d6e", "#b0241d", 1),
    "e": Suit("#2e62b4", "#14305e", "#cfdcef", "#1f4e9c", 2),
    "b": Suit("#3f8a3a", "#1d4619", "#8cc46b", "#2c6b28", 3),
}

#: Clothes of the figures (main, second, trim), varied by suit like a printed deck.
CLOTHES: Final[dict[str, tuple[str, str, str]]] = {
    "o": ("#c8322b", "#2e62b4", GOLD),
    "c": ("#2e62b4", "#c8322b", GOLD),
    "e": ("#3f8a3a", "#c8322b", GOLD),
    "b": ("#c8322b", "#3f8a3a", GOLD),
}


def _f(value: float) -> str:
    """A number written short: at most one decimal, no trailing zero."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


# --- The four suit symbols, each drawn around (0, 0) ------------------------------
# Coin: radius 20. Cup: 40 tall. Sword and club: 100 tall, point or head up.


def _coin_symbol() -> str:
    s = SUITS["o"]
    rays = []
    for i in range(8):
        a = math.radians(i * 45)
        b = math.radians(i * 45 + 22.5)
        rays.append(f"{_f(8 * math.sin(a))},{_f(-8 * math.cos(a))}")
        rays.append(f"{_f(3.6 * math.sin(b))},{_f(-3.6 * math.cos(b))}")
    dots = "".join(
        f'<circle cx="{_f(16.2 * math.sin(math.radians(i * 30)))}" '
        f'cy="{_f(-16.2 * math.cos(math.radians(i * 30)))}" r="1.1"/>'
        for i in range(12)
    )
    return (
        f'<symbol id="o" viewBox="-21 -21 42 42" overflow="visible">'
        f'<circle r="20" fill="{s.main}" stroke="{s.dark}" stroke-width="2"/>'
        f'<circle r="13.5" fill="{s.light}" stroke="{s.dark}" stroke-width="1.4"/>'
        f'<g fill="{s.dark}">{dots}</g>'
        f'<polygon points="{" ".join(rays)}" fill="#c0790a" stroke="{s.dark}" '
        f'stroke-width="0.8" stroke-linejoin="round"/>'
        f'<circle r="2.4" fill="{s.light}" stroke="{s.dark}" stroke-width="0.8"/>'
        "</symbol>"
    )


def _cup_symbol() -> str:
    s = SUITS["c"]
    return (
        '<symbol id="c" viewBox="-16 -21 32 42" overflow="visible">'
        f'<g stroke="{s.dark}" stroke-width="1.4" stroke-linejoin="round">'
        # The foot, the stem with its knot, then the bowl and its gold band.
        f'<path d="M-11,19 Q0,13 11,19 L11,20.5 L-11,20.5 Z" fill="{GOLD}"/>'
        f'<path d="M-2.2,4 L2.2,4 L3,16 L-3,16 Z" fill="{s.main}"/>'
        f'<ellipse cy="9" rx="4.6" ry="2.3" fill="{GOLD}"/>'
        f'<path d="M-14,-16 C-14,-3 -7,3 0,4 C7,3 14,-3 14,-16 Z" fill="{s.main}"/>'
        f'<path d="M-13.6,-11 L13.6,-11 L13.1,-7.5 L-13.1,-7.5 Z" fill="{GOLD}"/>'
        f'<ellipse cy="-16" rx="14" ry="3.4" fill="{s.dark}"/>'
        "</g>"
        f'<path d="M-8,-5 C-7,-1 -4,1 -1,2" fill="none" stroke="{s.light}" '
        'stroke-width="1.4" stroke-linecap="round"/>'
        "</symbol>"
    )


def _sword_symbol() -> str:
    s = SUITS["e"]
    return (
        '<symbol id="e" viewBox="-14 -50 28 100" overflow="visible">'
        f'<g stroke="{s.dark}" stroke-width="1.3" stroke-linejoin="round">'
        # Blade (point up) with its fuller, then the guard with curled quillons,
        # the grip and the pommel.
        f'<path d="M0,-50 L4.2,-40 L4.2,24 L-4.2,24 L-4.2,-40 Z" fill="{s.light}"/>'
        f'<path d="M0,-40 L0,22" stroke="{s.main}" stroke-width="1.4"/>'
        f'<path d="M-13,24 C-13,28 -9,30 -6,28 L6,28 C9,30 13,28 13,24 '
        f'C10,26.5 8,25 6,24 L-6,24 C-8,25 -10,26.5 -13,24 Z" fill="{GOLD}"/>'
        f'<rect x="-3" y="28" width="6" height="14" rx="1.5" fill="{s.main}"/>'
        f'<path d="M-3,31.5 L3,33.5 M-3,35.5 L3,37.5" stroke="{s.light}" '
        'stroke-width="0.9"/>'
        f'<circle cy="45.5" r="4.2" fill="{GOLD}"/>'
        "</g>"
        "</symbol>"
    )


def _club_symbol() -> str:
    s = SUITS["b"]
    # Knots where branches were cut: small bumps on the edge, each with its cut face.
    knots = ((-9.6, -24, -70), (8.6, -6, 70), (-7.2, 14, -75), (5.8, 31, 75))
    stubs = "".join(
        f'<g transform="translate({_f(x)} {_f(y)}) rotate({a})">'
        f'<path d="M-3.2,1.5 C-3,-1 -2.4,-2.4 0,-2.6 C2.4,-2.4 3,-1 3.2,1.5 Z" fill="{s.main}"/>'
        f'<ellipse cy="-2" rx="2.1" ry="1" fill="{s.light}"/></g>'
        for x, y, a in knots
    )
    return (
        '<symbol id="b" viewBox="-14 -50 28 100" overflow="visible">'
        f'<g stroke="{s.dark}" stroke-width="1.3" stroke-linejoin="round">'
        # A cudgel: a rounded head, tapering to the grip, knotted where branches were cut.
        f"{stubs}"
        f'<path d="M-3.6,47 C-4.4,28 -7.4,0 -9.6,-22 C-11.4,-36 -11,-45 -5,-48.5 '
        f"C-1.6,-50.4 1.6,-50.4 5,-48.5 C11,-45 11.4,-36 9.6,-22 C7.4,0 4.4,28 3.6,47 "
        f'C2,48.6 -2,48.6 -3.6,47 Z" fill="{s.main}"/>'
        "</g>"
        f'<path d="M-4.5,-42 C-6,-24 -4,6 -1.6,40" fill="none" stroke="{s.light}" '
        'stroke-width="1.6" stroke-linecap="round"/>'
        f'<g fill="none" stroke="{s.dark}" stroke-width="0.9" stroke-linecap="round">'
        '<path d="M3,-38 C4.6,-30 4.4,-24 3,-18"/>'
        '<path d="M2.2,-2 C3.4,4 3.2,10 2,16"/>'
        '<path d="M-2,-30 C-1.4,-26 -1.6,-22 -2.4,-19"/></g>'
        "</symbol>"
    )


SYMBOLS: Final = {"o": _coin_symbol, "c": _cup_symbol, "e": _sword_symbol, "b": _club_symbol}
#: The box (width, height) each symbol's viewBox spans, for placing it.
SYMBOL_BOX: Final = {"o": (42, 42), "c": (32, 42), "e": (28, 100), "b": (28, 100)}


def _use(suit: str, x: float, y: float, scale: float = 1.0, rotate: float = 0) -> str:
    """The suit's symbol centred on (x, y), scaled, and turned by `rotate` degrees."""
    w, h = SYMBOL_BOX[suit]
    transform = f"translate({_f(x)} {_f(y)})"
    if rotate:
        transform += f" rotate({_f(rotate)})"
    if scale != 1:
        transform += f" scale({scale:.3g})"
    return (
        f'<use href="#{suit}" x="{_f(-w / 2)}" y="{_f(-h / 2)}" width="{w}" height="{h}" '
        f'transform="{transform}"/>'
    )


# --- Frame and corner indices -----------------------------------------------------


def _frame(suit: str) -> str:
    """The inner frame line; its top and bottom broken 0-3 times (the "pinta")."""
    breaks = SUITS[suit].breaks
    colour = SUITS[suit].index
    left, right, top, bottom = 7.0, 123.0, 7.0, 193.0
    parts = [
        f'<rect x="{_f(left)}" y="{_f(top)}" width="{_f(right - left)}" '
        f'height="{_f(bottom - top)}" rx="5" fill="none" stroke="{colour}" '
        'stroke-width="1.6"/>'
    ]
    if breaks:
        # Gaps of paper over the top and bottom lines, centred on the card.
        gap, step = 7.0, 14.0
        first = WIDTH / 2 - (breaks - 1) * step / 2
        for i in range(breaks):
            cx = first + i * step
            for y in (top, bottom):
                parts.append(
                    f'<rect x="{_f(cx - gap / 2)}" y="{_f(y - 2)}" width="{_f(gap)}" '
                    f'height="4" fill="{PAPER}"/>'
                )
    return "".join(parts)


def _corner_patches(suit: str) -> str:
    """Paper over the frame's top-left and bottom-right corners, where the indices go,
    as in a Spanish deck (drawn before the art, so the art stays whole)."""
    patch = f'<rect x="3" y="3" width="30" height="{64 if suit in "eb" else 56}" rx="3" '
    patch += f'fill="{PAPER}"/>'
    return f'{patch}<g transform="rotate(180 65 100)">{patch}</g>'


def _index(suit: str, number: int) -> str:
    """The rank number over a small suit symbol, top left and (turned) bottom right."""
    colour = SUITS[suit].index
    mini = {"o": 0.42, "c": 0.44, "e": 0.25, "b": 0.25}[suit]
    mini_y = {"o": 44, "c": 44, "e": 50, "b": 50}[suit]
    corner = (
        f'<text x="18" y="29" text-anchor="middle" font-family="Georgia, \'DejaVu Serif\', '
        f'serif" font-weight="bold" font-size="{24 if number < 10 else 21}" '
        f'letter-spacing="{0 if number < 10 else -1}" fill="{colour}">{number}</text>'
        + _use(suit, 18, mini_y, mini)
    )
    return f'<g>{corner}</g><g transform="rotate(180 65 100)">{corner}</g>'


# --- Number cards -----------------------------------------------------------------


def _pips(suit: str, number: int) -> str:
    if number == 1:
        return {
            "o": _ace_of_coins(),
            "c": _use("c", 65, 100, 2.1),
            "e": _use("e", 65, 100, 1.45),
            "b": _use("b", 65, 100, 1.45),
        }[suit]
    # The three: coins and cups stacked, swords and clubs crossed.
    if suit == "o":
        return "".join(_use("o", 65, y, 1.05) for y in (50, 100, 150))
    if suit == "c":
        return "".join(_use("c", 65, y, 1.05) for y in (52, 100, 148))
    if suit == "e":
        crossed = _use(suit, 65, 100, 1.25, -25) + _use(suit, 65, 100, 1.25, 25)
        return crossed + _use(suit, 65, 100, 1.3)
    # Clubs are stout: slimmer and spread wider, so the three stay three.
    crossed = _use(suit, 65, 102, 1.12, -32) + _use(suit, 65, 102, 1.12, 32)
    return crossed + _use(suit, 65, 100, 1.2)


def _ace_of_coins() -> str:
    # The ace of coins is the deck's showpiece: a large coin in a laurel ring.
    leaves = "".join(
        f'<ellipse cx="{_f(65 + 44 * math.sin(math.radians(a)))}" '
        f'cy="{_f(100 - 44 * math.cos(math.radians(a)))}" rx="3" ry="6.5" '
        f'transform="rotate({a + 30} {_f(65 + 44 * math.sin(math.radians(a)))} '
        f'{_f(100 - 44 * math.cos(math.radians(a)))})"/>'
        for a in range(0, 360, 24)
    )
    return (
        f'<g fill="{SUITS["b"].light}" stroke="{SUITS["b"].dark}" stroke-width="1">'
        f"{leaves}</g>" + _use("o", 65, 100, 1.85)
    )


# --- Figures ----------------------------------------------------------------------


def _head(cx: float, cy: float, *, beard: bool = False) -> str:
    parts = [
        f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="9.5" fill="{SKIN}" stroke="{INK}" '
        'stroke-width="1.3"/>',
        f'<circle cx="{_f(cx - 3.4)}" cy="{_f(cy - 1)}" r="1.1" fill="{INK}"/>',
        f'<circle cx="{_f(cx + 3.4)}" cy="{_f(cy - 1)}" r="1.1" fill="{INK}"/>',
    ]
    if beard:
        parts.append(
            f'<path d="M{_f(cx - 9)},{_f(cy + 1)} C{_f(cx - 8)},{_f(cy + 15)} '
            f"{_f(cx - 3)},{_f(cy + 19)} {_f(cx)},{_f(cy + 20)} C{_f(cx + 3)},{_f(cy + 19)} "
            f"{_f(cx + 8)},{_f(cy + 15)} {_f(cx + 9)},{_f(cy + 1)} C{_f(cx + 5)},{_f(cy + 6)} "
            f'{_f(cx - 5)},{_f(cy + 6)} {_f(cx - 9)},{_f(cy + 1)} Z" fill="#8a6a4a" '
            f'stroke="{INK}" stroke-width="1"/>'
        )
    else:
        parts.append(
            f'<path d="M{_f(cx - 2.5)},{_f(cy + 4)} Q{_f(cx)},{_f(cy + 5.5)} '
            f'{_f(cx + 2.5)},{_f(cy + 4)}" fill="none" stroke="{INK}" stroke-width="0.9"/>'
        )
    return "".join(parts)


def _held(suit: str, x: float, y: float, scale: float = 0.8) -> str:
    """The suit's symbol as a figure holds it in the hand at (x, y): a coin or cup
    lifted just above it, a sword or club upright, gripped near its lower end."""
    if suit == "o":
        return _use("o", x + 2, y - 14, scale * 0.95)
    if suit == "c":
        return _use("c", x + 2, y - 14, scale)
    return _use(suit, x, y - 36 * scale, scale)


def _sota(suit: str) -> str:
    main, second, trim = CLOTHES[suit]
    return (
        f'<g stroke="{INK}" stroke-width="1.3" stroke-linejoin="round">'
        # Legs in hose, shoes.
        f'<path d="M55,140 L55,176 L62,176 L63,140 Z" fill="{second}"/>'
        f'<path d="M67,140 L68,176 L75,176 L75,140 Z" fill="{second}"/>'
        f'<ellipse cx="57" cy="178" rx="7" ry="3.2" fill="{INK}"/>'
        f'<ellipse cx="73" cy="178" rx="7" ry="3.2" fill="{INK}"/>'
        # Left arm hanging, then the tunic with its belt and hem.
        f'<path d="M48,82 C42,96 40,112 42,124 L48,124 C48,112 50,100 54,90 Z" fill="{main}"/>'
        f'<circle cx="45" cy="127" r="3.6" fill="{SKIN}"/>'
        f'<path d="M50,78 L80,78 L88,144 L42,144 Z" fill="{main}"/>'
        f'<path d="M65,78 L65,144" fill="none" stroke="{trim}" stroke-width="2.4"/>'
        f'<rect x="45" y="106" width="40" height="5" fill="{trim}"/>'
        f'<path d="M42,144 L88,144 L87.3,139 L42.7,139 Z" fill="{trim}"/>'
        # Collar, head, page-boy hair and a feathered cap.
        f'<path d="M54,78 L76,78 L72,73 L58,73 Z" fill="#ffffff"/>'
        f'<path d="M55,58 C53,72 57,76 58,74 L72,74 C74,76 77,72 75,58 Z" fill="#6b4423"/>'
        + _head(65, 62)
        + f'<path d="M54,55 C54,44 76,42 79,52 C70,49 60,50 54,55 Z" fill="{second}"/>'
        f'<path d="M74,47 C80,38 88,36 94,37 C88,41 82,45 76,50 Z" fill="#ffffff"/>'
        # Right arm raised to hold the suit symbol.
        f'<path d="M78,82 C86,88 92,92 96,98 L92,103 C88,98 84,95 80,92 Z" fill="{main}"/>'
        f'<circle cx="96" cy="101" r="3.6" fill="{SKIN}"/>'
        "</g>" + _held(suit, 96, 101)
    )


def _caballo(suit: str) -> str:
    main, second, trim = CLOTHES[suit]
    horse, mane = "#f3ece0", "#8b5a2b"
    # Shifted left a little so the horse's hindquarters clear the bottom-right index.
    return (
        '<g transform="translate(-3 0)">'
        f'<g stroke="{INK}" stroke-width="1.3" stroke-linejoin="round">'
        # Tail, far legs, body, near legs (the front one raised), neck and head.
        f'<path d="M101,122 C109,126 110,136 106,146 C104,140 101,134 97,130 Z" fill="{mane}"/>'
        f'<path d="M90,136 L93,176 L98,176 L96,134 Z" fill="{horse}"/>'
        f'<path d="M44,136 L40,176 L45,176 L50,138 Z" fill="{horse}"/>'
        f'<ellipse cx="72" cy="128" rx="31" ry="15" fill="{horse}"/>'
        f'<path d="M82,136 L80,178 L86,178 L90,136 Z" fill="{horse}"/>'
        f'<path d="M50,134 C46,146 38,150 30,152 L30,158 C40,157 52,150 58,138 Z" '
        f'fill="{horse}"/>'
        f'<path d="M42,126 C40,112 36,100 30,90 L44,84 C50,98 56,112 58,122 Z" fill="{horse}"/>'
        f'<path d="M30,90 C26,86 22,84 18,88 L12,100 C11,104 14,106 18,105 L30,100 '
        f'C36,98 40,94 44,84 C40,82 34,84 30,90 Z" fill="{horse}"/>'
        f'<path d="M36,82 L35,74 L40,80 Z" fill="{horse}"/>'
        f'<path d="M42,84 C48,92 54,104 58,118 L54,120 C50,106 44,94 38,86 Z" fill="{mane}"/>'
        f'<circle cx="25" cy="92" r="1.3" fill="{INK}"/>'
        # Hooves, saddle cloth and reins.
        f'<path d="M40,176 L45,176 L45.5,180 L39.5,180 Z" fill="{INK}"/>'
        f'<path d="M93,176 L98,176 L98.5,180 L92.5,180 Z" fill="{INK}"/>'
        f'<path d="M80,178 L86,178 L86.5,182 L79.5,182 Z" fill="{INK}"/>'
        f'<path d="M30,152 L30,158 L26,158 L26,152 Z" fill="{INK}"/>'
        f'<path d="M60,116 L92,116 L94,138 L58,138 Z" fill="{second}"/>'
        f'<path d="M58,134 L94,134 L94,138 L58,138 Z" fill="{trim}"/>'
        f'<path d="M20,100 C34,104 50,102 62,104" fill="none" stroke="{INK}" stroke-width="1"/>'
        # The rider: leg and boot, body, head with a hat, arm raised with the symbol.
        f'<path d="M68,112 L66,142 L74,142 L78,114 Z" fill="{main}"/>'
        f'<path d="M64,140 L76,140 L78,150 L64,150 Z" fill="#5b3a1e"/>'
        f'<path d="M62,80 L80,80 L84,116 L60,116 Z" fill="{main}"/>'
        f'<rect x="61" y="99" width="22" height="4" fill="{trim}"/>'
        f'<path d="M62,82 C58,92 60,102 64,106 L68,102 C66,96 66,90 68,84 Z" fill="{main}"/>'
        + _head(71, 68)
        + f'<path d="M59,64 C58,54 84,52 84,63 C76,60 66,60 59,64 Z" fill="{second}"/>'
        f'<path d="M62,58 C64,50 78,50 80,58 Z" fill="{second}"/>'
        f'<path d="M79,84 C86,82 92,78 96,72 L100,75 C96,82 90,88 81,91 Z" fill="{main}"/>'
        f'<circle cx="98.5" cy="72.5" r="3.6" fill="{SKIN}"/>'
        "</g>" + _held(suit, 98.5, 72.5, 0.72) + "</g>"
    )


def _rey(suit: str) -> str:
    main, second, trim = CLOTHES[suit]
    ermine = "".join(
        f'<path d="M{_f(x)},{_f(y)} l-1,2.4 l2,0 Z" fill="{INK}" stroke="none"/>'
        for x, y in ((63, 100), (67, 112), (63, 124), (67, 136), (63, 148), (67, 160), (63, 170))
    )
    return (
        f'<g stroke="{INK}" stroke-width="1.3" stroke-linejoin="round">'
        # Long robe to the ground with an ermine front, shoes, cape.
        f'<ellipse cx="56" cy="180" rx="7" ry="3.2" fill="{INK}"/>'
        f'<ellipse cx="74" cy="180" rx="7" ry="3.2" fill="{INK}"/>'
        f'<path d="M50,84 L80,84 L94,178 L36,178 Z" fill="{main}"/>'
        f'<path d="M60,86 L70,86 L72,178 L58,178 Z" fill="#ffffff"/>'
        f"{ermine}"
        f'<path d="M36,178 L94,178 L93.3,173 L36.7,173 Z" fill="{trim}"/>'
        f'<path d="M48,82 C40,100 34,130 32,150 L44,146 C46,124 50,104 56,90 Z" fill="{second}"/>'
        f'<path d="M82,82 C88,96 92,110 94,122 L86,120 C84,108 80,98 76,90 Z" fill="{second}"/>'
        # Sceptre-free left hand on the belt, the right one holding the symbol.
        f'<rect x="48" y="108" width="34" height="5" fill="{trim}"/>'
        f'<circle cx="52" cy="111" r="3.6" fill="{SKIN}"/>'
        f'<path d="M80,88 C88,94 94,100 96,106 L92,110 C88,104 84,100 78,96 Z" fill="{main}"/>'
        f'<circle cx="95" cy="108" r="3.6" fill="{SKIN}"/>'
        # Head with a beard, hair and crown.
        f'<path d="M54,60 C52,74 56,80 58,80 L72,80 C74,80 78,74 76,60 Z" fill="#7a5a3a"/>'
        + _head(65, 62, beard=True)
        + f'<path d="M54,56 L54,42 L59,49 L65,38 L71,49 L76,42 L76,56 Z" fill="{GOLD}"/>'
        f'<rect x="54" y="52" width="22" height="5" fill="{GOLD}"/>'
        f'<circle cx="65" cy="54.5" r="1.5" fill="{SUITS["c"].main}"/>'
        f'<circle cx="59" cy="54.5" r="1.1" fill="{SUITS["e"].main}"/>'
        f'<circle cx="71" cy="54.5" r="1.1" fill="{SUITS["e"].main}"/>'
        "</g>" + _held(suit, 95, 108)
    )


FIGURES: Final = {10: _sota, 11: _caballo, 12: _rey}


# --- Whole cards ------------------------------------------------------------------


def _svg(body: str, defs: str = "") -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}">'
        + (f"<defs>{defs}</defs>" if defs else "")
        + f'<rect x="0.75" y="0.75" width="{WIDTH - 1.5}" height="{HEIGHT - 1.5}" rx="8" '
        f'fill="{PAPER}" stroke="#8c8272" stroke-width="1.5"/>' + body + "</svg>\n"
    )


def draw_face(code: str) -> str:
    """The SVG text of one card face (`code` as in the engine: ``1o``, ``12e``...)."""
    if code not in CARD_CODES:
        raise ValueError(f"{code!r} is not a card code (expected e.g. 1o, 3c, 12e, 11b, 10o)")
    number, suit = int(code[:-1]), code[-1]
    art = FIGURES[number](suit) if number in FIGURES else _pips(suit, number)
    return _svg(_frame(suit) + _corner_patches(suit) + art + _index(suit, number), SYMBOLS[suit]())


def draw_back() -> str:
    """The SVG text of the back shared by every card."""
    red, dark = "#9b1c22", "#5e0d12"
    emblem = (
        _use("e", 65, 100, 0.46, -40)
        + _use("b", 65, 100, 0.46, 40)
        + _use("o", 65, 88, 0.5)
        + _use("c", 65, 113, 0.45)
    )
    defs = (
        '<pattern id="lattice" width="12" height="12" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)">'
        f'<rect width="12" height="12" fill="{red}"/>'
        f'<path d="M0,6 H12 M6,0 V12" stroke="{dark}" stroke-width="2"/>'
        '<circle cx="6" cy="6" r="1.6" fill="#e9b72c"/>'
        "</pattern>" + "".join(make() for make in SYMBOLS.values())
    )
    body = (
        '<rect x="8" y="8" width="114" height="184" rx="5" fill="url(#lattice)" '
        f'stroke="{dark}" stroke-width="1.5"/>'
        '<rect x="12" y="12" width="106" height="176" rx="3" fill="none" '
        f'stroke="{GOLD}" stroke-width="1.2"/>'
        f'<circle cx="65" cy="100" r="29" fill="{PAPER}" stroke="{GOLD}" stroke-width="3"/>'
        f'<circle cx="65" cy="100" r="25" fill="none" stroke="{dark}" stroke-width="1"/>' + emblem
    )
    return _svg(body, defs)


def drawings() -> dict[str, str]:
    """File name → SVG text of every drawing of the deck."""
    files = {f"{code}.svg": draw_face(code) for code in CARD_CODES}
    files["back.svg"] = draw_back()
    return files


#: Where the drawings are kept, under the project's static files.
CARDS_DIR: Final = Path(__file__).resolve().parent.parent / "static" / "cards"


def write_drawings(directory: Path = CARDS_DIR) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in drawings().items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
