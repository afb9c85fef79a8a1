"""Information-set Monte Carlo tree search: the search of the ``ismcts`` strategy
(:mod:`.ismcts`).

Single-observer ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte
Carlo Tree Search", IEEE TCIAIG 2012): one tree whose root is the bot's own
decision; every iteration

1. samples a determinization of everything the seat cannot see (:mod:`.determinize`:
   other hands, tiles and pile orders, consistent with its view and events);
2. descends the tree through the actions that are legal in that determinization,
   choosing by UCB1 where a child's exploration term counts the iterations in
   which it was *available* (not those of its parent), and adding one new node;
3. plays on with a fast policy for a few actions (:data:`ROLLOUT_DEPTH`) and then
   evaluates the position with :mod:`.evaluate` (or scores it, if the game ended);
4. backs up every seat's reward in [0, 1] (a logistic of its expected lead over
   the best other seat), each node keeping the reward of the seat that acted.

Large action sets are grouped so that the tree stays useful: a payment is
not a separate action (one payment per target, the one that keeps the most
useful cards, :func:`.grouping.group_actions`), bank draws are grouped by size,
bank picks by the card taken, trades by the cards they move, and the cards to
keep are the best few of :class:`.evaluate.Plan`. At the root the greedy
one-step values order the bot's options and only the best
:data:`ROOT_WIDTH` (and passing) are searched; with a ``root_prior`` those values are
also the root's prior (a softmax, :data:`PRIOR_TEMPERATURE`; with ``prior_every_phase``
greedy's values of the expansions, answers and keeps too), and the root chooses by
PUCT (the prior's share of the exploration, as in AlphaZero) instead of UCB1: the
search starts from greedy's choice and leaves it where the rewards say so. Deeper,
options are ordered by a cheap prior and widened progressively with the visits.

The hot path of every searching bot: a wheel compiles it with mypyc (``setup.py``; how and
how much faster: docs/bots.md); an editable install runs it as plain Python.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from tyros_protocol.cards import WILD
from tyros_rules import (
    ANSWER_ACCEPT,
    K_ANSWER,
    K_BANK_DRAW,
    K_BANK_PICK,
    K_CITY,
    K_COMPLETE,
    K_COUNTER,
    K_EXPAND,
    K_KEEP,
    K_MOVE,
    K_PASS,
    K_RETURN_TILE,
    K_SHIP,
    KEPT,
    MOVE_PAY,
    MOVE_TO,
    P_ACTIONS,
    P_EXPAND,
    P_GIVE_CARD,
    P_KEEP,
    P_OVER,
    P_TRADE,
    Action,
    GameState,
    fewest_wilds,
    legal_actions,
    push_unchecked,
    seats_to_act,
)

from .determinize import Determinizer, Holdings, InconsistentView, Memory
from .evaluate import HAND_WEIGHT, Analysis, rewards
from .features import LearnedValue
from .greedy import Greedy, best_answer
from .grouping import action_key, card_options
from .manners import Manners

EXPLORATION = 0.7
ROOT_WIDTH = 8
"""Card actions searched at the root (the best by the greedy one-step value), besides passing."""
KEEP_WIDTH = 4
ROLLOUT_DEPTH = 4
"""Actions played by the fast policy after the tree before the evaluation."""
ROLLOUT_SLIP = 0.25
"""How often the fast policy plays any of its options instead of the first by the cheap prior."""
TEMPERATURE = 8.0
"""Points of lead that make a reward of about 0.73 (see :func:`.evaluate.rewards`)."""
SCORE_SHARE = 0.0
"""Weight of the seat's own share of the best value in its reward (:func:`.evaluate.rewards`)."""
WIDEN_BASE = 2.0
WIDEN_RATE = 0.5
ROOT_PRIOR = 0.0
"""Weight of greedy's preference among the root's options (PUCT; 0: plain UCB1)."""
PRIOR_TEMPERATURE = 0.5
"""Points of greedy's one-step value that make an option e times as likely a priori."""
LACK_WEIGHT = 1.0
"""The weight of each card a determinization deals a seat of a kind it is believed to lack
(it asked for it, or declined to give it, this round): 1 deals as if nothing were known."""

