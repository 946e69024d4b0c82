"""The rule-based helpers shared by easy and the search levels' play-outs."""

from cuatrola.bots.heuristic import declaration_points
from cuatrola.engine.core import CODE_INDEX, mask_of
from cuatrola.engine.rules import CLASSIC, ONLINE

OROS, COPAS, ESPADAS, BASTOS = range(4)


def m(codes: str) -> int:
    return mask_of(CODE_INDEX[c] for c in codes.split())


def test_a_declaration_takes_the_forty_first_and_records_the_suit():
    hands = [m("12e 11e"), 0, m("12b 11b"), 0]
    used, count = [0, 0], [0, 0]
    assert declaration_points(hands, 0, -1, BASTOS, used, count, ONLINE) == 40
    assert used == [1 << BASTOS, 0] and count == [1, 0]
    assert declaration_points(hands, 0, -1, BASTOS, used, count, ONLINE) == 20
    assert used == [(1 << BASTOS) | (1 << ESPADAS), 0] and count == [2, 0]


def test_the_online_limit_of_two_declarations_a_pair_holds():
    hands = [m("12o 11o 12c 11c 12e"), m("11e"), 0, 0]
    used, count = [1 << BASTOS, 0], [2, 0]
    assert declaration_points(hands, 0, -1, BASTOS, used, count, ONLINE) == 0
    assert count == [2, 0]
    assert declaration_points(hands, 0, -1, BASTOS, used, count, CLASSIC) == 20


def test_a_partner_who_sits_out_never_declares():
    hands = [m("3o"), 0, m("12o 11o"), 0]
    used, count = [0, 0], [0, 0]
    assert declaration_points(hands, 0, 2, BASTOS, used, count, ONLINE) == 0
    assert declaration_points(hands, 0, -1, BASTOS, used, count, ONLINE) == 20
