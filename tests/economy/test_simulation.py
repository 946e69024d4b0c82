"""A seeded random run of ledger operations with crashes injected mid-way.

A shadow model in plain Python predicts every user's coins; an operation that
crashes must change nothing, one that is refused must change nothing, a repeat
must change nothing. Afterwards the audit passes and what is held equals what
was issued.

The suite runs 2,000 operations (four threads of 500, each checked against its
model every 100 steps): every kind of operation succeeds, crashes and is replayed
many times over, which the test asserts. The long run is the same test with more
operations: `SIMULATION_OPERATIONS=10000 .venv/bin/pytest tests/economy/test_simulation.py`
(bench/README.md).
"""

import os
import random
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.db.backends.signals import connection_created
from django.db.models import Sum

from economy import services
from economy.errors import EconomyError
from economy.models import Account, AccountKind, Entry, Product
from economy.selectors import ledger_audit
from economy.services import FULL_RATE, Placement, RewardRate
from tests.threads import run_together

# The rates the modes' policies pass down (tests/games/test_modes.py checks them).
RATES = {
    "online": FULL_RATE,
    "friends": RewardRate(coins=Fraction(1, 2), xp=Fraction(1, 2), places=frozenset({1, 2})),
    "practice": RewardRate(places=frozenset()),
    "stake": RewardRate(coins=Fraction(0)),
}

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("products"),
]

OPERATIONS = int(os.environ.get("SIMULATION_OPERATIONS", "2000"))
# Threads, each with its own seed, players and tables, so each shadow model stays exact.
WORKERS = int(os.environ.get("SIMULATION_WORKERS", "4"))
CRASH_RATE = 0.08
# How often (in steps) a worker compares every balance with its model.
CHECK_EVERY = 100
# Each kind must have succeeded (and, but for a replay, crashed) at least this often.
KINDS = ("grant", "purchase", "stake", "refund-one", "refund-table", "payout", "adjust", "reward")
NOW = datetime(2026, 5, 5, 12, 0, tzinfo=UTC)


class Crash(Exception):
    pass


def all_coins(prefix: str) -> dict[int, int]:
    """The coins of one worker's players, in one query."""
    return dict(
        Account.objects.filter(
            kind=AccountKind.USER, currency="coins", user__username__startswith=prefix
        ).values_list("user_id", "balance")
    )


_current = threading.local()


def fault(point: str) -> None:
    """Patched over services.ledger.fault: crashes the running worker's call now and then."""
    worker = getattr(_current, "worker", None)
    if worker is not None and worker.armed and worker.rng.random() < CRASH_RATE:
        raise Crash(point)


