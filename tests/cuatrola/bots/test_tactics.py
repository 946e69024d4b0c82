import pytest

from cuatrola.bots import choose_action
from cuatrola.engine import Hand, seat_view

# Found by search; in each the declarer must take this trick to keep its contract alive:
# the listed card makes it whatever the hidden cards, the others fail in half the deals or more.
NEEDS_THE_TRICK = [
    (
        {
            "rules": "online",
            "dealer": 1,
            "scores": [0, 0],
            "deal": [
                ["12b", "12c", "1o", "12e", "10c"],
                ["10b", "3c", "1c", "3b", "10e"],
                ["11o", "3o", "11b", "3e", "12o"],
                ["1e", "11c", "11e", "1b", "10o"],
            ],
            "trump": "10e",
            "actions": [
                "pass",
                "solo",
                "pass",
                "pass",
                "11o",
                "10o",
                "1o",
                "12c",
                "3e",
                "11c",
                "11b",
                "1b",
                "12b",
            ],
        },
        ["1e"],
    ),
    (
        {
            "rules": "online",
            "dealer": 1,
            "scores": [0, 0],
            "deal": [
                ["10c", "12o", "12e", "3o", "11c"],
                ["12b", "1e", "1o", "10b", "3e"],
                ["10e", "3c", "1c", "10o", "11o"],
                ["11e", "1b", "12c", "11b", "3b"],
            ],
            "trump": "3e",
            "actions": [
                "pass",
                "pass",
                "pass",
                "cuatrola",
                "10o",
                "3o",
                "1o",
                "12b",
                "10e",
                "12e",
                "12o",
                "3e",
                "11o",
            ],
        },
        ["1e"],
    ),
    (
        {
            "rules": "online",
            "dealer": 2,
            "scores": [0, 0],
            "deal": [
                ["12c", "10o", "1o", "11o", "10b"],
                ["12e", "3c", "10e", "12b", "12o"],
                ["1b", "3e", "11e", "11c", "3o"],
                ["3b", "11b", "1c", "10c", "1e"],
            ],
            "trump": "3o",
            "actions": [
                "pass",
                "solo",
                "pass",
                "pass",
                "3b",
                "10b",
                "12b",
                "10c",
                "12c",
                "3c",
                "12e",
                "1e",
                "11o",
            ],
        },
        ["1o"],
    ),
    (
        {
            "rules": "online",
            "dealer": 3,
            "scores": [0, 0],
            "deal": [
                ["1e", "3e", "1c", "12b", "10e"],
                ["10b", "10c", "3c", "3b", "12o"],
                ["3o", "11c", "1b", "12c", "12e"],
                ["10o", "11o", "1o", "11b", "11e"],
            ],
            "trump": "11e",
            "actions": [
                "solo",
                "pass",
                "pass",
                "pass",
                "12b",
                "3b",
                "11b",
                "3c",
                "11e",
                "1c",
                "11o",
                "3e",
                "12o",
            ],
        },
        ["1e"],
    ),
]

# A defender is last to play, its partner's card wins the trick and any card may be played:
# throwing a trump or an ace away is wrong.
PARTNER_WINS = [
    (
        {
            "rules": "online",
            "dealer": 0,
            "scores": [0, 0],
            "deal": [
                ["10o", "11c", "3c", "1o", "3o"],
                ["1b", "3b", "1c", "11e", "12o"],
                ["10e", "10b", "12c", "3e", "11o"],
                ["1e", "12b", "12e", "11b", "10c"],
            ],
            "trump": "3o",
            "actions": ["pass", "cuatrola", "pass", "pass", "12o", "11o"],
        },
        ["1e"],
    ),
    (
        {
            "rules": "online",
            "dealer": 1,
            "scores": [0, 0],
            "deal": [
                ["1o", "11b", "10c", "1e", "1c"],
                ["12b", "1b", "11c", "3c", "12o"],
                ["12c", "10o", "3e", "10b", "3o"],
                ["11e", "10e", "3b", "11o", "12e"],
            ],
            "trump": "12o",
            "actions": [
                "pass",
                "cuatrola",
                "pass",
                "pass",
                "3e",
                "10e",
                "1e",
                "10c",
                "12c",
                "11o",
                "12e",
                "1o",
            ],
        },
        ["3o", "10o"],
    ),
    (
        {
            "rules": "online",
            "dealer": 1,
            "scores": [0, 0],
            "deal": [
                ["1c", "10c", "10b", "12c", "3c"],
                ["11o", "12o", "10e", "3e", "11b"],
                ["11c", "3o", "3b", "1b", "10o"],
                ["12e", "1o", "1e", "11e", "12b"],
            ],
            "trump": "11b",
            "actions": [
                "solo",
                "pass",
                "pass",
                "pass",
                "3o",
                "1o",
                "12o",
                "11e",
                "3e",
                "3b",
                "11c",
                "12b",
            ],
        },
        ["11b"],
    ),
    (
        {
            "rules": "online",
            "dealer": 2,
            "scores": [0, 0],
            "deal": [
                ["12o", "1o", "10o", "10c", "3c"],
                ["1c", "1e", "11b", "12e", "12c"],
                ["1b", "10e", "10b", "12b", "11e"],
                ["3e", "3b", "11o", "11c", "3o"],
            ],
            "trump": "11e",
            "actions": ["pass", "pass", "cuatrola", "pass", "10o", "12e", "11e", "11b", "1b"],
        },
        ["1o"],
    ),
]


@pytest.mark.parametrize("level", ["medium", "hard"])
@pytest.mark.parametrize(("record", "right"), NEEDS_THE_TRICK)
def test_the_declarer_takes_the_trick_it_needs(level, record, right):
    hand = Hand.from_dict(record)
    assert hand.to_play == hand.declarer
    for seed in range(3):
        action = choose_action(seat_view(hand, hand.to_play), level=level, seed=seed)
        assert action in right


@pytest.mark.parametrize("level", ["medium", "hard"])
@pytest.mark.parametrize(("record", "wasted"), PARTNER_WINS)
def test_a_defender_does_not_throw_a_trump_or_an_ace_on_its_partners_trick(level, record, wasted):
    hand = Hand.from_dict(record)
    for seed in range(3):
        action = choose_action(seat_view(hand, hand.to_play), level=level, seed=seed)
        assert action not in wasted
        assert action in hand.legal_actions()
