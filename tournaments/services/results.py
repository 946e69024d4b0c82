"""A tournament game's result, recorded into its tie inside the match's finishing
transaction (the `tournament` mode's `match_settle`), once per game."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from cuatrola.engine.rules import rule_set
from games.models import Match, Table
from tournaments.formats import knockout, swiss
from tournaments.models import (
    Entry,
    Format,
    Game,
    Pairing,
    PairingState,
    Tournament,
    TournamentState,
)
from tournaments.services.common import changed

#: A knockout tie still undecided after this many games beyond its best-of (aborted
#: games) goes to the higher seed (team A).
EXTRA_GAMES = 2


def game_record(*, table: Table, match: Match, aborted: bool = False) -> bool:
    """Record the finished (or, `aborted`, stopped) `match` of `table` into its
    tournament: the game's points and winner, then its tie (Swiss: points and victory
    points; knockout: games won, the tie's winner and the loser out). Idempotent: a
    game already recorded is left alone (False). Called with the table, match and
    seats locked; locks the game, then its pairing (never the tournament row)."""
    game = (
        Game.objects.select_for_update().filter(table_id=table.pk).select_related("pairing").first()
    )
    if game is None or game.recorded_at is not None:
        return False
    now = match.finished_at or timezone.now()
    pairing = Pairing.objects.select_for_update().get(pk=game.pairing_id)
    tournament = Tournament.objects.get(pk=pairing.tournament_id)
    if aborted or match.winner is None:
        game.points_a, game.points_b, game.winner = 0, 0, ""
    else:
        game.points_a, game.points_b = match.score_a, match.score_b
        game.winner = "a" if match.winner == 0 else "b"
    game.recorded_at = now
    game.save(update_fields=["points_a", "points_b", "winner", "recorded_at"])
    if pairing.state == PairingState.FINISHED or tournament.state != TournamentState.RUNNING:
        return True  # a cancelled tournament: the match counted as rated, nothing here
    if tournament.format == Format.KNOCKOUT:
        _knockout_record(tournament, pairing, game, now)
    elif tournament.format == Format.ARENA:
        _arena_record(pairing, game, now)
    elif tournament.format == Format.DUPLICATE:
        _duplicate_record(pairing, game, now)
    else:
        _swiss_record(tournament, pairing, game, now)
    changed(tournament.pk, "result")
    if tournament.format != Format.ARENA and _round_over(pairing):
        _advance_soon(tournament.pk)
    return True


def _round_over(pairing: Pairing) -> bool:
    """The tie just recorded was its round's last one in play."""
    return (
        pairing.state == PairingState.FINISHED
        and not Pairing.objects.filter(round_id=pairing.round_id)
        .exclude(state=PairingState.FINISHED)
        .exists()
    )


def _advance_soon(tournament_id: int) -> None:
    """After the commit, the tournament is advanced at once (its round finished, the
    next one paired and its tables told) by a worker, not by the tick 30 s later. This
    transaction holds the game and the pairing, not the tournament's row (the lock
    order), so the advance happens in its own transaction; a tick that sees the round
    over first does it, and the other finds nothing to do."""
    from tournaments import tasks

    transaction.on_commit(lambda: tasks.advance.delay(tournament_id))


def _swiss_record(tournament: Tournament, pairing: Pairing, game: Game, now: object) -> None:
    points_a, points_b = game.points_a or 0, game.points_b or 0
    pairing.points_a, pairing.points_b = points_a, points_b
    if pairing.entry_b_id is None:
        # A bye: BYE_VICTORY_POINTS whatever the bots did; its points are not counted.
        pairing.vp_a, pairing.vp_b = swiss.BYE_VICTORY_POINTS, 0
        pairing.points_a = pairing.points_b = 0
    elif not game.winner:
        pairing.vp_a = pairing.vp_b = 0  # stopped by staff: nobody scores
    else:
        target = rule_set(tournament.rules).target
        pairing.vp_a, pairing.vp_b = swiss.victory_points(points_a, points_b, target=target)
        # A team that did not show scores nothing; its opponents at least a bye's VP.
        if pairing.no_show_a and not pairing.no_show_b:
            pairing.vp_a, pairing.vp_b = 0, max(pairing.vp_b, swiss.BYE_VICTORY_POINTS)
        elif pairing.no_show_b and not pairing.no_show_a:
            pairing.vp_a, pairing.vp_b = max(pairing.vp_a, swiss.BYE_VICTORY_POINTS), 0
    if pairing.vp_a != pairing.vp_b:
        pairing.winner_id = (
            pairing.entry_a_id if pairing.vp_a > pairing.vp_b else pairing.entry_b_id
        )
    pairing.state = PairingState.FINISHED
    pairing.finished_at = now  # type: ignore[assignment]
    pairing.save()


def _arena_record(pairing: Pairing, game: Game, now: object) -> None:
    """Arena: the match's winner (a team that did not show loses); no winner when
    staff stopped it (the tie then counts for nobody)."""
    pairing.points_a, pairing.points_b = game.points_a or 0, game.points_b or 0
    if pairing.no_show_a != pairing.no_show_b:
        pairing.winner_id = pairing.entry_b_id if pairing.no_show_a else pairing.entry_a_id
    elif game.winner:
        pairing.winner_id = pairing.entry_a_id if game.winner == "a" else pairing.entry_b_id
    pairing.state = PairingState.FINISHED
    pairing.finished_at = now  # type: ignore[assignment]
    pairing.save()


def _duplicate_record(pairing: Pairing, game: Game, now: object) -> None:
    """Duplicate: the board's points; its matchpoints come when every table of the round
    has played it (`rounds.duplicate_round_score`)."""
    pairing.points_a, pairing.points_b = game.points_a or 0, game.points_b or 0
    if game.winner:
        pairing.winner_id = pairing.entry_a_id if game.winner == "a" else pairing.entry_b_id
    pairing.state = PairingState.FINISHED
    pairing.finished_at = now  # type: ignore[assignment]
    pairing.save()


def _knockout_record(tournament: Tournament, pairing: Pairing, game: Game, now: object) -> None:
    if game.winner == "a":
        pairing.wins_a += 1
    elif game.winner == "b":
        pairing.wins_b += 1
    pairing.points_a += game.points_a or 0
    pairing.points_b += game.points_b or 0
    if pairing.no_show_a != pairing.no_show_b:
        side: str | None = "b" if pairing.no_show_a else "a"  # a no-show loses the tie
    else:
        side = knockout.tie_winner(pairing.wins_a, pairing.wins_b, best_of=tournament.best_of)
        played = Game.objects.filter(pairing=pairing).count()
        if side is None and played >= tournament.best_of + EXTRA_GAMES:
            side = "a"
    if side is not None:
        winner, loser = (
            (pairing.entry_a_id, pairing.entry_b_id)
            if side == "a"
            else (pairing.entry_b_id, pairing.entry_a_id)
        )
        pairing.winner_id = winner
        pairing.state = PairingState.FINISHED
        pairing.finished_at = now  # type: ignore[assignment]
        if loser is not None:
            Entry.objects.filter(pk=loser).update(eliminated_in=pairing.round.number)
    pairing.save()
