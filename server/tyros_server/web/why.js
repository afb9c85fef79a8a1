// Why the page cannot do what a player tries, in the terminal client's words (its
// tui/why.py): legality is the server's (the prompt's legal actions); this only explains,
// from those and the seat's view: an offer to answer first, whose turn it is, what stands in
// the way of a space clicked (no empire, two ships, too few cards of its colour).

import { phaseName, rules } from "./words.js";

const either = (words) => (words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words[0]);

// What the table waits for from the seat before anything else (null: nothing): an offer to
// answer, or one's own offer to settle.
export function requestFirst(legal) {
  const kinds = new Set(legal.map((a) => a.kind));
  if (kinds.has("answer") || kinds.has("counter")) {
    const answers = [];
    if (legal.some((a) => a.kind === "answer" && a.accept)) answers.push("accept");
    if (legal.some((a) => a.kind === "answer" && !a.accept)) answers.push("decline");
    if (kinds.has("counter")) answers.push("counter");
    return `answer the trade offer first: ${either(answers)}`;
  }
  if (kinds.has("complete")) return "your trade offer has its answers: complete it or withdraw it first";
  if (kinds.has("withdraw")) return "your trade offer waits for its answers: wait for them, or withdraw it";
  return null;
}

// Why an offer made to the seat cannot be accepted (null: it can): the cards it asks for
// that the hand lacks, in the engine's words for a payment not held.
export function acceptWhy(hand, asked) {
  const count = (cards, card) => cards.filter((c) => c === card).length;
  const short = [...new Set(asked)]
    .filter((card) => count(asked, card) > count(hand, card))
    .map((card) => `you hold ${count(hand, card)} ${card}, not ${count(asked, card)}`);
  return short.length ? `you cannot accept: ${short.join("; ")}` : null;
}

// Why ``tile`` cannot be played on the seat's expansion turn (null: it can), from the tiles
// ``held`` and the seat's legal actions.
export function expandWhy(tile, held, legal) {
  const playable = [...new Set(legal.filter((a) => a.kind === "expand").map((a) => String(a.tile)))];
  if (!playable.length) {
    return legal.some((a) => a.kind === "return_tile") ? "no tile of yours touches an empire: choose one to put back (return TILE)" : null;
  }
  if (playable.includes(tile)) return null;
  playable.sort((a, b) => Number(a) - Number(b)); // (tiles are numbered spaces)
  return `${held.includes(tile) ? "no empire touches" : "you do not hold tile"} ${tile}; you can play: ${playable.join(", ")}`;
}

// Why the seat may do nothing now (null: it may act).
export function turnWhy(view, seat, who) {
  if (seat === null) return "you are watching this table: spectators cannot act";
  if (!view) return "the game starts when every seat is taken";
  if (view.phase === "over") return "the game is over";
  const toAct = view.to_act || [];
  if (toAct.includes(seat)) return null;
  if (view.phase === "keep") return "the others are choosing the cards they keep: wait for them";
  if (view.phase === "trade" && view.trade) return "a trade offer is being answered: wait for it to end";
  if (view.phase === "give_card" && view.owed_to !== undefined && view.owed_to !== null) {
    return `${toAct.length ? who(toAct[0]) : "a player"} is giving a card to ${who(view.owed_to)}: wait for them`;
  }
  const current = toAct.length ? toAct[0] : view.current;
  return `it is ${who(current)}'s turn (${phaseName(view.phase)}): wait for them`;
}

// Why nothing can be done in ``space`` on the seat's card turn: a city where its ships are,
// else a move there.
export function spaceWhy(board, view, seat, space, who) {
  const colour = (view.chips || {})[space];
  if (!colour) return `${space} belongs to no empire yet: ships move only into empires' spaces`;
  const ships = shipsIn(view, space);
  const hand = view.hand || [];
  const owner = (view.cities || {})[space];
  if (ships.get(seat)) {
    if (owner !== undefined) return `${space} already has a city (${who(owner)}'s)`;
    const rival = [...ships.keys()].find((s) => s !== seat);
    if (rival !== undefined) return `${who(rival)} also has a ship in ${space}: a city needs your ships alone there`;
    const need = rules().city_cost[ships.get(seat) >= 2 ? 1 : 0];
    return missing(need, colour, hand) || `a city in ${space} is not possible now`;
  }
  const total = [...ships.values()].reduce((a, b) => a + b, 0);
  const tyrosOpen = space === board.tyros && !("TY" in (view.cities || {}));
  const limit = rules().ship_limit;
  if (!tyrosOpen && total >= limit) return `${space} already holds ${limit} ships, the most a space may`;
  const mine = (view.ships || []).filter((s) => s.seat === seat).map((s) => s.port);
  if (!mine.length) return "you have no ship on the board";
  const steps = fewestSteps(board, mine, portsOf(board, space));
  if (steps === null) return `no sea route leads to ${space}`;
  const short = missing(steps, colour, hand);
  return short ? `${space} is ${steps} step${steps === 1 ? "" : "s"} away: ${short}` : `no move to ${space} is possible now`;
}

function shipsIn(view, space) {
  const bySeat = new Map();
  for (const stack of view.ships || []) {
    if (stack.port.replace(/[WE]$/, "") === space) bySeat.set(stack.seat, (bySeat.get(stack.seat) || 0) + stack.count);
  }
  return bySeat;
}

function missing(need, colour, hand) {
  const have = hand.filter((c) => c === colour).length;
  const wild = hand.filter((c) => c === "wild").length;
  if (have + wild >= need) return null;
  return `it costs ${need} ${colour} (wild cards count) and you hold ${have} ${colour} and ${wild} wild`;
}

const portsOf = (board, space) => (board.coasts || {})[space] || [space];

// The fewest sea steps from any of ``starts`` to any of ``ends`` (null: none), over the
// board's links ("16W-21").
function fewestSteps(board, starts, ends) {
  const next = new Map();
  for (const link of board.links) {
    const [a, b] = link.split("-");
    if (!next.has(a)) next.set(a, []);
    if (!next.has(b)) next.set(b, []);
    next.get(a).push(b);
    next.get(b).push(a);
  }
  const seen = new Map(starts.filter((p) => !ends.includes(p)).map((p) => [p, 0]));
  const queue = [...seen.keys()];
  while (queue.length) {
    const port = queue.shift();
    for (const other of next.get(port) || []) {
      if (seen.has(other)) continue;
      seen.set(other, seen.get(port) + 1);
      if (ends.includes(other)) return seen.get(other);
      queue.push(other);
    }
  }
  return null;
}
