"""Every string the table's JavaScript shows, translated in the page's language.

The table page hands this dict to `static/js/table-view.js` (json_script), so the
client renderer holds no text of its own: one place to translate, and the same
catalogue as the server-rendered board. Placeholders are `{name}`. Counts that
need plural forms are bounded (cards in a hand, tricks in a hand), so their
forms come precomputed per number, each right for the language.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from games.models import BotLevel, Mode, RuleSetName
from games.templatetags.cards import card_assets_data
from games.words.translated import game_words


def table_deck() -> dict[str, Any]:
    """The drawn deck's assets for `CuatrolaCards.configure` (docs/cards.md), with
    faces keyed by suit then rank and no names: the page carries no card code or
    name but the seat's own (the renderer names every card it draws)."""
    assets = card_assets_data()
    faces: dict[str, dict[str, str]] = {}
    for code, url in assets["faces"].items():
        faces.setdefault(code[-1], {})[code[:-1]] = url
    return {
        "faces": faces,
        "back": assets["back"],
        "backName": assets["backName"],
        "sizes": assets["sizes"],
    }


def refusal_texts() -> dict[str, str]:
    """What the table page says when the server refuses its socket for good, by close
    code (docs/protocol.md: the codes whose page "says so and stops"; static/js/table.js
    lists the same codes and opens no other socket after one)."""
    watching = settings.WATCH_SOCKETS_PER_USER
    return {
        "4401": _("You are not signed in any more. Sign in again to see this table."),
        "4403": _("Your account is suspended: tables cannot be opened."),
        "4404": _("This table is not open to you any more. Reload the page."),
        "4433": _("This table is closed to watchers."),
        "4434": _("This table already has as many watchers as it can take. Try again later."),
        "4435": ngettext(
            "You are already watching in %(n)s other tab. Close it, then reload this page.",
            "You are already watching in %(n)s other tabs. Close one, then reload this page.",
            watching,
        )
        % {"n": watching},
        "4436": _("You are playing a match at another table: you cannot watch while you play."),
        "4437": _("Too many people are watching this table from your network. Try again later."),
    }


