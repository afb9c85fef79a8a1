// What every seat has, as a table (its colour, points if the game ended now, cards, tiles,
// supplies, clocks, bot and away marks, who is to act), your own hand, and the score sheet.

import { chip } from "./turn.js";
import { CARDS, clockWords } from "./words.js";

// Your hand as cards (a card of each colour held, with how many), then your tiles.
export function renderHand(node, view) {
  if (!view.hand) {
    node.hidden = true;
    return;
  }
  node.replaceChildren("Your hand: ");
  for (const card of CARDS) {
    const count = view.hand.filter((c) => c === card).length;
    const face = document.createElement("span");
    face.className = `card ${card}${count ? "" : " none"}`;
    face.textContent = `${card} ${count}`;
    node.append(face);
  }
  node.append(` Your tiles: ${(view.tiles || []).join(", ") || "none"}.`);
  node.hidden = false;
}

// The final score as a score pad: a column a player, a line of the sheet a row (each
// empire's points, the bonuses, the tie-break's points), the total at the foot. A column a
// player keeps the whole sheet in sight on a phone, as it would on paper.
export function renderScore(box, view, who) {
  if (!view.score) {
    box.hidden = true;
    return;
  }
  const sheet = view.score;
  const players = sheet.players;
  const empire = (player, colour) => player.empires.find((e) => e.colour === colour) || { points: 0 };
  const lines = [
    ...sheet.empires.map((e) => [e.colour, (p) => String(empire(p, e.colour).points)]),
    ["majority bonus", (p) => (p.majority_bonus.length ? `${p.majority_points} (${p.majority_bonus.join(", ")})` : "0")],
    ["all four", (p) => String(p.all_four_bonus)],
    ["largest empire (tie-break)", (p) => String(p.largest_empire_points)],
    ["total", (p) => String(p.total)],
  ];
  const table = document.createElement("table");
  const caption = document.createElement("caption");
  caption.textContent = "Final score";
  const head = document.createElement("tr");
  head.append(cell("td", ""));  // (the corner: an empty header would name nothing)
  for (const player of players) {
    const name = cell("th", who(player.seat), "col");
    name.prepend(chip(player.seat));
    head.append(name);
  }
  table.append(caption, head);
  for (const [label, value] of lines) {
    const line = document.createElement("tr");
    if (label === "total") line.className = "total";
    line.append(cell("th", label, "row"), ...players.map((p) => cell("td", value(p))));
    table.append(line);
  }
  players.forEach((player, column) => {
    if (!sheet.winners.includes(player.seat)) return;
    for (const line of table.rows) line.cells[column + 1].classList.add("winner");
  });
  const verdict = document.createElement("p");
  verdict.textContent = scoreWords(sheet, who);
  box.replaceChildren(table, verdict);
  box.hidden = false;
}

function cell(tag, text, scope) {
  const node = document.createElement(tag);
  if (scope) node.scope = scope;
  node.textContent = text;
  return node;
}

export function scoreWords(sheet, who) {
  const winners = sheet.winners.map(who).join(" and ");
  const best = Math.max(...sheet.players.map((p) => p.total));
  const tied = sheet.players.filter((p) => p.total === best);
  let words = `${sheet.winners.length === 1 ? "Winner" : "Shared win"}: ${winners}`;
  if (tied.length > 1 && tied.length > sheet.winners.length) {
    const tieBreak = tied.map((p) => `${who(p.seat)} ${p.largest_empire_points}`).join(", ");
    words += `, on the tie-break: ${tied.length} players had ${best} points; points from spaces of the largest empire decided (${tieBreak})`;
  } else if (tied.length > 1) {
    words += ` (${best} points each, and the tie-break too)`;
  }
  return `${words}.`;
}

// ``clocks``: {at, seats} as of performance.now() = at (they count down from there).
export function renderSeats(table, view, { who, seat, seatStatus, clocks, points, acting = [] }) {
  const body = table.querySelector("tbody");
  body.replaceChildren();
  const since = clocks ? (performance.now() - clocks.at) / 1000 : 0;
  for (const info of view.seats) {
    const status = seatStatus.find((s) => s.seat === info.seat) || {};
    const bot = status.bot || status.program;
    const marks = (bot ? " (bot)" : status.connected === false ? " (away)" : "") + (info.seat === seat ? " (you)" : "");
    const clock = clocks && clocks.seats.find((c) => c.seat === info.seat);
    const time = !clock
      ? "-"
      : clock.left === null
        ? `reserve ${clockWords(clock.reserve)}`
        : `${clockWords(clock.left - since)} left`;
    const row = document.createElement("tr");
    const total = view.score ? view.score.players[info.seat].total : points ? points[info.seat] : "-";
    const cells = [who(info.seat) + marks, total, info.cards, info.tiles, `${info.ships_in_supply} ships, ${info.cities_in_supply} cities`, time];
    for (const text of cells) {
      const cell = document.createElement("td");
      cell.textContent = String(text);
      row.append(cell);
    }
    row.cells[0].prepend(chip(info.seat));
    if (acting.includes(info.seat)) {
      row.className = "acting";
      row.cells[0].append(" - to act");
    }
    body.append(row);
  }
  table.querySelector("#clock-head").hidden = !clocks;
  for (const row of body.rows) row.cells[5].hidden = !clocks;
}
