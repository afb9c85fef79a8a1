// The trade form: an offer of one's own on one's card turn (to the players ticked), or a
// counter to an offer made to you, in your own words.

import { CARDS, counterOf, parseCards } from "./words.js";

const $ = (id) => document.getElementById(id);
let offerKey = null; // the offer the counter form answers (it empties when that changes)

export function countering(prompt) {
  return !!prompt && prompt.legal.some((a) => a.kind === "answer");
}

export function forgetOffer() {
  offerKey = null;
}

export function showOfferForm({ prompt, view, names, seat, who }) {
  // (an offer only while one may be made: not after one fell through this turn)
  const turn = !!prompt && view.phase === "actions" && prompt.legal.some((a) => a.kind === "propose");
  const counter = countering(prompt);
  const wasHidden = $("offer").hidden;
  $("offer").hidden = !(turn || counter);
  const mode = counter ? "Counter: you give" : "Offer: give";
  const trade = view.trade;
  const key = counter && trade ? JSON.stringify([trade.proposer, trade.give, trade.get]) : null;
  if ($("offer-what").textContent !== mode || (wasHidden && !$("offer").hidden) || key !== offerKey) {
    offerKey = key;
    // Words typed for an offer of one's own are never sent as a counter, nor the reverse.
    $("give").value = "";
    $("get").value = "";
  }
  $("offer-what").textContent = mode;
  $("offer-send").textContent = counter ? "Counter" : "Offer";
  const to = $("offer-to");
  to.hidden = counter;
  const others = [...Array(names.length).keys()].filter((s) => s !== seat);
  if (to.dataset.seats !== others.join(",")) {
    to.dataset.seats = others.join(",");
    to.replaceChildren("to ");
    for (const other of others) {
      const box = document.createElement("input");
      box.type = "checkbox";
      box.checked = true;
      box.value = String(other);
      const label = document.createElement("label");
      label.append(box, ` ${who(other)}`);
      to.append(label);
    }
  }
}

// The action the form's words say: {action} or {refusal} (why it says none).
export function offerOf(prompt) {
  const give = parseCards($("give").value);
  const get = parseCards($("get").value);
  const unknown = give.unknown || get.unknown;
  if (unknown !== undefined && /^\d+$/.test(unknown)) {
    return { refusal: `${unknown} cards of one colour is more than a hand holds: write 1 to 9, e.g. "2 orange"` };
  }
  if (unknown !== undefined) {
    return { refusal: `"${unknown}" is not a card: write colours, e.g. "2 orange, wild" (${CARDS.join(", ")})` };
  }
  if (!give.cards.length || !get.cards.length) {
    return { refusal: 'Write the cards given and the cards asked for, e.g. give "2 orange" for "violet"' };
  }
  if (countering(prompt)) return { action: counterOf(give.cards, get.cards) };
  const to = [...$("offer-to").querySelectorAll("input:checked")].map((box) => Number(box.value));
  return { action: { kind: "propose", to, give: give.cards, get: get.cards } };
}
