"""The game's words, one catalogue (docs/protocol.md, "Game words"):

- `catalogue`: every game word (bids, suits, ranks, card names, the engine's
  refusals) keyed by the engine's codes; pure Python, shipped to the browser for
  offline practice;
- `translated`: that catalogue in the reader's language (Django's gettext), and the
  labels the pages build from it (a card's, a suit's, a bid's name);
- `talk_phrases`: table talk's fixed phrases.

Nothing is imported here: offline practice ships this package with `catalogue` only.
"""