Key = tuple[int, ...]


class Node:
    """A tree node: the edge into it (the action ``key`` of seat ``mover``) and its statistics."""

    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[Key, Node] = {}

    def ucb(self, exploration: float) -> float:
        return self.total / self.visits + exploration * math.sqrt(
            math.log(max(1, self.available)) / self.visits
        )


# Cheap knowledge for the nodes below the root -------------------------------------


QUICK_WILD = 20.0
"""A wild's value in :func:`quick_card_values`: more than any colour's count in a hand."""


def quick_card_values(hand: tuple[int, ...]) -> list[float]:
    """A cheap stand-in for card values: colours held in numbers are kept, wilds most."""
    return [float(hand[0]), float(hand[1]), float(hand[2]), float(hand[3]), QUICK_WILD]


def quick_prior(state: GameState, seat: int, action: Action) -> float:
    """A rough score of an action, to order the options of nodes below the root."""
    kind = action[0]
    if kind == K_MOVE:
        space = state.board.port_space[action[MOVE_TO]]
        steps = sum(action[MOVE_PAY])
        if state.cities[space] >= 0 or state.chips[space] < 0:
            return 1.0 - steps
        # an empty space: nobody's there, the seat included
        return (10.0 if state.space_ships[space] == 0 else 3.0) - steps
    return _KIND_PRIOR.get(kind, 0.0) if kind != K_ANSWER and kind != K_KEEP else _prior(action)


_KIND_PRIOR: dict[int, float] = {
    K_CITY: 20.0,
    K_SHIP: 4.0,
    K_EXPAND: 1.0,
    K_PASS: 2.0,
    K_BANK_DRAW: 0.5,
    K_BANK_PICK: 0.5,
    K_COMPLETE: 5.0,
}
"""The prior of each kind whose actions all score alike."""


def _prior(action: Action) -> float:
    """The prior of an answer (declining first) or a keep (the most cards of a kind)."""
    if action[0] == K_ANSWER:
        return 1.0 - action[ANSWER_ACCEPT]
    kept = action[KEPT]
    return float(max(kept[0], kept[1], kept[2], kept[3]) + 2 * kept[WILD])


def by_prior(state: GameState, seat: int, items: list[tuple[Key, Action]]) -> None:
    """Sort ``items`` best prior first, in place (ties keep their order): the
    :func:`quick_prior` of each, computed in one loop."""
    port_space = state.board.port_space
    cities, chips, space_ships = state.cities, state.chips, state.space_ships
    kind_prior = _KIND_PRIOR
    keys: list[float] = []
    for _key, action in items:
        kind = action[0]
        if kind == K_MOVE:  # quick_prior of a move, inlined: the search's hottest loop
            space = port_space[action[MOVE_TO]]
            steps = sum(action[MOVE_PAY])
            if cities[space] >= 0 or chips[space] < 0:
                keys.append(steps - 1.0)
            else:
                keys.append(steps - (10.0 if space_ships[space] == 0 else 3.0))
        elif kind in (K_ANSWER, K_KEEP):
            keys.append(-_prior(action))
        else:
            keys.append(-kind_prior.get(kind, 0.0))
    order = sorted(range(len(items)), key=keys.__getitem__)
    items[:] = [items[i] for i in order]


def fullest_keeps(legal: list[Action]) -> list[Action]:
    """The keeps of as many cards as allowed. A seat may keep fewer than 3, but a card it
    discards only feeds the discard pile, where the others may take it: never better."""
    most = max(sum(action[KEPT]) for action in legal)
    return [action for action in legal if sum(action[KEPT]) == most]


def tree_options(
    state: GameState, seat: int, firsts: list[Action] | None = None
) -> list[tuple[Key, Action]]:
    """The grouped options of ``seat`` below the root, best prior first (no trade offers).
    ``firsts``: the seat's :func:`~tyros_rules.fewest_wilds`, if known already."""
    phase = state.phase
    if phase == P_ACTIONS:
        values = quick_card_values(state.hands[seat])
        items = list(card_options(state, seat, values, firsts).items())
        by_prior(state, seat, items)
        return items
    legal = legal_actions(state, seat)
    if phase == P_TRADE and seat != state.current:
        # Below the root the others accept or decline: their counter-offers are not searched.
        legal = [a for a in legal if a[0] != K_COUNTER]
    if phase == P_KEEP:
        best = sorted(fullest_keeps(legal), key=lambda a: -quick_prior(state, seat, a))
        best = best[:KEEP_WIDTH]
        items = [(a, a) for a in best]
    else:
        items = [(a, a) for a in legal]
    by_prior(state, seat, items)
    return items


