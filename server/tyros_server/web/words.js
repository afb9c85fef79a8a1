// The page's words for actions, events and phases. ``who(seat)`` names a seat.

export const LETTERS = "ABCD";

export function actionWords(action, who) {
  if (action.kind === "answer") return action.accept ? "accept" : "decline";
  if (action.kind === "complete") return `complete with ${who(action.with)}`;
  if (action.kind === "withdraw") return "withdraw the offer";
  if (action.kind === "counter") {
    const [gives, gets] = actorSide(action);
    return `counter: give ${gives.join(", ")} for ${gets.join(", ")}`;
  }
  if (action.kind === "keep") return action.cards ? `keep ${action.cards.join(", ") || "nothing"}` : "keep cards";
  if (action.kind === "propose") {
    const to = action.to && action.to.length ? ` to ${action.to.map(who).join(", ")}` : "";
    return `offer ${action.give.join(", ")} for ${action.get.join(", ")}${to}`;
  }
  const parts = [targetWords(action)];
  for (const key of ["give", "get", "pay", "cards"]) {
    if (action[key] && action[key].length) parts.push(`${key} ${action[key].join(", ")}`);
  }
  return parts.join(" ");
}

// A trade's cards from the side of whoever makes it: [gives, gets]. A counter is written from
// the proposer's side (the proposer would give ``give``), so whoever counters gives ``get``.
export function actorSide(action) {
  return action.kind === "counter" ? [action.get, action.give] : [action.give, action.get];
}

// The counter of whoever gives ``gives`` for ``gets``, as the protocol writes it.
export function counterOf(gives, gets) {
  return { kind: "counter", give: gets, get: gives };
}

// An action without what it costs: what a payment chooser offers payments for.
export function targetWords(action) {
  const parts = [action.kind.replace("_", " ")];
  for (const key of ["tile", "colour", "space", "from", "to", "card", "take"]) {
    if (action[key] !== undefined) parts.push(key === "to" ? `to ${action[key]}` : String(action[key]));
  }
  return parts.join(" ");
}

export function phaseWords(view, who) {
  const phases = {
    expand: "expansion",
    actions: "card actions",
    trade: "a trade",
    give_card: "a card for a city owner",
    keep: "keeping cards",
    over: "game over",
  };
  const phase = phases[view.phase] || view.phase;
  if (view.phase === "over") return phase;
  const acting = view.to_act && view.to_act.length ? view.to_act : [view.current];
  return `${phase}: ${acting.map(who).join(", ")} to act`; // (several keep, or answer, at once)
}

const s_ = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function describe(event, who) {
  const seat = event.seat !== undefined && event.seat !== null ? who(event.seat) : "";
  switch (event.type) {
    case "starting_seat":
      return `${seat} starts`;
    case "start_tile":
      return `start tile ${event.tile} ${event.accepted ? "taken" : "turned down"}`;
    case "empire_founded":
      return `the ${event.colour} empire is founded in ${event.space}`;
    case "tyros_coloured":
      return `Tyros takes the colour ${event.colour}`;
    case "tiles_dealt":
      return `${seat} is dealt ${s_(event.count, "tile")}${event.tiles ? `: ${event.tiles.join(", ")}` : ""}`;
    case "round_start":
      return `Round ${event.round}`;
    case "cards_dealt":
      return `${seat} is dealt ${s_(event.count, "card")}${event.cards ? `: ${event.cards.join(", ")}` : ""}`;
    case "expansion_skipped":
      return `${seat} cannot expand (${event.reason === "no_tiles" ? "no tiles" : "no tiles left to draw"})`;
    case "tiles_revealed":
      return `${seat} can play none of their tiles: ${event.tiles.join(", ")}`;
    case "tile_drawn":
      return `${seat} draws ${s_(event.count, "tile")}${event.tile ? `: ${event.tile}` : ""}`;
    case "actions_start":
      return `card actions: ${seat} first`;
    case "round_end":
      return `round ${event.round} ends`;
    case "action": {
      const by = { takeover: " (a bot, for them: away)", clock: " (their clock ran out)" }[event.by] || "";
      const to = event.action.kind === "give_card" && event.to !== undefined ? ` to ${who(event.to)}` : "";
      return `${seat}: ${actionWords(event.action, who)}${to}${by}`;
    }
    case "cards_drawn":
      return `${seat} draws ${s_(event.count, "card")}${event.cards ? `: ${event.cards.join(", ")}` : ""}`;
    case "trade_completed":
      return `${seat} gives ${event.give.join(", ")} to ${who(event.with)} for ${event.get.join(", ")}`;
    case "all_four_empires":
      return `${seat} is the first with a city in all four empires`;
    case "cards_discarded":
      return `${seat} discards ${event.cards.join(", ") || "nothing"}`;
    case "game_end":
      return "the game is over";
    default:
      return event.type.replaceAll("_", " ");
  }
}

const CARDS = ["orange", "yellow", "green", "violet", "wild"];

// Cards as a person writes them ("2 orange, wild", "oranges", "green x2"); null, with the
// word not understood, if one is not a card.
export function parseCards(text) {
  const out = [];
  let count = 1;
  for (const word of text.toLowerCase().split(/[\s,;+&]+|\band\b/).filter(Boolean)) {
    const spelled = { one: 1, two: 2, three: 3, four: 4, five: 5 }[word];
    if (spelled) {
      count = spelled;
      continue;
    }
    const number = word.match(/^x?([1-9])x?$/); // (1 to 9 of a kind: a hand holds no more)
    if (number) {
      if (word.endsWith("x") && !word.startsWith("x")) return { unknown: word };
      if (out.length && word.startsWith("x")) out.push(...Array(Number(number[1]) - 1).fill(out[out.length - 1]));
      else count = Number(number[1]);
      continue;
    }
    const card = CARDS.find((c) => word === c || word === `${c}s`);
    if (!card) return { unknown: word };
    out.push(...Array(count).fill(card));
    count = 1;
  }
  return { cards: out };
}

// Seconds as m:ss.
export function clockWords(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}
