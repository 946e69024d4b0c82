"""Each achievement's name and condition, in the reader's language (this app's own
catalogue, achievements/locale)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy


def condition(code: str) -> str:
    """The achievement's condition in the active language (its number put in now,
    the plural chosen for it)."""
    text, number = CONDITIONS[code]
    return str(text % {"n": number}) if number is not None else str(text)


def name(code: str) -> str:
    return str(TEXTS[code][0])


TEXTS: dict[str, tuple[Any, Any]] = {
    "first_win": (_("First win"), _("Win a match.")),
    "wins_50": (
        _("Regular winner"),
        (ngettext_lazy("Win %(n)d match.", "Win %(n)d matches.", "n"), 50),
    ),
    "wins_250": (
        _("Veteran winner"),
        (ngettext_lazy("Win %(n)d match.", "Win %(n)d matches.", "n"), 250),
    ),
    "matches_10": (
        _("Taking a seat"),
        (ngettext_lazy("Finish %(n)d match.", "Finish %(n)d matches.", "n"), 10),
    ),
    "matches_100": (
        _("A hundred matches"),
        (ngettext_lazy("Finish %(n)d match.", "Finish %(n)d matches.", "n"), 100),
    ),
    "matches_500": (
        _("Regular at the table"),
        (ngettext_lazy("Finish %(n)d match.", "Finish %(n)d matches.", "n"), 500),
    ),
    "streak_5": (
        _("On a roll"),
        (ngettext_lazy("Win %(n)d match in a row.", "Win %(n)d matches in a row.", "n"), 5),
    ),
    "streak_10": (
        _("Unstoppable"),
        (ngettext_lazy("Win %(n)d match in a row.", "Win %(n)d matches in a row.", "n"), 10),
    ),
    "quintola_made": (_("Quintola"), _("Bid a quintola and take all five tricks.")),
    "quintolas_5": (
        _("Quintola master"),
        (ngettext_lazy("Make %(n)d quintola.", "Make %(n)d quintolas.", "n"), 5),
    ),
    "cuatrola_made": (_("Cuatrola"), _("Bid a cuatrola and make it.")),
    "cuatrola_last_trick": (
        _("To the last trick"),
        _("Make a cuatrola that is decided only by the last trick."),
    ),
    "capote": (_("Capote"), _("Take all five tricks of a hand nobody bid, with your partner.")),
    "solos_25": (
        _("Solo artist"),
        (ngettext_lazy("Make %(n)d solo.", "Make %(n)d solos.", "n"), 25),
    ),
    "bids_100": (
        _("Bold bidder"),
        (ngettext_lazy("Bid %(n)d time.", "Bid %(n)d times.", "n"), 100),
    ),
    "breaker_10": (
        _("Contract breaker"),
        (
            ngettext_lazy(
                "Break %(n)d contract as a defender.", "Break %(n)d contracts as a defender.", "n"
            ),
            10,
        ),
    ),
    "forty": (_("The forty"), _("Declare forty.")),
    "comeback": (
        _("Comeback"),
        _("Win a match after trailing by half the target or more."),
    ),
    "shutout": (_("Shutout"), _("Win a match with your opponents still on zero.")),
    "marathon": (
        _("Marathon"),
        (
            ngettext_lazy(
                "Play a match of %(n)d hand or more.", "Play a match of %(n)d hands or more.", "n"
            ),
            15,
        ),
    ),
    "partner_streak_5": (
        _("Perfect partners"),
        (
            ngettext_lazy(
                "Win %(n)d match in a row with the same partner.",
                "Win %(n)d matches in a row with the same partner.",
                "n",
            ),
            5,
        ),
    ),
    "partners_10": (
        _("Good company"),
        (
            ngettext_lazy(
                "Win with %(n)d different partner.", "Win with %(n)d different partners.", "n"
            ),
            10,
        ),
    ),
    "every_day_7": (
        _("Every day of the week"),
        (ngettext_lazy("Play on %(n)d day in a row.", "Play on %(n)d days in a row.", "n"), 7),
    ),
    "both_rule_sets": (_("Both rule sets"), _("Win a match in each rule set.")),
    "stake_pot": (_("The pot"), _("Win a stake table's pot.")),
    "stake_pots_10": (
        _("High roller"),
        (ngettext_lazy("Win %(n)d stake pot.", "Win %(n)d stake pots.", "n"), 10),
    ),
    "daily_top_tenth": (_("Top tenth"), _("Finish a daily deal in the top 10 %.")),
    "daily_first": (_("Deal of the day"), _("Finish first in a daily deal.")),
    "league_promotion": (_("Promoted"), _("Move up a division in the weekly league.")),
    "league_diamond": (_("Diamond"), _("Be promoted to the Diamond division.")),
    "tournament_won": (_("Champion"), _("Win a tournament.")),
    "tournament_podium": (_("Podium"), _("Finish a tournament in the top three.")),
    "online_quintola_finish": (
        _("Quintola to finish"),
        _("Win an online match with a quintola made in its last hand."),
    ),
    "classic_double": (
        _("Classic double"),
        _("Make a cuatrola and a quintola yourself in one classic match."),
    ),
}


#: code -> (condition, its number or None).
CONDITIONS: dict[str, tuple[Any, int | None]] = {
    code: (text if isinstance(text, tuple) else (text, None))
    for code, (_name, text) in TEXTS.items()
}
