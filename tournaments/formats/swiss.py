"""Swiss pairs: pairings, victory points and standings (issue 43).

Pairing (`swiss_pair`)
    Teams are ranked by score (victory points so far), then rating, then id. When the
    field is odd the bye goes to the lowest-ranked team that has not had one (the
    lowest-ranked team of all when everyone has). The others are paired by a
    maximum-weight matching (networkx, with maximum cardinality): an edge between two
    teams weighs less the further apart their scores are; inside one score group the
    ideal opponent is half the group away (the Dutch system: 1 v 5, 2 v 6, ... in a
    group of eight), so round one pits the top half against the bottom half.

    Rematches: a pair that has met is no edge at all while a pairing without any
    rematch exists. Only when the whole field has no perfect matching without
    rematches are rematch edges added, weighted so that the fewest possible rematches
    are made (a last resort, e.g. more rounds than teams minus one).

    Speed: networkx's blossom algorithm is cubic and too slow for 512 teams in one
    graph, so the ranked field is cut into blocks of about BLOCK teams (whole score
    groups; a group larger than a block is cut into chunks that keep its halves
    aligned, so the Dutch pairing is unchanged); each block is matched in turn and
    its unpaired teams float down into the next one. If teams remain unpaired at the
    end the blocks are doubled and the pairing tried again, up to one block of the
    whole field (which is then exact), before rematches are allowed.

Victory points (`victory_points`), on a 20-0 scale
    The match's margin is converted against the match target (21 online, 11 classic):
    the loser scores `min(9, 10 - ceil(10 * margin / target))` and the winner 20 minus
    that, so the winner always has 11 to 20 and the loser 0 to 9. A margin of at least
    the target (a whitewash) is 20-0; an equal score (a match stopped level) is 10-10.

    | margin as a share of the target | loser | winner |
    |---|---|---|
    | 0 (level) | 10 | 10 |
    | up to 10 % | 9 | 11 |
    | over 10 % up to 20 % | 8 | 12 |
    | over 20 % up to 30 % | 7 | 13 |
    | ... one VP per further 10 % ... | | |
    | over 80 % up to 90 % | 1 | 19 |
    | over 90 % | 0 | 20 |

    At target 21: 21-20 is 11-9, 21-15 is 13-7, 21-0 is 20-0.

    A bye scores BYE_VICTORY_POINTS (12: a modest win) for the team, whatever the bots
    it plays against do; the caller records it as a SwissResult with team_b None.

Standings (`swiss_standings`): ranked by
    1. victory points;
    2. Buchholz: the sum of the victory points of the opponents met (a bye adds
       nothing);
    3. match points difference (points for minus points against; a bye adds nothing).
    Teams equal on all three share a rank (1, 2, 2, 4); within a shared rank they are
    listed by rating, then id. Head-to-head is not used.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import ceil

import networkx as nx

#: Victory points a team scores for a bye (the round's opponents are bots).
BYE_VICTORY_POINTS = 12
#: The victory-point scale: a match shares out this many points between the two teams.
VP_TOTAL = 20
#: Target size of one matching block (see the module's docstring).
BLOCK = 32


@dataclass(frozen=True)
class SwissTeam:
    """A team as the pairing sees it: its score so far and who it has met."""

    id: int
    score: float
    rating: float
    opponents: frozenset[int]
    had_bye: bool


@dataclass(frozen=True)
class SwissRound:
    """One round's pairings: (higher-ranked, lower-ranked) by table, and the bye."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    #: How many of the pairs are rematches (0 unless there was no other way).
    rematches: int = 0


@dataclass(frozen=True)
class SwissResult:
    """One played match (or a bye: team_b None, vp_b and points 0)."""

    team_a: int
    team_b: int | None
    vp_a: int
    vp_b: int
    points_a: int
    points_b: int


@dataclass(frozen=True)
class Standing:
    id: int
    rank: int
    vp: int
    buchholz: int
    points_diff: int
    played: int
    wins: int
    byes: int
    rating: float