def rollout_action(state: GameState, seat: int, rng: random.Random) -> Action:
    """The fast policy: the best of a few options by the cheap prior, with some randomness."""
    options, more = first_options(state, seat, 1)
    if more and rng.random() < ROLLOUT_SLIP:  # any of them, the first included
        return rng.choice(tree_options(state, seat))[1]
    return options[0][1]


def first_options(state: GameState, seat: int, count: int) -> tuple[list[tuple[Key, Action]], bool]:
    """The first ``count`` of :func:`tree_options` (all if fewer), and whether it has more:
    listing only what comes first where the card actions allow it."""
    firsts = None
    if state.phase == P_ACTIONS:
        hand = state.hands[seat]
        # (the payments of fewest_wilds are quick_card_values' cheapest: always so)
        if max(hand[0], hand[1], hand[2], hand[3]) <= QUICK_WILD:
            firsts = fewest_wilds(state, seat)
            found = leading(state, firsts, count)
            if found is not None:
                return found, True  # (passing comes after them)
    options = tree_options(state, seat, firsts)
    if len(options) > count:
        return options[:count], True
    return options, False


def leading(state: GameState, actions: list[Action], count: int) -> list[tuple[Key, Action]] | None:
    """The first ``count`` of :func:`tree_options` in the card actions when the moves and
    cities (``actions``, :func:`~tyros_rules.fewest_wilds`) alone tell them, or None.
    Cities come first, then the moves whose prior is at least a ship's (ships are listed
    after moves, so a tie keeps the move first); passing, ships and bank trades come after
    those, and need not be listed."""
    if len(actions) < count:
        return None
    port_space = state.board.port_space
    cities, chips, space_ships = state.cities, state.chips, state.space_ships
    city_first: list[tuple[Key, Action]] = []
    moves: list[tuple[float, tuple[Key, Action]]] = []
    least = _KIND_PRIOR[K_SHIP]
    for action in actions:
        if action[0] == K_CITY:
            city_first.append((action[:3], action))
            continue
        space = port_space[action[MOVE_TO]]  # (quick_prior of a move, inlined as in by_prior)
        steps = sum(action[MOVE_PAY])
        if cities[space] >= 0 or chips[space] < 0:
            prior = 1.0 - steps
        else:
            prior = (10.0 if space_ships[space] == 0 else 3.0) - steps
        if prior >= least:
            moves.append((-prior, (action[:3], action)))
    if len(city_first) >= count:
        return city_first[:count]
    if len(city_first) + len(moves) < count:
        return None
    moves.sort(key=lambda item: item[0])  # stable: a tie keeps the order listed
    return (city_first + [item for _prior, item in moves])[:count]


# Evaluation -----------------------------------------------------------------------


def final_rewards(state: GameState, temperature: float, share: float = 0.0) -> list[float]:
    """Rewards of a finished game: mostly winning (a shared win too), a little the margin."""
    score = state.score
    assert score is not None
    totals = [float(p["total"]) for p in score["players"]]
    winners = score["winners"]
    margin = rewards(totals, temperature)
    top = max(totals)
    return [
        (1 - share) * (0.8 * (seat in winners) + 0.2 * margin[seat])
        + share * (totals[seat] / top if top > 0 else 0.0)
        for seat in range(state.players)
    ]


def leaf_rewards(
    state: GameState,
    temperature: float,
    share: float = 0.0,
    hand_weight: float = HAND_WEIGHT,
    learned: LearnedValue | None = None,
) -> list[float]:
    """Every seat's reward in [0, 1] for the position the iteration reached: by the
    hand-set evaluation, or by the ``learned`` one."""
    if state.phase == P_OVER:
        return final_rewards(state, temperature, share)
    analysis = Analysis(state, hand_weight)
    values = analysis.values() if learned is None else learned.values(analysis)
    return rewards(values, temperature, share)


