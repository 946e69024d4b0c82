"""The rating model, pure: no Django, no clock, no I/O (docs/ratings.md).

A player's skill is a Weng–Lin Bayesian estimate (openskill's Plackett–Luce model):
a mean `mu` and an uncertainty `sigma`. A match is two teams of two; each of the
four seats keeps its own estimate and the update is shared out inside a pair in
proportion to each player's uncertainty. Bots take part with fixed estimates per
level and are never updated.

What a person sees is `shown(mu)`: 1500 for a new player, 70 points per unit of
`mu`; provisional ("?") until PROVISIONAL_MATCHES rated matches. While provisional,
one match moves the number at most a given step (`provisional_step`, the service
passes settings.RATING_PROVISIONAL_STEP): docs/ratings.md, "A first result".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

#: The library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): the values the
#: model was published and tested with.
MODEL = PlackettLuce()
#: The shown number of a new player, and its points per unit of mu.
CENTRE = 1500
SCALE = 70
#: A player is provisional until this many rated matches (since their last reset).
PROVISIONAL_MATCHES = 10


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        return shown(self.mu)


NEW = Skill(MODEL.mu, MODEL.sigma)

#: Fixed estimates of the bots by level, never updated (docs/ratings.md, "Bots"):
#: the gaps measured by bench/ratings_bench.py (bots against each other), medium
#: anchored at a new player's 1500. Their sigma is the measurement's uncertainty.
BOT_SKILLS: dict[str, Skill] = {
    "easy": Skill(21.84, 1.0),  # medium − 3.16 (−221)
    "medium": Skill(25.0, 1.0),
    "hard": Skill(25.47, 1.0),  # medium + 0.47 (+33)
}


def shown(mu: float) -> int:
    """The whole number a person sees for an estimate `mu`."""
    return round(CENTRE + SCALE * (mu - MODEL.mu))


def bot_skill(level: str) -> Skill:
    """The fixed estimate of a bot level; an unknown level is a programming error."""
    try:
        return BOT_SKILLS[level]
    except KeyError:
        raise ValueError(f"no fixed rating for the bot level {level!r}") from None


def provisional(matches: int) -> bool:
    return matches < PROVISIONAL_MATCHES


def provisional_step(before: Skill, after: Skill, step: int) -> Skill:
    """`after` with its mean moved at most `step` shown points from `before`'s (the
    uncertainty as the model left it): what one match may do to a provisional
    player's number. A step of 0 or less caps nothing. The shown number moves at
    most `step` points, give or take one for the rounding of `shown`."""
    if step <= 0:
        return after
    most = step / SCALE
    mu = min(max(after.mu, before.mu - most), before.mu + most)
    return after if mu == after.mu else Skill(mu, after.sigma)


@dataclass(frozen=True)
class SeatIn:
    """One seat of a finished match, in position order: its estimate before the
    match, whether it is a person's (bots are never updated), whether they
    abandoned it, and whether they are protected when their partner abandons (the
    service withdraws it from a partner linked to the abandoner, and from a pair that
    abandons repeatedly: docs/ratings.md, "Abandonment")."""

    skill: Skill
    person: bool = True
    abandoned: bool = False
    protected: bool = True


def match_update(seats: Sequence[SeatIn], winner: int) -> list[Skill | None]:
    """The estimates after a match, by position (None for a bot's seat).

    Pairs are positions 0 and 2 against 1 and 3; `winner` is the winning pair (0 or
    1). An abandoner is rated as having lost, whatever their pair did. A `protected`
    player whose partner abandoned is never rated down for the match: if their pair
    lost, their estimate stays as it was; if it won, they gain as any winner. One
    not protected is rated as the match went.
    """
    if len(seats) != 4:
        raise ValueError(f"a match has four seats, not {len(seats)}")
    if winner not in (0, 1):
        raise ValueError(f"the winning pair is 0 or 1, not {winner!r}")
    as_played = _rate(seats, winner)
    flipped: list[Skill] | None = None
    after: list[Skill | None] = []
    for position, seat in enumerate(seats):
        pair = position % 2
        partner = seats[position ^ 2]
        if not seat.person:
            after.append(None)
        elif seat.abandoned and pair == winner:
            if flipped is None:
                flipped = _rate(seats, 1 - winner)
            after.append(flipped[position])  # rated as having lost
        elif partner.abandoned and not seat.abandoned and pair != winner and seat.protected:
            after.append(seat.skill)  # left with a bot: not rated down
        else:
            after.append(as_played[position])
    return after


def _rate(seats: Sequence[SeatIn], winner: int) -> list[Skill]:
    ratings = [PlackettLuceRating(s.skill.mu, s.skill.sigma) for s in seats]
    teams = [[ratings[0], ratings[2]], [ratings[1], ratings[3]]]
    ranks: list[float] = [0.0, 1.0] if winner == 0 else [1.0, 0.0]
    (a0, a2), (b1, b3) = MODEL.rate(teams, ranks=ranks)
    return [Skill(r.mu, r.sigma) for r in (a0, b1, a2, b3)]


def win_chance(pair_a: Sequence[Skill], pair_b: Sequence[Skill]) -> float:
    """The model's chance that `pair_a` beats `pair_b` (the bench's fit and tests)."""
    teams = [
        [PlackettLuceRating(s.mu, s.sigma) for s in pair_a],
        [PlackettLuceRating(s.mu, s.sigma) for s in pair_b],
    ]
    return MODEL.predict_win(teams)[0]