class Worker:
    """One seeded stream of random operations over its own players and tables."""

    def __init__(self, index: int, users, staff_user, products, operations: int) -> None:
        self.index = index
        self.rng = random.Random(20261129 + index)
        self.users = users
        self.by_pk = {u.pk: u for u in users}
        self.staff_user = staff_user
        self.products = products
        self.operations = operations
        self.prefix = f"sim{index}_"
        self.coins = {u.pk: 1000 for u in users}
        self.perks: dict[int, set[str]] = {u.pk: set() for u in users}
        self.stakes: dict[int, dict[int, int]] = {}  # open table -> user pk -> staked
        self.next_table = index * 1_000_000 + 1
        self.done: list[tuple] = []  # (callable, kwargs) that succeeded, to replay
        self.counts = {"ok": 0, "refused": 0, "crashed": 0, "replayed": 0}
        self.kinds: Counter[tuple[str, str]] = Counter()  # (kind, "ok" | "crashed")
        self.armed = False

    def multiplier(self, pk: int) -> float:
        m = 1.0
        if "booster" in self.perks[pk]:
            m *= 2
        if "vip" in self.perks[pk]:
            m *= 1.5
        return m

    def run(self) -> dict[str, int]:
        _current.worker = self
        try:
            for step in range(self.operations):
                self.step(f"w{self.index}-{step}")
                if step % CHECK_EVERY == 0:
                    assert all_coins(self.prefix) == self.coins, f"after step {step}"
            assert all_coins(self.prefix) == self.coins
            return self.counts
        finally:
            _current.worker = None

    def step(self, key: str) -> None:
        rng, user = self.rng, self.rng.choice(self.users)
        coins, stakes = self.coins, self.stakes
        op = rng.choice(
            [
                "grant",
                "purchase",
                "stake",
                "stake",
                "refund",
                "payout",
                "adjust",
                "reward",
                "replay",
            ]
        )
        if op == "replay":
            if not self.done:
                return
            call, kwargs = rng.choice(self.done)
            before = all_coins(self.prefix)
            result = call(**kwargs)
            if getattr(result, "transaction", True) is not None:
                assert getattr(result, "replayed", True), (call, kwargs)
            assert all_coins(self.prefix) == before
            self.counts["replayed"] += 1
            self.kinds[(call.__name__, "replayed")] += 1
            return
        if op == "grant":
            amount = rng.randint(1, 300)
            call = services.ledger_grant
            kwargs = {"user": user, "amount": amount, "idempotency_key": key}

            def effect():
                coins[user.pk] += amount
        elif op == "purchase":
            product = rng.choice(self.products)
            call = services.product_purchase
            kwargs = {"user": user, "product": product, "idempotency_key": key, "now": NOW}

            def effect():
                coins[user.pk] -= product.price
                self.perks[user.pk].add(product.effect)
        elif op == "stake":
            if not stakes or rng.random() < 0.3:
                stakes[self.next_table] = {}
                self.next_table += 1
            table = rng.choice(list(stakes))
            if user.pk in stakes[table]:
                return
            amount = rng.choice([100, 250, 500, 1000])
            call = services.stake_place
            # Its own key: a player may sit at a table again after a refund.
            kwargs = {"user": user, "table_id": table, "amount": amount, "idempotency_key": key}

            def effect():
                coins[user.pk] -= amount
                stakes[table][user.pk] = amount
        elif op == "refund":
            if not stakes:
                return
            table = rng.choice(list(stakes))
            call = services.stake_refund
            if stakes[table] and rng.random() < 0.5:
                kind = "refund-one"
                pk = rng.choice(list(stakes[table]))
                kwargs = {"table_id": table, "user": self.by_pk[pk], "idempotency_key": key}

                def effect():
                    coins[pk] += stakes[table].pop(pk)
            else:
                kind = "refund-table"
                kwargs = {"table_id": table}

                def effect():
                    for pk, amount in stakes.pop(table).items():
                        coins[pk] += amount
        elif op == "payout":
            if not stakes:
                return
            table = rng.choice(list(stakes))
            if not stakes[table]:
                return
            winners = rng.sample(list(stakes[table]), k=min(2, len(stakes[table])))
            call = services.pot_pay_out
            kwargs = {"table_id": table, "winners": [self.by_pk[pk] for pk in winners]}

            def effect():
                pot = sum(stakes.pop(table).values())
                share, remainder = divmod(pot, len(winners))
                for i, pk in enumerate(winners):
                    coins[pk] += share + (remainder if i == 0 else 0)
        elif op == "adjust":
            amount = rng.choice([-1, 1]) * rng.randint(1, 400)
            call = services.balance_adjust
            kwargs = {
                "staff_user": self.staff_user,
                "user": user,
                "amount": amount,
                "reason": "simulation",
                "idempotency_key": key,
            }

            def effect():
                coins[user.pk] += amount
        else:  # reward
            seated = rng.sample(self.users, 4)
            mode = rng.choice(["online", "friends", "practice", "stake"])
            placements = [
                Placement(u, i + 1, abandoned=rng.random() < 0.1) for i, u in enumerate(seated)
            ]
            if rng.random() < 0.3:
                placements[3] = Placement(None, 4)
            call = services.match_reward
            match_id = int(key.split("-")[1]) + self.index * 1_000_000
            kwargs = {
                "match_id": match_id,
                "label": mode,
                "rate": RATES[mode],
                "placements": placements,
                "now": NOW,
            }

            def effect():
                for p in placements:
                    if p.user is not None and not p.abandoned:
                        base, _xp = services.base_reward(rate=RATES[mode], place=p.place)
                        coins[p.user.pk] += int(base * self.multiplier(p.user.pk))

        if op != "refund":
            kind = op
        self.armed = True
        try:
            call(**kwargs)
        except Crash:
            self.counts["crashed"] += 1
            self.kinds[(kind, "crashed")] += 1
        except EconomyError:
            self.counts["refused"] += 1
        else:
            self.counts["ok"] += 1
            self.kinds[(kind, "ok")] += 1
            effect()
            self.done.append((call, kwargs))
        finally:
            self.armed = False


