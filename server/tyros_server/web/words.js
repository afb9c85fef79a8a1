// The page's words for actions, events and phases. ``who(seat)`` names a seat.

// Each seat's letter ("ABCD") and the cards' names, in the protocol's order: the catalogue
// carries them (set by ``setCatalogue``, before any message is read).
export let LETTERS = "";
export let CARDS = [];

// A trade's cards from the side of whoever makes it: [gives, gets]. A counter is written from
// the proposer's side (the proposer would give ``give``), so whoever counters gives ``get``.
export function actorSide(action) {
  return action.kind === "counter" ? [action.get, action.give] : [action.give, action.get];
}

// The counter of whoever gives ``gives`` for ``gets``, as the protocol writes it.
export function counterOf(gives, gets) {
  return { kind: "counter", give: gets, get: gives };
}

export function phaseWords(view, who) {
  const phase = phaseName(view.phase);
  if (view.phase === "over") return phase;
  const acting = view.to_act && view.to_act.length ? view.to_act : [view.current];
  return `${phase}: ${acting.map(who).join(", ")} to act`; // (several keep, or answer, at once)
}

// The log's words come from the protocol's catalogue (/words.json, the same the terminal
// client speaks from: tyros_protocol/words.py renders it alike). A template's
// {field|format} is a field in a format; a [part] is said only when its fields are there;
// an entry's words of variants say the first whose "is" and "has" hold.
let catalogue = null;

export function setCatalogue(data) {
  catalogue = data;
  LETTERS = data.letters;
  CARDS = data.cards;
}

// The rules' numbers the page quotes ("ship_limit", "city_cost": with one of the seat's
// ships in the space, with two), as the server's rules library has them.
export const rules = () => catalogue.rules;

// A phase's name, as a heading says it ("card actions"), from the catalogue.
export function phaseName(phase) {
  const entry = catalogue && catalogue.phases[phase];
  return entry ? entry.name : phase;
}

export function whoOf(seat, names) {
  const letter = seat >= 0 && seat < LETTERS.length ? LETTERS[seat] : "?";
  return `${letter} ${(seat >= 0 && names[seat]) || `player ${letter}`}`;
}

export function cardsText(cards) {
  const parts = [];
  for (const kind of CARDS) {
    const n = cards.filter((card) => card === kind).length;
    if (n) parts.push(n === 1 ? kind : `${kind} x${n}`);
  }
  return parts.length ? parts.join(", ") : "nothing";
}

const there = (value) => value !== undefined && value !== null;

const FORMATS = {
  who: (value, ctx) => (Number.isInteger(value) ? whoOf(value, ctx.names) : ""),
  whos: (value, ctx) => (value || []).map((seat) => FORMATS.who(seat, ctx)).join(", "),
  cards: (value) => cardsText(value || []),
  count: (value) => String((value || []).length),
  list: (value) => (value || []).map(String).join(", "),
  article: (value) => `${"aeiou".includes(String(value)[0]) ? "an" : "a"} ${value}`,
  action: (value, ctx) => {
    const action = { ...(value || {}) };
    const event = ctx.event || {};
    if (action.kind === "give_card" && !there(action.to) && there(event.to)) action.to = event.to;
    return describeAction(action, ctx.names);
  },
  by: (value, ctx) => {
    const said = catalogue.by;
    const yours = ctx.event && there(ctx.viewer) && ctx.event.seat === ctx.viewer;
    return said[yours ? `${value} yours` : String(value)] ?? said[String(value)] ?? "";
  },
  coast: (value) => {
    const coast = String(value ?? "");
    return "WE".includes(coast.slice(-1)) && coast ? ` (the ship on ${coast} goes home)` : "";
  },
  winners: (value, ctx) => ((value || {}).winners || []).map((s) => whoOf(s, ctx.names)).join(" and ") || "nobody",
};

const FIELD = /\{([a-z_]+)(?:\|([a-z]+)(?::([a-z]+))?)?\}/g;

function render(template, item, ctx) {
  let text = template;
  if (Array.isArray(template)) {
    const holds = (variant) =>
      Object.entries(variant.is || {}).every(([k, v]) => item[k] === v) && (variant.has || []).every((k) => there(item[k]));
    text = template.find(holds).text;
  }
  text = text.replace(/\[([^\]]*)\]/g, (_, part) =>
    [...part.matchAll(FIELD)].every((m) => there(item[m[1]])) ? part : "",
  );
  return text.replace(FIELD, (_, name, form, word) => {
    const value = item[name];
    if (form === "plural") return `${value} ${word}${value === 1 ? "" : "s"}`;
    if (!form) return there(value) ? String(value) : "";
    return FORMATS[form](value, ctx);
  });
}

// One line for an action (the protocol's JSON), in the catalogue's words.
export function describeAction(action, names) {
  const entry = catalogue.actions[action.kind];
  return entry === undefined ? String(action.kind) : render(entry.words, action, { names });
}

// What a paying action does without its payment ("move TY -> 23", "bank draw"): what a
// payment chooser offers payments for.
export function describeTarget(action, names) {
  const entry = catalogue.actions[action.kind];
  return render(entry.target ?? entry.words, action, { names });
}

// An action from the acting seat's side, where the catalogue says it so ("counter-offer:
// you give ..."); else as everyone reads it.
export function describeYours(action, names) {
  const entry = catalogue.actions[action.kind];
  return entry && entry.yours ? render(entry.yours, action, { names }) : describeAction(action, names);
}

// Whether an action is talk of a trade (an offer, an answer, completing or withdrawing it).
export function tradeTalk(kind) {
  const entry = catalogue.actions[kind];
  return Boolean(entry && entry.trade);
}

// The terms completing a trade with the seat of ``answer`` would trade on, from the
// proposer's side: ``give`` and ``get``.
export function completingWords(answer, give, get) {
  return render(catalogue.trade.completing, { ...answer, give, get }, {});
}

// One log line for an event as ``viewer`` sees it; null for a type the catalogue has no
// words for (said on the console: a page older than its server).
export function describeEvent(event, names, viewer) {
  const entry = catalogue.events[event.type];
  if (entry === undefined) {
    console.error(`no words for the event ${event.type}`);
    return null;
  }
  return render(entry.words, event, { names, viewer, event });
}

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

// A refusal in the page's words: the server's text, without the schema's field path and
// validator prefix ("hello.name: Value error, ..." says "That name cannot be used: ...").
const FIELDS = { name: "That name cannot be used", text: "Not said", table: "That table name cannot be used" };

export function refusalWords(message) {
  const text = message.message || message.code.replaceAll("_", " ");
  if (message.code !== "bad_message") return text;
  const found = text.match(/^[a-z_]+\.([a-z_]+)[^:]*: (?:Value error, )?([^;]*)/);
  if (!found) return `The server could not read that: ${text}`;
  const [, field, why] = found;
  return `${FIELDS[field] || "The server could not read that"}: ${why.replace(/ \(\+\d+ more\)$/, "")}`;
}
