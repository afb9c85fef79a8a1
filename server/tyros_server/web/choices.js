// What a player may do, as controls: the legal actions grouped by kind, one button each,
// except that one thing done by several payments is one choice with a payment chooser
// (cheapest first). ``advised``, the server's bot's choice, is marked; ``describe`` says an
// action in the catalogue's words, as the log does.

import { actionSpaces } from "./board.js";
import { cardsText, describeTarget } from "./words.js";

const SHOWN = 60; // choices of one kind shown at once (a space clicked shows its own)
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export function renderChoices(container, legal, { describe, advice, disabled, act }) {
  container.replaceChildren();
  const groups = new Map();
  for (const action of legal) {
    if (!groups.has(action.kind)) groups.set(action.kind, []);
    groups.get(action.kind).push(action);
  }
  const context = { describe, advice, disabled, act };
  for (const [kind, actions] of groups) {
    const picking = PICKED[kind];
    if (picking && actions.length > folding()) {
      container.append(cardPicker(actions, picking, context));
      continue;
    }
    const targets = [...byTarget(actions).values()];
    const title = `${TITLES[kind] || kind.replace("_", " ")} (${targets.length})`;
    // Beside other choices, long lists (and the ready-made offers) fold away: a click on a
    // space shows its own.
    const folded = groups.size > 1 && (kind === "propose" || targets.length > folding());
    const box = document.createElement(folded ? "details" : "div");
    box.className = "group";
    const head = document.createElement(folded ? "summary" : "h4");
    // (a click on a space shows only the choices that name one: moves, ships, cities, tiles)
    const spaced = actions.some((a) => actionSpaces(a).length > 0);
    const open = kind === "counter" ? "show them all, or write your own below" : spaced ? "show them all, or click a space" : "show them all";
    head.textContent = folded && kind !== "propose" ? `${title}: ${open}` : title;
    box.append(head);
    for (const [words, payments] of targets.slice(0, SHOWN)) {
      box.append(payments.length === 1 ? choice(payments[0], context) : paymentChooser(words, payments, context));
    }
    if (targets.length > SHOWN) {
      const more = document.createElement("p");
      more.textContent = `... and ${targets.length - SHOWN} more${spaced ? ": click a space to see its own" : ""}`;
      box.append(more);
    }
    if (folded && advice && actions.some((a) => same(advice, a))) box.open = true;
    container.append(box);
  }
}

// More choices of one kind than this are folded away (fewer on a phone's narrow screen).
const folding = () => (window.matchMedia("(max-width: 600px)").matches ? 4 : 12);
const TITLES = {
  propose: "ready-made offers (or write your own below)",
  counter: "counter-offers",
  bank_draw: "bank: draw",
  bank_pick: "bank: pick a card",
  return_tile: "put a tile back",
  give_card: "give a card",
  keep: "cards to keep",
};

export function button(text, onClick, disabled = false) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = text;
  node.disabled = disabled;
  node.addEventListener("click", onClick);
  return node;
}

function choice(action, { describe, advice, disabled, act }) {
  const node = button(describe(action), () => act(action), disabled);
  if (advice && same(advice, action)) node.classList.add("advised");
  return node;
}

// Actions that differ only in their payment, under the catalogue's words of what they do.
function byTarget(actions) {
  const targets = new Map();
  for (const action of actions) {
    const key = JSON.stringify({ ...action, pay: undefined }); // (its payment left out)
    if (!targets.has(key)) targets.set(key, [action.pay ? describeTarget(action, []) : null, []]);
    targets.get(key)[1].push(action);
  }
  const cost = (a) => a.pay.length * 10 + a.pay.filter((c) => c === "wild").length;
  for (const [, payments] of targets.values()) {
    if (payments[0].pay) payments.sort((a, b) => cost(a) - cost(b));
  }
  return targets;
}

function paymentChooser(words, payments, { advice, disabled, act }) {
  const group = document.createElement("span");
  group.className = "payment";
  const label = document.createElement("label");
  const select = document.createElement("select");
  payments.forEach((action, index) => {
    const option = document.createElement("option");
    option.value = String(index);
    option.textContent = `pay ${cardsText(action.pay)}`;
    if (advice && same(advice, action)) option.selected = true;
    select.append(option);
  });
  label.append(`${words}: `, select);
  const go = button("Do it", () => act(payments[Number(select.value)]), disabled);
  if (advice && payments.some((a) => same(advice, a))) group.classList.add("advised");
  group.append(label, go);
  return group;
}

// Actions that are a choice of cards from the hand, picked as cards (up to as many pickers
// as the most cards one takes, of the colours held) rather than from every combination.
const PICKED = {
  keep: { cards: (a) => a.cards, title: (most) => `cards to keep (up to ${most})`, go: "Keep these", what: "to keep" },
  bank_draw: {
    cards: (a) => a.pay,
    title: (most) => `bank: draw (discard 1 to ${most} cards, draw as many)`,
    go: "Discard and draw",
    what: "to discard",
  },
};

// The cards of one of ``actions`` (a keep at a round's end, a bank draw's payment), chosen
// card by card; what it sends is one of the legal actions.
function cardPicker(actions, { cards, title, go, what }, { advice, disabled, act }) {
  const most = Math.max(...actions.map((a) => cards(a).length));
  const held = [...new Set(actions.flatMap(cards))];
  const box = document.createElement("div");
  box.className = `group picker ${actions[0].kind}`;
  const head = document.createElement("h4");
  head.textContent = title(most);
  box.append(head);
  const advised = advice && advice.kind === actions[0].kind ? cards(advice) : [];
  const preset = advised.length ? advised : cards(actions[0]); // (a legal choice to start from)
  if (advised.length) box.classList.add("advised");
  const pickers = [...Array(most).keys()].map((i) => {
    const select = document.createElement("select");
    select.setAttribute("aria-label", `card ${i + 1} ${what}`);
    for (const card of ["", ...held]) {
      const option = document.createElement("option");
      option.value = card;
      option.textContent = card || "(none)";
      if ((preset[i] || "") === card) option.selected = true;
      select.append(option);
    }
    box.append(select);
    return select;
  });
  const sorted = (list) => [...list].sort().join(",");
  const count = (list, card) => list.filter((c) => c === card).length;
  const mostOf = (card) => Math.max(...actions.map((a) => count(cards(a), card))); // (as held)
  const say = document.createElement("span");
  say.className = "picker-why";
  say.setAttribute("role", "alert");
  const send = button(go, () => {
    const chosen = pickers.map((p) => p.value).filter(Boolean);
    const found = actions.find((a) => sorted(cards(a)) === sorted(chosen));
    if (found) return act(found);
    const over = [...new Set(chosen)].filter((card) => count(chosen, card) > mostOf(card));
    const limits = over.map((card) => `${mostOf(card)} ${card}`).join(" and ");
    say.textContent = !chosen.length ? ` pick the cards ${what}` : over.length ? ` you can pick only ${limits}` : " not a choice you have";
  }, disabled);
  box.append(send, say);
  return box;
}
