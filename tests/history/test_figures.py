import pytest

from cuatrola.engine import Match as EngineMatch
from history.figures import seat_figures
from tests.history.handbuilt import FIGURES, RECORD, SCORES_AFTER


def test_the_hand_built_match_plays_out_as_its_story_says():
    engine = EngineMatch.from_dict(RECORD)
    finished = [hand for hand in engine.hands if hand.result is not None]
    assert [h.result.scoring_pair for h in finished] == [1, 0, 1]
    assert engine.scores == SCORES_AFTER[-1]


@pytest.mark.parametrize("position", [0, 1, 2])
def test_every_figure_of_a_seat_matches_the_count_made_by_hand(position):
    assert seat_figures(EngineMatch.from_dict(RECORD), position) == FIGURES[position]
