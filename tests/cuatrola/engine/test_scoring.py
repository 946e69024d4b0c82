"""Scoring a hand (docs/rules.md §7) and the worked examples of §11."""

from __future__ import annotations

from cuatrola.engine import Hand, HandResult
from cuatrola.engine.core import CODE_INDEX, mask_of, mask_points
from cuatrola.engine.events import ContractFailed, ContractMade, HandOver

from . import records as R


def result_of(record: dict[str, object]) -> tuple[Hand, HandResult]:
    hand = Hand.from_dict(record)
    assert hand.phase == "over"
    assert hand.to_play is None
    assert hand.result is not None
    return hand, hand.result


def test_online_pass_hand_over_100_points_scores_2() -> None:
    hand, result = result_of(R.BONUS_112)
    # Card points counted independently of the engine.
    won = [t for t in hand.tricks if t.winner % 2 == 0]
    cards = [c for t in won for _s, c in t.plays]
    assert mask_points(mask_of(CODE_INDEX[c] for c in cards)) == 62
    assert result.card_points == (62, 58)
    assert result.last_trick_seat % 2 == 0
    assert result.hand_points == (62 + 10 + 40, 58)
    assert (result.scoring_pair, result.match_points) == (0, 2)


def test_online_pass_hand_of_exactly_100_scores_1() -> None:
    _hand, result = result_of(R.EXACTLY_100)
    assert result.hand_points[0] == 100
    assert (result.scoring_pair, result.match_points) == (0, 1)


def test_online_pass_hand_of_101_scores_2() -> None:
    _hand, result = result_of(R.EXACTLY_101)
    assert result.hand_points[0] == 101
    assert (result.scoring_pair, result.match_points) == (0, 2)


def test_classic_pass_hand_always_scores_1() -> None:
    _hand, result = result_of(R.THREE_DECLARATIONS)
    assert result.hand_points[0] > 100
    assert result.match_points == 1


def test_pass_hand_points_include_the_last_trick_and_declarations() -> None:
    _hand, result = result_of(R.TIE_ONLINE)
    assert result.card_points == (65, 55)
    assert result.hand_points == (65 + 10, 55 + 20)


def test_online_pass_hand_tie_goes_to_the_pair_that_took_the_last_trick() -> None:
    hand, result = result_of(R.TIE_ONLINE)
    assert result.tie
    assert hand.mano % 2 == 1
    assert result.last_trick_seat % 2 == 0
    assert (result.scoring_pair, result.match_points) == (0, 1)


def test_classic_pass_hand_tie_goes_to_the_manos_pair() -> None:
    hand, result = result_of(R.TIE_CLASSIC)
    assert result.tie
    assert result.hand_points == (65, 65)
    assert result.last_trick_seat % 2 == 0
    assert (result.scoring_pair, result.match_points) == (hand.mano % 2, 1) == (1, 1)


def test_online_solo_fails_when_the_opponents_win_the_first_three_tricks() -> None:
    states, events = Hand.replay(R.SOLO_FAILED_AFTER_3)
    hand = states[-1]
    assert hand.declarer == 1 and hand.sitting_out == 3
    assert [t.winner % 2 for t in hand.tricks] == [0, 0, 0]
    assert hand.result.tricks_played == 3
    assert not hand.result.made
    assert hand.result.hand_points is None
    assert (hand.result.scoring_pair, hand.result.match_points) == (0, 2)
    assert sum(len(h) for h in (hand.hand_of(s) for s in (0, 1, 2))) == 6  # cards left unplayed
    last = events[-1]
    assert isinstance(last[-2], ContractFailed) and isinstance(last[-1], HandOver)


def test_online_solo_is_made_on_the_declarers_third_trick() -> None:
    _hand, result = result_of(R.SOLO_MADE_AFTER_4)
    assert result.tricks_per_seat[1] == 3
    assert result.tricks_played == 4
    assert result.made and (result.scoring_pair, result.match_points) == (1, 2)