def table_strings() -> dict[str, Any]:
    return {
        "lang": (get_language() or "es")[:2],
        "deck": table_deck(),
        # The game words (games/words/catalogue.py): bids, suits, ranks, card names (from the
        # rank and the suit's pattern: "rey de espadas", "금화 잭", the names the replay
        # and the history use, so the page holds no card codes or names but the seat's
        # own: tests/games/hidden.py) and the refusals by the engine's code.
        "words": game_words(),
        "levels": {level.value: str(level.label) for level in BotLevel},
        # What is being played, above the scores: the mode, the rule set, the stake.
        "modes": {mode.value: str(mode.label) for mode in Mode},
        "rule_sets": {rules.value: str(rules.label) for rules in RuleSetName},
        "stake": _("Stake: {coins} coins"),
        "pot": _("Pot: {coins} coins"),
        # Linked accounts seated at the table (games.frames.page.linked_text says the same).
        "linked_accounts": _("Linked accounts: {a} and {b}"),
        # Bounded counts: index n is the text for n.
        "cards_n": [ngettext("%(n)s card", "%(n)s cards", n) % {"n": n} for n in range(11)],
        "tricks_n": [ngettext("%(n)s trick", "%(n)s tricks", n) % {"n": n} for n in range(11)],
        "trick_region": _("Trick"),
        "your_hand": _("Your hand"),
        "bids_label": _("Your bid"),
        "you": _("you"),
        "partner": _("partner"),
        "opponent": _("opponent"),
        "bot": pgettext("seat badge", "bot"),
        # The same words as the server-rendered board (games/reliability.html).
        "reliability_title": _(
            "Finishes %(finished)s%% of their matches, %(on_time)s%% without a turn timed out"
        )
        % {"finished": "{finished}", "on_time": "{on_time}"},
        "reliability_label": _(
            "(reputation: %(finished)s%% of matches finished, %(on_time)s%% without a turn "
            "timed out)"
        )
        % {"finished": "{finished}", "on_time": "{on_time}"},
        # What the two figures beside a name mean, under the table (games/table.html).
        "reputation_legend": _(
            "Beside each name: the share of their matches finished · the share finished "
            "without a turn timed out."
        ),
        "reputation_low": int(settings.REPUTATION_LOW_PERCENT),
        "rating_legend": _(
            "Rating beside each name; “?”: provisional (fewer than 10 rated matches)."
        ),
        # The rating beside a name at rated tables (games/rating.html says the same).
        "rating_title": _("Rating {value}"),
        "rating_provisional_title": _("Rating {value}, provisional: fewer than 10 rated matches"),
        "rating_bot_title": _("Fixed rating of this bot level: {value}"),
        # The end-of-match panel: the rating after the match and its change.
        "rating_change": _("Rating: {after} ({change})"),
        "your_rating_change": _("Your rating: {after} ({change})"),
        "bot_level": _("bot, {level}"),
        "empty_seat": _("Empty seat"),
        "dealer": _("Dealer"),
        "mano": pgettext("the seat that bids first", "Mano"),
        "sits_out": _("Sits out"),
        "away": _("Away, a bot plays"),
        "abandoned": _("Abandoned, a bot plays"),
        "trump": _("Trump"),
        "trump_card": _("Trump: {card}"),
        "trump_held": _("Trump card, held by the dealer: {card}"),
        "contract_of": _("Contract: {contract}"),
        "declared": _("Declared {points} in {suit}"),
        "us": _("Us"),
        # A pair named for a watcher, who sides with neither: its two players.
        "pair_names": _("{a} & {b}"),
        "them": _("Them"),
        "to_target": _("to {target}"),
        "hand_no": _("Hand {n}"),
        "score_label": _("Score"),
        "your_turn": _("Your turn"),
        "your_turn_bid": _("Your turn: bid"),
        "your_turn_card": _("Your turn: play a card"),
        "to_play": _("{name} to play"),
        "seconds_left": _("Seconds left"),
        "last_trick": _("Last trick"),
        "hide_last_trick": _("Back to the table"),
        "won_trick": _("{name} wins the trick"),
        "trick_points": _("{name} wins the trick: {points} points"),
        # Sentences about a seat have a second-person form (key + "_you") for the
        # player's own seat where it is named "You" (offline practice).
        "won_trick_you": _("You win the trick"),
        "trick_points_you": _("You win the trick: {points} points"),
        "winner_mark": _("Winner"),
        "played": _("{name} plays {card}"),
        "played_you": _("You play {card}"),
        "bid_made": _("{name}: {bid}"),
        "all_passed": _("Everybody passed: the hand is played for points."),
        "contract_set": _("{name} plays {contract}"),
        "contract_set_you": _("You play {contract}"),
        "sings": _("{name} declares {points} in {suit}"),
        "sings_you": _("You declare {points} in {suit}"),
        "keys_hint": _("Arrow keys or numbers choose a card, Enter plays it."),
        "sending": _("Sending…"),
        # The end of a hand.
        "summary_title": _("Hand {n} result"),
        "summary_pass": _("Everybody passed: the hand was played for points."),
        "summary_made": _("{name} bid {contract}: made."),
        "summary_failed": _("{name} bid {contract}: failed."),
        "summary_made_you": _("You bid {contract}: made."),
        "summary_failed_you": _("You bid {contract}: failed."),
        "summary_tricks": _("Tricks"),
        "summary_card_points": _("Card points"),
        "summary_declarations": _("Declarations"),
        "summary_last_trick": _("Last-trick bonus (10)"),
        "summary_match_points": _("Match points"),
        "summary_hand_points": _("Hand points"),
        "summary_none": _("none"),
        "summary_tie": _("A tie: nobody scores."),
        "close": _("Continue"),
        # The end of a match.
        "you_won": _("You won the match!"),
        "you_lost": _("You lost the match."),
        "you_abandoned": _("You left the match: it counts as a loss."),
        "match_over": _("Match over"),
        "final_score": _("Final score: {us} – {them}"),
        "places": _("Places"),
        "personal_points": _("Personal points"),
        "coins": _("Coins"),
        "xp": _("XP"),
        "abandoned_tag": _("abandoned"),
        "play_again": _("Play again"),
        "back_to_lobby": _("Back to the lobby"),
        "leave": _("Leave the match (counts as a loss)"),
        "leave_confirm": _("Leave the match? A bot will finish it and it counts as a loss."),
        # The daily deal's table (docs/daily.md).
        "daily_deal_of": _("deal {n} of {of}"),
        "daily_leave": _("Leave for now (your play is kept)"),
        "daily_leave_confirm": _(
            "Leave this deal for now? Nothing is played for you: come back to it later "
            "today, before midnight."
        ),
        "daily_result": _("Deal {n}: {result} for your pair"),
        "daily_result_hint": _(
            "Your result is compared with everyone who played this deal; the ranking "
            "says how you stand."
        ),
        "daily_next": _("Next deal ({n} of {of})"),
        "daily_results": _("Your results today"),
        "daily_deal_results": _("Everyone's results on this deal"),
        "daily_page": _("Daily deal page"),
        "daily_parked": _("You left this deal for now: nothing is played for you."),
        "daily_resume": _("Continue this deal"),
        "offline": _("Connection lost: reconnecting…"),
        "server_restarting": _("The server is restarting: reconnecting…"),
        # Close code 1009: the web server (uvicorn's --ws-max-size) refuses a message over
        # 1 MiB before the site sees it.
        "too_big_closed": _(
            "The server closed the connection: a message was over its 1 MiB limit "
            "and was not received. Reconnecting…"
        ),
        "refused": _("This table is not open to you any more. Reload the page."),
        # The close codes after which the page stops (docs/protocol.md): why, each.
        "refusals": refusal_texts(),
        # Close codes 4430/4431: too many sockets open for the account or the address.
        "too_many_sockets": _(
            "Too many connections are open at once for your account or your network. "
            "Close another tab of this site; trying again in 30 seconds…"
        ),
        "waiting": _("Waiting for the match to start."),
        # How many watch (the `watchers` message, docs/watching.md): bounded by
        # WATCHERS_PER_TABLE, so index n is the text for n (a larger count, possible
        # for a moment across processes, takes the last text's form with its number).
        "watching_n": [
            ngettext("%(n)s watching", "%(n)s watching", n) % {"n": "{n}"}
            for n in range(settings.WATCHERS_PER_TABLE + 1)
        ],
        # A watcher following a friend (`?follow=`), once the match is over.
        "follow_next": _("Watch {name}'s next table"),
        "wallet": _("{coins} coins · level {level}"),
        # Table talk (games/words/talk_phrases.py; the phrases themselves come translated in each
        # `talk` frame, in the reader's language).
        "talk": {
            # One toggle a person (aria-pressed): its name stays; the note shows it is on.
            "mute": _("Mute {name}"),
            "muted": _("talk hidden"),
            "you": _("you"),
            "players": _("The players"),
            "block": _("Block {name}"),
            "report": _("Report {name}"),
            "offline": _("Not connected: nothing was sent. Try again once the table is back."),
        },
    }
