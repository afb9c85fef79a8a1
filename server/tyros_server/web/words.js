// The page's words for actions, events and phases. ``who(seat)`` names a seat.

export const LETTERS = "ABCD";

export function actionWords(action, who) {
  if (action.kind === "answer") return action.accept ? "accept" : "decline";
  if (action.kind === "complete") return `complete with ${who(action.with)}`;
  if (action.kind === "withdraw") return "withdraw the offer";
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
  return view.phase === "over" ? phase : `${phase}: ${who(view.current)} to act`;
}

export function describe(event, who) {
  switch (event.type) {
    case "round_start":
      return `Round ${event.round}`;
    case "round_end":
      return `round ${event.round} ends`;
    case "action": {
      const by = { takeover: " (a bot, for them: away)", clock: " (their clock ran out)" }[event.by] || "";
      return `${who(event.seat)}: ${actionWords(event.action, who)}${by}`;
    }
    case "cards_drawn":
      return `${who(event.seat)} draws ${event.count} card${event.count === 1 ? "" : "s"}`;
    case "trade_completed":
      return `${who(event.seat)} gives ${event.give.join(", ")} to ${who(event.with)} for ${event.get.join(", ")}`;
    case "game_end":
    case "game_over":
      return "the game is over";
    default:
      return event.type.replaceAll("_", " ");
  }
}

// Seconds as m:ss.
export function clockWords(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}