def test_online_solo_can_go_to_the_fifth_trick() -> None:
    _hand, result = result_of(R.SOLO_FAILED_AFTER_5)
    assert result.tricks_played == 5
    assert result.tricks_per_seat[1] == 2
    assert not result.made and (result.scoring_pair, result.match_points) == (0, 2)


def test_cuatrola_is_made_with_four_tricks_and_stops() -> None:
    states, events = Hand.replay(R.CUATROLA_MADE_AFTER_4)
    result = states[-1].result
    assert result.tricks_per_seat[2] == 4 and result.tricks_played == 4
    assert result.made and (result.scoring_pair, result.match_points) == (0, 4)
    assert ContractMade(2, "cuatrola", 4) in events[-1]


def test_cuatrola_fails_when_the_opponents_win_two_tricks() -> None:
    _hand, result = result_of(R.CUATROLA_FAILED_AFTER_3)
    assert result.tricks_per_seat[1] + result.tricks_per_seat[3] == 2
    assert result.tricks_played == 3
    assert not result.made and (result.scoring_pair, result.match_points) == (1, 4)


def test_quintola_is_made_with_all_five_tricks() -> None:
    _hand, result = result_of(R.QUINTOLA_MADE)
    assert result.tricks_per_seat[3] == 5
    assert result.made and (result.scoring_pair, result.match_points) == (1, 5)


def test_quintola_fails_as_soon_as_the_opponents_win_a_trick() -> None:
    _hand, result = result_of(R.QUINTOLA_FAILED_AFTER_1)
    assert result.tricks_played == 1
    assert not result.made and (result.scoring_pair, result.match_points) == (0, 5)


def test_classic_solo_is_made_on_points_though_the_declarer_won_two_tricks() -> None:
    _hand, result = result_of(R.CLASSIC_SOLO_MADE)
    assert result.tricks_per_seat[1] == 2 and result.tricks_played == 5
    assert result.hand_points == (49, 50 + 10)
    assert result.made and (result.scoring_pair, result.match_points) == (1, 2)


def test_classic_solo_fails_on_points_though_the_declarer_won_three_tricks() -> None:
    _hand, result = result_of(R.CLASSIC_SOLO_FAILED)
    assert result.tricks_per_seat[1] == 3
    assert result.hand_points == (40 + 20, 44 + 10)
    assert not result.made and (result.scoring_pair, result.match_points) == (0, 2)


def test_classic_solo_last_trick_counts_10_with_three_seats_playing() -> None:
    _hand, result = result_of(R.CLASSIC_SOLO_MADE)
    assert result.last_trick_seat == 1
    assert result.hand_points[1] == result.card_points[1] + 10


def test_the_sitting_out_cards_count_for_nobody_in_a_classic_solo() -> None:
    hand, result = result_of(R.CLASSIC_SOLO_MADE)
    out_points = mask_points(hand.hand_mask(3))
    assert out_points > 0
    assert sum(result.card_points) == 120 - out_points


def test_classic_solo_tie_goes_to_the_mano_seats_pair_when_the_mano_is_an_opponent() -> None:
    hand, result = result_of(R.CLASSIC_SOLO_TIE_MANO_OPPONENT)
    assert hand.declarer == 2 and hand.mano == 1
    assert result.tie and result.hand_points == (61, 61)
    assert not result.made and (result.scoring_pair, result.match_points) == (1, 2)


def test_classic_solo_tie_goes_to_the_declarer_when_the_mano_sits_out() -> None:
    hand, result = result_of(R.CLASSIC_SOLO_TIE_MANO_SITS_OUT)
    assert hand.sitting_out == hand.mano == 1
    assert result.tie and result.hand_points == (50, 50)
    assert result.made and (result.scoring_pair, result.match_points) == (1, 2)


def test_the_result_is_json_ready() -> None:
    import json

    _hand, result = result_of(R.CLASSIC_SOLO_WITH_DECLARATIONS)
    assert json.loads(json.dumps(result.to_dict()))["declarations"][1]["cards"] == ["12b", "11b"]
