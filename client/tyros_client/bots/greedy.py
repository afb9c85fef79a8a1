"""The ``greedy`` strategy: one step of lookahead with a real evaluation of the position.

The bot builds one determinization of what it cannot see (:mod:`.determinize`:
its own view plus what its events proved, never the server's state), tries
each candidate action on a copy of it and keeps the one whose result
:mod:`.evaluate` likes best. Its utility is its own expected final points
minus a share of the best opponent's, so it also weighs what an action gives
the others (a card to a city owner, a trade partner's gain, a blocked space).

- **Card actions.** Moves, cities and ships are tried on the board (a move
  into another player's city includes the card it must give). Payments are
  grouped: one payment per target, the one that keeps the most useful cards
  (fewest wilds for a colour; the least valuable cards where any will do). Bank
  trades are valued by their expected draw, over a few sampled draws from the
  unseen cards. It proposes a one-for-one trade when swapping a card it needs
  least for one it needs most beats every other action, and passes when
  nothing improves on holding its cards.
- **Trades.** It accepts an offer that raises its value by more than it
  helps the proposer (weighted by how dangerous the proposer is), or counters
  with one card for one card when those terms are clearly better; as proposer
  it completes on the terms (the offer's or a counter's) that help it most net
  of the partner's gain, or withdraws.
- **Expansion.** Every tile and colour is tried: growing an empire where it
  has cities, ships or a route raises those spaces' expected rank points.
- **The city owner's card** is the one it misses least, net of what it is
  worth to the owner; **keeping 3** keeps the three cards with the best
  value for next round's plans.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from tyros_protocol.cards import WILD, CardCounts
from tyros_rules import (
    COMPLETE_WITH,
    COUNTER_GET,
    COUNTER_GIVE,
    K_BANK_DRAW,
    K_BANK_PICK,
    K_COMPLETE,
    K_COUNTER,
    K_PASS,
    K_PROPOSE,
    K_RETURN_TILE,
    K_WITHDRAW,
    KEPT,
    ONE,
    P_ACTIONS,
    P_EXPAND,
    P_GIVE_CARD,
    P_KEEP,
    P_TRADE,
    PAY_AT,
    PICK_PAY,
    PICK_TAKE,
    PROPOSE_TO,
    RETURNED_TILE,
    TRADE_GET,
    TRADE_GIVE,
    TRADE_PROPOSER,
    Action,
    GameState,
    answer,
    covers,
    give_card,
    minus,
    plus,
    push_unchecked,
    submultisets,
)

from .base import Bot, BotOptions
from .determinize import Determinizer, Holdings, InconsistentView, Memory
from .evaluate import HAND_WEIGHT, Analysis, Plan
from .grouping import (
    ASKS,
    OPPONENT_WEIGHT,
    TRADE_CARDS,
    action_key,
    bundles,
    card_options,
    check_problem,
    group_actions,
    utility,
)
from .manners import Manners

BANK_MARGIN = 0.1
"""A one-card bank draw must beat passing by this much: a draw whose gain is within the
value's noise only makes everyone else wait (and empties the draw pile one card a turn)."""
PROPOSE_MARGIN = 0.4
"""A trade proposal must beat the best other action by this much."""
ACCEPT_MARGIN = 0.15
COUNTER_MARGIN = 0.2
"""A counter-offer must be worth this much more than an acceptable offer would be (the
proposer may turn it down)."""
UNSURE_COUNTER = 0.1
"""And this much more if it asks for cards the proposer did not offer (it may lack them)."""
PROPOSALS_WEIGHED = 12
"""The offers (best for its own hand first) whose partners it weighs."""
LIKELY_ACCEPT = 0.6
UNLIKELY_ACCEPT = 0.1
"""The chance an asked seat accepts when its own plan gains by the offer, or does not."""
SLIPS = (P_ACTIONS, P_EXPAND)
"""The decisions the ``slip`` option may get wrong (trades, gifts and keeps stay greedy)."""
PLAUSIBLE = 0.3
"""An offer asks only the seats at least this likely to hold what it asks for: asking a
person for cards they most likely lack only holds them up."""


# The greedy decision --------------------------------------------------------------