def victory_points(points_a: int, points_b: int, *, target: int) -> tuple[int, int]:
    """Convert a match's points into victory points on the 20-0 scale (module docstring)."""
    if target <= 0:
        raise ValueError("the match target must be positive")
    if points_a < 0 or points_b < 0:
        raise ValueError("match points are never negative")
    if points_a == points_b:
        return VP_TOTAL // 2, VP_TOTAL // 2
    margin = min(abs(points_a - points_b), target)
    loser = min(9, 10 - ceil(10 * margin / target))
    winner = VP_TOTAL - loser
    return (winner, loser) if points_a > points_b else (loser, winner)


def _ranked(teams: Iterable[SwissTeam]) -> list[SwissTeam]:
    return sorted(teams, key=lambda t: (-t.score, -t.rating, t.id))


def _pick_bye(ranked: list[SwissTeam]) -> SwissTeam | None:
    if len(ranked) % 2 == 0:
        return None
    without = [t for t in ranked if not t.had_bye]
    return (without or ranked)[-1]


class _Field:
    """The ranked field (bye removed) and each team's place in its score group."""

    def __init__(self, ranked: list[SwissTeam]) -> None:
        self.ranked = ranked
        self.rank = {t.id: i for i, t in enumerate(ranked)}
        self.by_id = {t.id: t for t in ranked}
        self.groups: list[list[SwissTeam]] = []
        for team in ranked:
            if self.groups and self.groups[-1][0].score == team.score:
                self.groups[-1].append(team)
            else:
                self.groups.append([team])
        self.place: dict[int, tuple[int, int]] = {}  # id -> (position in group, group size)
        for group in self.groups:
            for i, team in enumerate(group):
                self.place[team.id] = (i, len(group))
        # A cost never exceeds this (scores up to 10**6 apart in tenths would break the
        # bound only for absurd inputs; the bound is computed, not assumed).
        spread = ranked[0].score - ranked[-1].score if ranked else 0.0
        self.max_cost = _score_cost(spread) + len(ranked) + 1

    def cost(self, a: int, b: int) -> int:
        ta, tb = self.by_id[a], self.by_id[b]
        if ta.score == tb.score:
            (pa, size), (pb, _) = self.place[a], self.place[b]
            return abs(abs(pa - pb) - size // 2)
        return _score_cost(ta.score - tb.score) + abs(self.rank[a] - self.rank[b])

    def blocks(self, size: int) -> list[list[SwissTeam]]:
        units: list[list[SwissTeam]] = []
        for group in self.groups:
            if len(group) <= size:
                units.append(group)
                continue
            half = len(group) // 2
            top, bottom = group[:half], group[half:]
            step = max(1, size // 2)
            for start in range(0, half, step):
                units.append(top[start : start + step] + bottom[start : start + step])
            units.append(bottom[half:])  # the odd one of an odd group, if any
        blocks: list[list[SwissTeam]] = []
        current: list[SwissTeam] = []
        for unit in units:
            current.extend(unit)
            if len(current) >= size:
                blocks.append(current)
                current = []
        if current:
            blocks.append(current)
        return blocks


def _score_cost(difference: float) -> int:
    tenths = round(abs(difference) * 10)
    return tenths * tenths * 10_000


def _match(
    field: _Field, nodes: list[SwissTeam], *, allow_rematch: bool
) -> tuple[list[tuple[int, int]], list[SwissTeam], int]:
    """Match `nodes`; return the pairs, the unpaired (in rank order) and the rematches."""
    graph = nx.Graph()
    graph.add_nodes_from(t.id for t in nodes)
    ceiling = field.max_cost + 1
    rematch_penalty = ceiling * (len(nodes) // 2 + 1)
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            rematch = b.id in a.opponents or a.id in b.opponents
            if rematch and not allow_rematch:
                continue
            weight = ceiling - field.cost(a.id, b.id)
            if not rematch:
                weight += rematch_penalty
            graph.add_edge(a.id, b.id, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[int, int]] = []
    paired: set[int] = set()
    rematches = 0
    for a, b in matching:
        first, second = sorted((int(a), int(b)), key=field.rank.__getitem__)
        pairs.append((first, second))
        paired.update((first, second))
        if second in field.by_id[first].opponents or first in field.by_id[second].opponents:
            rematches += 1
    unpaired = [t for t in nodes if t.id not in paired]
    return pairs, unpaired, rematches


def swiss_pair(teams: Sequence[SwissTeam]) -> SwissRound:
    """Pair one Swiss round (module docstring). Deterministic for the same input."""
    ids = [t.id for t in teams]
    if len(set(ids)) != len(ids):
        raise ValueError("team ids must be unique")
    ranked = _ranked(teams)
    bye = _pick_bye(ranked)
    if bye is not None:
        ranked = [t for t in ranked if t.id != bye.id]
    field = _Field(ranked)
    bye_id = bye.id if bye is not None else None
    if not ranked:
        return SwissRound(pairs=(), bye=bye_id)
    size = BLOCK
    while True:
        pairs: list[tuple[int, int]] = []
        floating: list[SwissTeam] = []
        for block in field.blocks(size):
            found, floating, _ = _match(field, floating + block, allow_rematch=False)
            pairs.extend(found)
        if not floating:
            return SwissRound(pairs=_by_table(field, pairs), bye=bye_id)
        if size >= len(ranked):
            break
        size *= 2
    pairs, _, rematches = _match(field, ranked, allow_rematch=True)
    return SwissRound(pairs=_by_table(field, pairs), bye=bye_id, rematches=rematches)


def _by_table(field: _Field, pairs: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(pairs, key=lambda p: field.rank[p[0]]))


def swiss_standings(
    teams: Sequence[tuple[int, float]], results: Sequence[SwissResult]
) -> list[Standing]:
    """Rank `teams` (id, rating) over `results` (module docstring: tie-breaks)."""
    rating = dict(teams)
    if len(rating) != len(teams):
        raise ValueError("team ids must be unique")
    vp = dict.fromkeys(rating, 0)
    diff = dict.fromkeys(rating, 0)
    played = dict.fromkeys(rating, 0)
    wins = dict.fromkeys(rating, 0)
    byes = dict.fromkeys(rating, 0)
    met: dict[int, list[int]] = {team: [] for team in rating}
    for result in results:
        if result.team_a not in rating or (
            result.team_b is not None and result.team_b not in rating
        ):
            raise ValueError(f"a result names an unknown team: {result}")
        vp[result.team_a] += result.vp_a
        played[result.team_a] += 1
        if result.team_b is None:
            byes[result.team_a] += 1
            wins[result.team_a] += 1
            continue
        vp[result.team_b] += result.vp_b
        played[result.team_b] += 1
        diff[result.team_a] += result.points_a - result.points_b
        diff[result.team_b] += result.points_b - result.points_a
        met[result.team_a].append(result.team_b)
        met[result.team_b].append(result.team_a)
        if result.vp_a > result.vp_b:
            wins[result.team_a] += 1
        elif result.vp_b > result.vp_a:
            wins[result.team_b] += 1
    buchholz = {team: sum(vp[o] for o in met[team]) for team in rating}

    def key(team: int) -> tuple[int, int, int]:
        return (-vp[team], -buchholz[team], -diff[team])

    order = sorted(rating, key=lambda t: (*key(t), -rating[t], t))
    standings: list[Standing] = []
    for i, team in enumerate(order):
        rank = standings[-1].rank if i and key(order[i - 1]) == key(team) else i + 1
        standings.append(
            Standing(
                id=team,
                rank=rank,
                vp=vp[team],
                buchholz=buchholz[team],
                points_diff=diff[team],
                played=played[team],
                wins=wins[team],
                byes=byes[team],
                rating=rating[team],
            )
        )
    return standings