# The search -----------------------------------------------------------------------


class Truth:
    """The game as it is, every hand included, in place of sampled determinizations: what an
    ISMCTS that sees everything searches (an upper bound, for the ladder only)."""

    def __init__(self, state: GameState, seat: int) -> None:
        self.state = state
        self.seat = seat

    def sample(self, rng: random.Random) -> GameState:
        return self.state.copy()

    def holdings(self) -> Holdings:
        return Holdings.of_state(self.state, self.seat)


class Search:
    """One ISMCTS decision for ``seat``, from its ``view`` and ``memory``."""

    def __init__(
        self,
        view: dict[str, Any],
        seat: int,
        legal: list[Action],
        rng: random.Random,
        memory: Memory | None = None,
        exploration: float = EXPLORATION,
        temperature: float = TEMPERATURE,
        rollout_depth: int = ROLLOUT_DEPTH,
        root_width: int = ROOT_WIDTH,
        score_share: float = SCORE_SHARE,
        truth: GameState | None = None,
        hand_weight: float = HAND_WEIGHT,
        manners: Manners | None = None,
        learned: LearnedValue | None = None,
        root_prior: float = ROOT_PRIOR,
        lack_weight: float = LACK_WEIGHT,
        prior_every_phase: bool = False,
    ) -> None:
        self.seat = seat
        self.root_prior = root_prior
        self.lead_all = prior_every_phase and root_prior > 0
        """The prior leads the expansions, answers and keeps too, not only card actions."""
        self.priors: dict[Key, float] = {}
        self.learned = learned
        self.hand_weight = hand_weight
        self.manners = manners
        self.score_share = score_share
        self.rng = rng
        self.exploration = exploration
        self.temperature = temperature
        self.rollout_depth = rollout_depth
        self.determinizer: Determinizer | Truth
        if truth is not None:
            self.determinizer = Truth(truth, seat)
        else:
            try:
                self.determinizer = Determinizer(view, seat, memory, lack_weight=lack_weight)
            except InconsistentView:
                self.determinizer = Determinizer(view, seat, None)
        self.root = Node(-1)
        self.iterations = 0
        self.root_options = self._root_options(legal, root_width)

    def _root_options(self, legal: list[Action], width: int) -> dict[Key, Action]:
        """The bot's own options at the root, ordered and trimmed by the greedy values."""
        state = self.determinizer.sample(self.rng)
        greedy = Greedy(
            state,
            self.seat,
            self.rng,
            holdings=self.determinizer.holdings(),
            hand_weight=self.hand_weight,
            manners=self.manners,
        )
        phase = state.phase
        # Without lead_all, greedy values only what it did before (a few expansions are all
        # searched unvalued), so that such a search draws the same random numbers as before.
        lead_all = self.lead_all
        if phase == P_KEEP:
            plan = greedy.plan(self.seat)
            kept = {a: plan.hand_value(a[KEPT]) for a in fullest_keeps(legal)}
            best = sorted(kept, key=lambda a: -kept[a])[:KEEP_WIDTH]
            if lead_all:
                self._lead({a: kept[a] for a in best})
            return {a: a for a in best}
        if phase == P_ACTIONS:
            return self._root_card_actions(greedy, legal, width)
        if phase == P_EXPAND and legal[0][0] == K_RETURN_TILE:
            return {a: a for a in [greedy.tile_to_return(legal)]}
        if phase == P_GIVE_CARD:
            return {a: a for a in legal}
        if phase == P_TRADE and self.seat != state.current:
            # Accept or decline, and greedy's counter-offer if it would make one: searching
            # every listed counter (about twenty) would spread the search too thin.
            options = [a for a in legal if a[0] != K_COUNTER]
            scores = greedy.answer_scores(legal) if lead_all else None
            suggested = greedy.answer(legal) if scores is None else best_answer(scores)
            if suggested[0] == K_COUNTER:
                options.append(suggested)
            if scores is not None:
                self._lead({a: scores[a] for a in options})
            return {a: a for a in options}
        if phase == P_EXPAND and (len(legal) > width or lead_all):
            utilities = {a: greedy.utility_after(a) for a in legal}
            scored = sorted(legal, key=lambda a: -utilities[a])[:width]
            if lead_all:
                self._lead({a: utilities[a] for a in scored})
            return {a: a for a in scored}
        return {a: a for a in legal}

    def _root_card_actions(
        self, greedy: Greedy, legal: list[Action], width: int
    ) -> dict[Key, Action]:
        choices = greedy.card_choices(legal)
        # (a bank trade within the value's noise of passing is not worth searching)
        worth = [item for item in choices.scored if greedy.worth_banking(choices, item[0], item[2])]
        scored = sorted(worth, key=lambda item: -item[0])
        options: dict[Key, Action] = {(K_PASS,): (K_PASS,)}
        values: dict[Key, float] = {(K_PASS,): choices.base}
        for score, key, action in scored[:width]:
            options[key] = action
            values[key] = score
        if choices.proposals:
            offer, gain = greedy.best_proposal(choices.plan, choices.hand, choices.proposals)
            if offer is not None and gain > 0:
                options[action_key(offer)] = offer
                values[action_key(offer)] = choices.base + gain
        self._lead(values)
        return options

    def _lead(self, values: dict[Key, float]) -> None:
        """Greedy's ``values`` of the root's options (points) as the root's prior, if the
        search has one: a softmax at :data:`PRIOR_TEMPERATURE`."""
        if self.root_prior > 0:
            top = max(values.values())
            weights = {k: math.exp((v - top) / PRIOR_TEMPERATURE) for k, v in values.items()}
            total = sum(weights.values())
            self.priors = {k: w / total for k, w in weights.items()}

    def run(self, iterations: int | None, move_time: float | None) -> Action:
        """Search until the budget is spent; the most visited root option."""
        if len(self.root_options) == 1:
            return next(iter(self.root_options.values()))
        deadline = None if move_time is None else time.perf_counter() + move_time
        while True:
            if iterations is not None and self.iterations >= iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            self.iterate()
        best = max(
            self.root.children.items(),
            key=lambda item: (item[1].visits, item[1].total),
            default=None,
        )
        if best is None:
            return next(iter(self.root_options.values()))
        return self.root_options[best[0]]

    def iterate(self) -> None:
        self.iterations += 1
        state = self.determinizer.sample(self.rng)
        rng = self.rng
        node = self.root
        path: list[Node] = []
        exploration = self.exploration
        priors = self.priors
        root_scale = self.root_prior * math.sqrt(self.iterations)
        expanded = False
        while state.phase != P_OVER and not expanded:
            if node is self.root:
                mover = self.seat
                options = list(self.root_options.items())
            else:
                mover = seats_to_act(state)[0]
                width = int(WIDEN_BASE + WIDEN_RATE * math.sqrt(node.visits))
                options, _more = first_options(state, mover, width)
            children = node.children
            chosen: tuple[Key, Action] | None = None
            best_score = -1.0
            for key, action in options:
                child = children.get(key)
                if child is None:
                    if not expanded:
                        chosen = (key, action)
                        expanded = True
                    continue
                child.available += 1
                if not expanded:
                    if priors and node is self.root:
                        score = child.total / child.visits + root_scale * priors[key] / (
                            1 + child.visits
                        )
                    else:
                        score = child.ucb(exploration)
                    if score > best_score:
                        best_score, chosen = score, (key, action)
            assert chosen is not None
            key, action = chosen
            child = children.get(key)
            if child is None:
                child = children[key] = Node(mover)
                child.available = 1
            push_unchecked(state, mover, action)
            path.append(child)
            node = child
        for _ in range(self.rollout_depth):
            if state.phase == P_OVER:
                break
            mover = seats_to_act(state)[0]
            push_unchecked(state, mover, rollout_action(state, mover, rng))
        reward = leaf_rewards(
            state, self.temperature, self.score_share, self.hand_weight, self.learned
        )
        for visited in path:
            visited.visits += 1
            visited.total += reward[visited.mover]


__all__ = [
    "Node",
    "Search",
    "first_options",
    "leaf_rewards",
    "quick_prior",
    "rollout_action",
    "tree_options",
]
