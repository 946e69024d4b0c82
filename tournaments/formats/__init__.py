"""The tournaments' arithmetic, pure: no Django, no rows, no clock (issue 43).

Each module is one format's maths, called by the policies in tournaments.services:

- swiss: pairings (a maximum-weight matching), victory points, standings and tie-breaks;
- knockout: the seeded bracket, a tie's winner, the next round;
- arena: points with a streak bonus, standings;
- duplicate: matchpoints per board, Howell and Mitchell movements;
- partnerships: singles paired into even partnerships by rating;
- prizes: a pool split by rank, ties sharing, to the coin.

Ids are the caller's (entry or team ids); every function is deterministic for the same
input. The import contract "tournaments-formats-pure" (pyproject.toml) keeps Django and
the other apps out.
"""