@dataclass(slots=True)
class CardChoices:
    """A seat's card actions, grouped and scored (see :meth:`Greedy.card_choices`)."""

    plan: Plan
    hand: CardCounts
    base: float
    """The seat's utility now: what passing keeps."""
    scored: list[tuple[float, tuple[int, ...], Action]] = field(default_factory=list)
    """(utility after, group key, action) of every option but passing and trade offers."""
    proposals: list[Action] = field(default_factory=list)


def best_answer(scores: dict[Action, float]) -> Action:
    """The answer :meth:`Greedy.answer` gives by ``scores`` (:meth:`Greedy.answer_scores`):
    accepting an offer that clears :data:`ACCEPT_MARGIN` as it is (a counter may lose it),
    else the first best counter-offer that clears it, else declining."""
    accept = answer(True)
    if scores.get(accept, ACCEPT_MARGIN) > ACCEPT_MARGIN:
        return accept
    best, best_score = answer(False), ACCEPT_MARGIN
    for action, score in scores.items():
        if action[0] == K_COUNTER and score > best_score:
            best, best_score = action, score
    return best


class Greedy:
    """One greedy decision for ``seat`` in a (determinized) ``state``."""

    def __init__(
        self,
        state: GameState,
        seat: int,
        rng: random.Random,
        weight: float = OPPONENT_WEIGHT,
        holdings: Holdings | None = None,
        negotiate: bool = True,
        bank_margin: float = BANK_MARGIN,
        plausible: float = PLAUSIBLE,
        hand_weight: float = HAND_WEIGHT,
        manners: Manners | None = None,
    ) -> None:
        self.hand_weight = hand_weight
        self.manners = manners if manners is not None else Manners()
        """Which asked seats are people, spared offers they would not gain from."""
        self.state = state
        self.bank_margin = bank_margin
        self.plausible = plausible
        self.seat = seat
        self.rng = rng
        self.weight = weight
        self.holdings = holdings if holdings is not None else Holdings.of_state(state, seat)
        self.negotiate = negotiate
        """Off: offers of one card for one card only, and no counter-offers."""
        self.analysis = Analysis(state, hand_weight)
        self._plans: dict[int, Plan] = {}

    def plan(self, seat: int) -> Plan:
        found = self._plans.get(seat)
        if found is None:
            found = self._plans[seat] = self.analysis.plan(seat)
        return found

    def values(self) -> list[float]:
        analysis = self.analysis
        return [
            analysis.board_points(s) + self.plan(s).hand_value(self.state.hands[s])
            for s in range(self.state.players)
        ]

    def after(self, action: Action) -> GameState:
        """A copy of the state with the seat's ``action`` applied (and its card given)."""
        state = self.state.copy(seed=self.rng.getrandbits(62))
        push_unchecked(state, self.seat, action)
        if state.phase == P_GIVE_CARD and state.current == self.seat:
            push_unchecked(
                state, self.seat, give_card(Greedy(state, self.seat, self.rng, self.weight).gift())
            )
        return state

    def utility_after(self, action: Action) -> float:
        after = Analysis(self.after(action), self.hand_weight)
        return utility(after.values(), self.seat, self.weight)

    def choose(self, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        phase = self.state.phase
        if phase == P_EXPAND:
            if legal[0][0] == K_RETURN_TILE:
                return self.tile_to_return(legal)
            return max(legal, key=self.utility_after)
        if phase == P_ACTIONS:
            return self.card_action(legal)
        if phase == P_TRADE:
            if self.seat == self.state.current:
                return self.settle(legal)
            return self.answer(legal)
        if phase == P_GIVE_CARD:
            return give_card(self.gift())
        if phase == P_KEEP:
            plan = self.plan(self.seat)
            return max(legal, key=lambda a: plan.hand_value(a[KEPT]))
        return legal[0]

    def slip(self, legal: list[Action]) -> Action:
        """Any of the options the greedy decision weighs, at random: the ``easy`` level's
        mistakes. Card actions: passing or one of :meth:`card_choices`' scored groups (no
        trade offer); otherwise any legal action."""
        if self.state.phase == P_ACTIONS:
            passing = [a for a in legal if a[0] == K_PASS]
            return self.rng.choice(passing + [a for _, _, a in self.card_choices(legal).scored])
        return self.rng.choice(legal)

    # Card actions ------------------------------------------------------------------

    def card_action(self, legal: list[Action]) -> Action:
        choices = self.card_choices(legal)
        best_action: Action = (K_PASS,)
        best = choices.base
        for score, _key, action in choices.scored:
            if score > best + 1e-9 and self.worth_banking(choices, score, action):
                best, best_action = score, action
        if choices.proposals:
            offer, gain = self.best_proposal(choices.plan, choices.hand, choices.proposals)
            if offer is not None and choices.base + gain > best + PROPOSE_MARGIN:
                return offer
        return best_action

    def card_choices(self, legal: list[Action]) -> CardChoices:
        """Every grouped card action but passing scored by the utility it leads to, and the
        trade offers among ``legal`` (scored apart, by :meth:`best_proposal`)."""
        seat = self.seat
        hand = self.state.hands[seat]
        plan = self.plan(seat)
        card_value = plan.card_values(hand)
        groups = card_options(self.state, seat, card_value)
        groups.update(group_actions((a for a in legal if a[0] == K_PROPOSE), card_value))
        base = utility(self.values(), seat, self.weight)
        hand_now = plan.hand_value(hand)  # bank trades change the hand alone
        choices = CardChoices(plan, hand, base)
        for key, action in groups.items():
            kind = action[0]
            if kind == K_PASS:
                continue
            if kind == K_PROPOSE:
                choices.proposals.append(action)
                continue
            if kind == K_BANK_DRAW:
                score = base + self.expected_draw(plan, hand, action[PAY_AT[kind]]) - hand_now
            elif kind == K_BANK_PICK:
                taken = plus(minus(hand, action[PICK_PAY]), ONE[action[PICK_TAKE]])
                score = base + plan.hand_value(taken) - hand_now
            else:
                score = self.utility_after(action)
            choices.scored.append((score, key, action))
        return choices

    def worth_banking(self, choices: CardChoices, score: float, action: Action) -> bool:
        """Whether ``action``, if a one-card bank draw, beats passing by :data:`BANK_MARGIN`
        (any other action is worth what it scores: the draw of one card after another,
        each a turn the others wait, is what wears people out)."""
        if action[0] != K_BANK_DRAW or sum(action[PAY_AT[K_BANK_DRAW]]) != 1:
            return True
        return score > choices.base + self.bank_margin

    def expected_draw(self, plan: Plan, hand: CardCounts, pay: tuple[int, ...]) -> float:
        """The hand's expected value after paying ``pay`` and drawing as many cards (at most
        three): every outcome weighed by its chance, the pile being this determinization's."""
        pile = self.state.draw_pile
        count = sum(pay)
        rest = minus(hand, pay)
        left = [0, 0, 0, 0, 0]
        for card in pile:
            left[card] += 1
        a, b, c, d, e = left
        ways = math.comb(len(pile), count)
        return sum(
            math.prod(math.comb(n, k) for n, k in zip(left, drawn, strict=True))
            / ways
            * plan.hand_value(plus(rest, drawn))
            for drawn in submultisets((a, b, c, d, e), count)
        )

    def best_proposal(
        self, plan: Plan, hand: CardCounts, proposals: list[Action]
    ) -> tuple[Action | None, float]:
        """The offer of one or two cards each way that is worth most, and its worth.

        An offer's worth is the hand's gain net of the partner's (weighted by its danger),
        times the chance that some asked seat accepts: it is asked only of the seats that
        could hold the cards wanted (:class:`~.determinize.Holdings`), and a seat whose own
        plan gains by it is likely to. ``proposals`` is the engine's listed family: it only
        says that proposing is allowed now, and to whom.
        """
        if not proposals:
            return None, 0.0
        others = proposals[0][PROPOSE_TO]
        now = plan.hand_value(hand)
        most = TRADE_CARDS if self.negotiate else 1
        gains: list[tuple[float, CardCounts, CardCounts]] = []
        for give in bundles(hand, most):
            rest = minus(hand, give)
            for get in ASKS if self.negotiate else ONE:
                if not any(give[k] and get[k] for k in range(5)):
                    gain = plan.hand_value(plus(rest, get)) - now
                    if gain > 0.0:
                        gains.append((gain, give, get))
        gains.sort(key=lambda item: -item[0])
        best: Action | None = None
        best_worth = 0.0
        for gain, give, get in gains[:PROPOSALS_WEIGHED]:
            if gain <= best_worth:
                break  # no chance or cost can lift it above the best found
            asked, worth = self.weigh_offer(others, gain, give, get)
            if asked and worth > best_worth:
                best, best_worth = (K_PROPOSE, asked, *give, *get), worth
        if best is not None and check_problem(self.state, self.seat, best) is not None:
            return None, 0.0  # pragma: no cover - bundles come from the hand
        return best, best_worth

    def weigh_offer(
        self, others: int, gain: float, give: CardCounts, get: CardCounts
    ) -> tuple[int, float]:
        """The seats to ask (a bit mask) and the offer's worth: ``gain`` net of what it gives
        the partner (the asked seat it would cost least), times the chance that any asked
        seat accepts. A person is asked only as :class:`~.manners.Manners` allows."""
        asked = 0
        decline = 1.0  # the chance that every asked seat turns the offer down
        net = float("-inf")
        holdings = self.holdings
        for seat in range(self.state.players):
            if not others >> seat & 1 or holdings.turned_down(seat, give, get):
                continue
            holds = holdings.chance_to_give(seat, get)
            if holds < self.plausible:
                continue
            theirs = self.partner_gain(seat, give, get)
            if not self.manners.may_ask(
                seat, give, get, round_=self.state.round, their_gain=theirs, holds=holds
            ):
                continue
            asked |= 1 << seat
            decline *= 1.0 - (LIKELY_ACCEPT if theirs > 0.0 else UNLIKELY_ACCEPT)
            net = max(net, gain - self.danger(seat) * max(0.0, theirs))
        return asked, (1.0 - decline) * net if asked else 0.0

    def partner_gain(self, seat: int, give: CardCounts, get: CardCounts) -> float:
        """What ``seat``'s plan gains by receiving ``give`` for ``get``, guessed on its
        sampled hand (holding at least ``get``: it would have to, to accept)."""
        hand = self.state.hands[seat]
        a, b, c, d, e = (max(h, g) for h, g in zip(hand, get, strict=True))
        held = (a, b, c, d, e)
        plan = self.plan(seat)
        return plan.hand_value(plus(minus(held, get), give)) - plan.hand_value(held)

    # Trades ------------------------------------------------------------------------

    def trade_gain(self, seat: int, give: tuple[int, ...], get: tuple[int, ...]) -> float:
        """How much ``seat``'s hand gains by giving ``give`` and getting ``get``."""
        hand = self.state.hands[seat]
        plan = self.plan(seat)
        return plan.hand_value(plus(minus(hand, give), get)) - plan.hand_value(hand)

    def danger(self, seat: int) -> float:
        """The weight of ``seat``'s gains against this bot: full for the leading opponent."""
        values = self.values()
        best_other = max(
            range(len(values)), key=lambda s: values[s] if s != self.seat else float("-inf")
        )
        return self.weight if seat == best_other else self.weight * 0.5

    def answer(self, legal: list[Action]) -> Action:
        """Accept an offer that helps it more than it helps the proposer (weighted by the
        proposer's danger); else counter with listed terms that would, by a margin."""
        scores = self.answer_scores(legal, counters=False)
        chosen = best_answer(scores)
        if chosen == answer(True):
            return chosen  # (a good offer is taken: its counters need not be listed)
        return best_answer({**scores, **self.counter_scores(legal)})

    def answer_scores(self, legal: list[Action], counters: bool = True) -> dict[Action, float]:
        """What :meth:`answer` weighs (:func:`best_answer` chooses), in points: declining is
        worth :data:`ACCEPT_MARGIN`, accepting what the offer helps this seat net of the
        proposer's gain (weighted by its danger), and each counter-offer it may make
        (``counters``: by table manners and the cards the proposer may hold) the same of
        its terms, less the margins a counter must clear."""
        trade = self.state.trade
        assert trade is not None
        scores = {answer(False): ACCEPT_MARGIN}
        if answer(True) in legal:
            scores[answer(True)] = self.terms_worth(trade[TRADE_GIVE], trade[TRADE_GET])
        if counters:
            scores.update(self.counter_scores(legal))
        return scores

    def terms_worth(self, give: tuple[int, ...], get: tuple[int, ...]) -> float:
        """What a trade on the table's offer in which the proposer gives ``give`` and gets
        ``get`` (this seat the other way round) is worth to this seat (:meth:`net_gain`)."""
        trade = self.state.trade
        assert trade is not None
        return self.net_gain(trade[TRADE_PROPOSER], get, give)

    def net_gain(self, partner: int, give: tuple[int, ...], get: tuple[int, ...]) -> float:
        """What giving ``give`` to ``partner`` for ``get`` gains this seat, net of the
        partner's gain weighted by its danger."""
        mine = self.trade_gain(self.seat, give, get)
        return mine - self.danger(partner) * max(0.0, self.trade_gain(partner, get, give))

    def counter_scores(self, legal: list[Action]) -> dict[Action, float]:
        """The counter-offers :meth:`answer_scores` weighs, each scored."""
        trade = self.state.trade
        assert trade is not None
        proposer = trade[TRADE_PROPOSER]
        scores: dict[Action, float] = {}
        for action in self.counter_offers(legal):
            give, get = action[COUNTER_GIVE], action[COUNTER_GET]
            score = self.terms_worth(give, get) - COUNTER_MARGIN
            offered = covers(trade[TRADE_GIVE], give)
            holds = 1.0 if offered else self.holdings.chance_to_give(proposer, give)
            if not self.manners.may_counter(proposer, give, trade[TRADE_GET], holds=holds):
                continue  # (a person is spared counters they likely cannot pay)
            if not offered:  # it asks for more than was offered
                if not self.holdings.could_give(proposer, give):
                    continue
                score -= UNSURE_COUNTER
            scores[action] = score
        return scores

    def counter_offers(self, legal: list[Action]) -> list[Action]:
        """The listed counter-offers (one card for one card) and those of one or two cards
        each way that ask for part or all of what was offered."""
        listed = [action for action in legal if action[0] == K_COUNTER]
        if not self.negotiate:
            return []
        if not listed:
            return listed
        trade = self.state.trade
        assert trade is not None
        offered = trade[TRADE_GIVE]
        seen = set(listed)
        for want in bundles(offered):
            for mine in bundles(self.state.hands[self.seat]):
                action = (K_COUNTER, *want, *mine)
                if any(want[k] and mine[k] for k in range(5)) or action in seen:
                    continue
                if check_problem(self.state, self.seat, action) is None:
                    seen.add(action)
                    listed.append(action)
        return listed

    def settle(self, legal: list[Action]) -> Action:
        """Complete with the partner whose terms (the offer's, or its counter's) help this
        seat most net of what they help the partner, or withdraw."""
        state = self.state
        trade = state.trade
        assert trade is not None
        best: Action = (K_WITHDRAW,)
        best_score = 0.0
        for action in legal:
            if action[0] != K_COMPLETE:
                continue
            partner = action[COMPLETE_WITH]
            terms = state.counters[partner]
            give, get = (terms[:5], terms[5:]) if terms else (trade[TRADE_GIVE], trade[TRADE_GET])
            score = self.net_gain(partner, give, get)
            if score > best_score:
                best, best_score = action, score
        return best

    # Cards given and kept, tiles returned ------------------------------------------

    def gift(self) -> int:
        """The card to give the city owner: least missed, net of its worth to the owner."""
        state = self.state
        hand = state.hands[self.seat]
        owner = state.owed_to
        mine = self.plan(self.seat)
        now = mine.hand_value(hand)
        theirs = self.plan(owner) if owner >= 0 else None
        owner_hand = state.hands[owner] if owner >= 0 else (0, 0, 0, 0, 0)
        owner_now = theirs.hand_value(owner_hand) if theirs is not None else 0.0
        best, best_cost = -1, float("inf")
        for card in range(5):
            if not hand[card]:
                continue
            cost = now - mine.hand_value(minus(hand, ONE[card]))
            if theirs is not None:
                cost += self.danger(owner) * (
                    theirs.hand_value(plus(owner_hand, ONE[card])) - owner_now
                )
            if cost < best_cost - 1e-9 or (abs(cost - best_cost) <= 1e-9 and card != WILD):
                best, best_cost = card, cost
        return best

    def tile_to_return(self, legal: list[Action]) -> Action:
        """Put under the pile the tile farthest from every empire (the least likely to play)."""
        chips = self.state.chips
        positions = self.state.board.positions
        chipped = [positions[s] for s, c in enumerate(chips) if c >= 0]

        def distance(action: Action) -> int:
            row, col = positions[action[RETURNED_TILE]]
            return min((abs(row - r) + abs(col - c) for r, c in chipped), default=0)

        return max(legal, key=lambda a: (distance(a), a))


def greedy_action(
    state: GameState,
    seat: int,
    legal: list[Action],
    rng: random.Random,
    weight: float = OPPONENT_WEIGHT,
) -> Action:
    """The greedy choice for ``seat`` among ``legal`` in a complete ``state``."""
    return Greedy(state, seat, rng, weight).choose(legal)


@dataclass(frozen=True)
class GreedyOptions(BotOptions):
    """``greedy``'s settings."""

    opponent_weight: float = OPPONENT_WEIGHT
    negotiate: bool = True
    """False: offers of one card for one card only, and no counter-offers."""
    bank_margin: float = BANK_MARGIN
    plausible: float = PLAUSIBLE
    hand_weight: float = HAND_WEIGHT
    slip: float = 0.0
    """The chance that a card action or an expansion is :meth:`Greedy.slip`'s random one
    instead of the best."""


class GreedyBot(Bot):
    """One-step lookahead on a determinization built from the seat's own view and events
    (its settings: :class:`GreedyOptions`)."""

    name = "greedy"

    def __init__(self, seat: int, rng: random.Random, **options: Any) -> None:
        super().__init__(seat, rng, **options)
        self.memory = Memory(seat)
        self.settings = GreedyOptions.parse(options)

    def observe(self, event: dict[str, Any]) -> None:
        self.memory.observe(event)

    def forget(self) -> None:
        self.memory = Memory(self.seat)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        determinizer = make_determinizer(view, self.seat, self.memory)
        state = determinizer.sample(self.rng)
        settings = self.settings
        greedy = Greedy(
            state,
            self.seat,
            self.rng,
            settings.opponent_weight,
            determinizer.holdings(),
            settings.negotiate,
            settings.bank_margin,
            settings.plausible,
            settings.hand_weight,
            self.manners,
        )
        slips = state.phase in SLIPS and settings.slip > 0 and self.rng.random() < settings.slip
        action = greedy.slip(legal) if slips else greedy.choose(legal)
        self.remember_offer(view, action)
        if action in legal or action[0] in (K_PROPOSE, K_COUNTER):
            return action  # offers and counter-offers it builds are checked by the engine
        return legal[0]  # pragma: no cover - every branch above picks from ``legal``


class PlainGreedyBot(GreedyBot):
    """``greedy`` with negotiation off: offers of one card for one card and no counter-offers
    (the baseline the negotiating bot is measured against)."""

    name = "greedy-plain"

    def __init__(self, seat: int, rng: random.Random, **options: Any) -> None:
        super().__init__(seat, rng, **{**options, "negotiate": False})


def make_determinizer(view: dict[str, Any], seat: int, memory: Memory | None) -> Determinizer:
    """The seat's determinizer, without the memory if it ever contradicts the view."""
    try:
        return Determinizer(view, seat, memory)
    except InconsistentView:
        return Determinizer(view, seat, None)


__all__ = [
    "Greedy",
    "GreedyBot",
    "GreedyOptions",
    "PlainGreedyBot",
    "action_key",
    "bundles",
    "greedy_action",
    "group_actions",
    "make_determinizer",
    "utility",
]
