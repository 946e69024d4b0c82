"""The only code that writes the ledger.

Every service here is keyword-only, runs in one database transaction, locks
the cached-balance accounts it touches in primary-key order (so two services
never deadlock on each other), and is idempotent by its key, as Stripe's API
is: the transaction stores a fingerprint of the call's parameters with its
key; a second call with the same key and the same parameters returns the first
transaction, with `transaction.replayed = True`, and moves nothing, also when
both calls race (the key is UNIQUE); the same key with other parameters raises
IdempotencyKeyConflict and writes nothing. docs/economy.md lists the
signatures, default keys and what each fingerprint covers.

A package split by concern; the public API is re-exported here, so callers write
`from economy.services import match_reward` or `from economy import services`:

- `ledger`: the plumbing every service is built from (accounts, the one lock
  order, idempotency keys, the insert of a balanced transaction) and
  `accounts_lock` for callers that post several transactions at once;
- `grants`: grants (league prizes), the signup bonus, the daily bonus;
- `shop`: buying a product;
- `rewards`: a finished match's coins and XP (`RewardRate`, `Placement`);
- `prizes`: many users' prizes at once, one transaction each (the daily deal);
- `escrow`: an escrow's three moves (hold, refund, pay out), shared by the two below;
- `stakes`: stakes into a table's escrow, refunds, the pot paid out;
- `tournaments`: entry fees into a tournament's escrow, refunds, prizes paid out;
- `staff`: staff corrections;
- `audit`: the periodic ledger audit's stored result.

The reads they make before writing (a perk running, the reward multiplier, what a
match reward paid, the stakes in an escrow) are `economy.selectors`'.
"""

from economy.services.audit import ledger_audit_record
from economy.services.grants import (
    GRANT_KINDS,
    daily_bonus_claim,
    ledger_grant,
    signup_bonus_grant,
)
from economy.services.ledger import accounts_lock
from economy.services.prizes import Prize, PrizesGranted, prizes_grant
from economy.services.rewards import (
    FULL_RATE,
    MatchRewards,
    Placement,
    RewardRate,
    base_reward,
    match_reward,
)
from economy.services.shop import product_purchase
from economy.services.staff import balance_adjust
from economy.services.stakes import pot_pay_out, stake_place, stake_refund
from economy.services.tournaments import (
    tournament_fee_hold,
    tournament_fee_refund,
    tournament_prizes_pay,
)

__all__ = [
    "FULL_RATE",
    "GRANT_KINDS",
    "MatchRewards",
    "Placement",
    "Prize",
    "PrizesGranted",
    "RewardRate",
    "accounts_lock",
    "balance_adjust",
    "base_reward",
    "daily_bonus_claim",
    "ledger_audit_record",
    "ledger_grant",
    "match_reward",
    "pot_pay_out",
    "prizes_grant",
    "product_purchase",
    "signup_bonus_grant",
    "stake_place",
    "stake_refund",
    "tournament_fee_hold",
    "tournament_fee_refund",
    "tournament_prizes_pay",
]