@pytest.fixture
def no_commit_flush():
    """Skip the WAL flush at each commit: 10,000 fsyncs would be the whole run time.

    Only durability after a server crash changes; locks, constraints and triggers
    behave exactly the same.
    """

    def relax(sender, connection, **kwargs):
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO off")

    connection_created.connect(relax, dispatch_uid="simulation_no_commit_flush")
    yield
    connection_created.disconnect(dispatch_uid="simulation_no_commit_flush")


# About 5-25 ms an operation on a quiet machine, ~50 ms at load 25 on 2 cores: the
# threads may run as long as the test itself before they count as hung.
@pytest.mark.timeout(1200)
def test_random_operations_with_crashes_keep_the_ledger_whole(
    make_user, staff_user, monkeypatch, no_commit_flush
):
    monkeypatch.setattr(services.ledger, "fault", fault)
    products = list(Product.objects.all())
    workers = [
        Worker(
            index,
            [make_user(f"sim{index}_{i}") for i in range(8)],
            staff_user,
            products,
            OPERATIONS // WORKERS,
        )
        for index in range(WORKERS)
    ]

    results = run_together(WORKERS, lambda i: workers[i].run(), timeout=1100)

    for result in results:
        assert isinstance(result, dict), result
    total = {k: sum(r[k] for r in results) for k in results[0]}
    assert sum(total.values()) > OPERATIONS * 0.8, total
    assert total["crashed"] > OPERATIONS * 0.02 and total["refused"] > OPERATIONS * 0.005, total
    assert total["replayed"] > OPERATIONS * 0.05, total
    # Every kind of operation succeeded, crashed mid-way and was replayed, many times.
    kinds = sum((worker.kinds for worker in workers), Counter())
    for kind in KINDS:
        assert kinds[(kind, "ok")] >= 10 and kinds[(kind, "crashed")] >= 1, (kind, kinds)
    replayed = {name for name, outcome in kinds if outcome == "replayed"}
    assert replayed == {
        "ledger_grant",
        "product_purchase",
        "stake_place",
        "stake_refund",
        "pot_pay_out",
        "balance_adjust",
        "match_reward",
    }, kinds

    # Settle what is still open so that every escrow must be back to zero.
    for worker in workers:
        for table in list(worker.stakes):
            services.stake_refund(table_id=table, now=NOW + timedelta(days=1))
    assert ledger_audit().violations == []
    call_command("audit_ledger")
    issued = -Entry.objects.filter(
        account__kind=AccountKind.ISSUANCE, account__currency="coins"
    ).aggregate(total=Sum("amount"))["total"]
    held = (
        Account.objects.filter(kind=AccountKind.USER, currency="coins").aggregate(
            total=Sum("balance")
        )["total"]
        + Entry.objects.filter(
            account__kind__in=[AccountKind.SHOP, AccountKind.ADJUSTMENTS, AccountKind.ESCROW],
            account__currency="coins",
        ).aggregate(total=Sum("amount"))["total"]
    )
    assert issued == held > 0
