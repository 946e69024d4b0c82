"""Rule sets as data (docs/rules.md §9): one frozen object per set."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from .errors import UnknownRuleSet

#: Bid words, low to high; the index of a word is its bid level (0 = pass).
BIDS: Final = ("pass", "solo", "cuatrola", "quintola")
BID_LEVEL: Final[dict[str, int]] = {word: level for level, word in enumerate(BIDS)}
PASS: Final = 0
SOLO: Final = 1
CUATROLA: Final = 2
QUINTOLA: Final = 3


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every number and choice that differs between rule sets.

    Tuples indexed by bid level (``BIDS``) hold per-contract data; index 0
    (pass) is unused.
    """

    name: str
    #: Match points a pair must reach or pass to win the match.
    target: int
    #: Value of each contract (docs/rules.md §7), by bid level.
    contract_values: tuple[int, int, int, int] = (0, 2, 4, 5)
    #: Tricks the declarer must win for a contract decided on tricks, by bid level.
    tricks_needed: tuple[int, int, int, int] = (0, 3, 4, 5)
    #: Whether the solo is decided by hand points (played out) instead of tricks.
    solo_by_points: bool = False
    #: Who wins a tied solo decided by points: the mano seat's pair.
    solo_tie: Literal["mano"] = "mano"
    #: Match points for winning a pass hand.
    pass_hand_points: int = 1
    #: Hand points a pass-hand winner must EXCEED to score `pass_hand_bonus_points`
    #: instead; None: no bonus.
    pass_hand_bonus_above: int | None = None
    pass_hand_bonus_points: int = 2
    #: Who wins a tied pass hand: the pair that took the last trick, or the mano's pair.
    pass_tie: Literal["last_trick", "mano"] = "mano"
    #: Whether declarations are made in a solo decided by points (they never are
    #: in contracts decided on tricks).
    declarations_in_solo: bool = False
    #: Most declarations one pair may make in a hand; None: no limit.
    max_declarations_per_pair: int | None = None
    declaration_trumps: int = 40
    declaration_plain: int = 20
    last_trick_bonus: int = 10

    def contract_value(self, bid: str) -> int:
        """Value of a contract by its word (``solo``, ``cuatrola``, ``quintola``)."""
        return self.contract_values[BID_LEVEL[bid]]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready description (for docs and the UI's rules page)."""
        return {
            "name": self.name,
            "target": self.target,
            "contract_values": dict(zip(BIDS[1:], self.contract_values[1:], strict=True)),
            "tricks_needed": dict(zip(BIDS[1:], self.tricks_needed[1:], strict=True)),
            "solo_by_points": self.solo_by_points,
            "pass_hand_points": self.pass_hand_points,
            "pass_hand_bonus_above": self.pass_hand_bonus_above,
            "pass_hand_bonus_points": self.pass_hand_bonus_points,
            "pass_tie": self.pass_tie,
            "declarations_in_solo": self.declarations_in_solo,
            "max_declarations_per_pair": self.max_declarations_per_pair,
        }


ONLINE: Final = RuleSet(
    name="online",
    target=21,
    solo_by_points=False,
    pass_hand_bonus_above=100,
    pass_tie="last_trick",
    declarations_in_solo=False,
    max_declarations_per_pair=2,
)

CLASSIC: Final = RuleSet(
    name="classic",
    target=11,
    solo_by_points=True,
    pass_hand_bonus_above=None,
    pass_tie="mano",
    declarations_in_solo=True,
    max_declarations_per_pair=None,
)

RULE_SETS: Final[dict[str, RuleSet]] = {"online": ONLINE, "classic": CLASSIC}
DEFAULT_RULE_SET: Final = "online"


def rule_set(name: str | RuleSet) -> RuleSet:
    """The rule set called `name` (``online`` or ``classic``); a RuleSet passes through."""
    if isinstance(name, RuleSet):
        return name
    try:
        return RULE_SETS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(RULE_SETS))
        raise UnknownRuleSet(f"unknown rule set {name!r} (known: {known})") from None
