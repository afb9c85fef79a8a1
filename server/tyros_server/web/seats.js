// What every seat has, as a table (points if the game ended now, cards, tiles, supplies,
// clocks, bot and away marks), your own hand, and the final score sheet.

import { clockWords } from "./words.js";

export function renderHand(node, view) {
  if (!view.hand) {
    node.hidden = true;
    return;
  }
  const counts = ["orange", "yellow", "green", "violet", "wild"].map(
    (card) => `${card} ${view.hand.filter((c) => c === card).length}`,
  );
  node.textContent = `Your hand: ${counts.join(", ")}. Your tiles: ${(view.tiles || []).join(", ") || "none"}.`;
  node.hidden = false;
}

export function renderScore(box, view, who) {
  if (!view.score) {
    box.hidden = true;
    return;
  }
  const lines = ["Final score"];
  for (const player of view.score.players) {
    const empires = player.empires.filter((e) => e.points).map((e) => `${e.colour} ${e.points}`).join(", ") || "none";
    const majority = player.majority_bonus.length ? `${player.majority_points} (most cities in ${player.majority_bonus.join(", ")})` : "0";
    const allFour = player.all_four_bonus ? `, all four empires ${player.all_four_bonus}` : "";
    lines.push(`${who(player.seat)}: ${player.total} points`);
    lines.push(`    empires: ${empires}; majority bonus ${majority}${allFour}`);
  }
  const winners = view.score.winners.map(who).join(" and ");
  lines.push(`${view.score.winners.length === 1 ? "Winner" : "Shared win"}: ${winners}`);
  box.textContent = lines.join("\n");
  box.hidden = false;
}

// ``clocks``: {at, seats} as of performance.now() = at (they count down from there).
export function renderSeats(table, view, { who, seat, seatStatus, clocks, points }) {
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
    const cells = [who(info.seat) + marks, total, info.cards, info.tiles, `${info.ships_in_supply}/${info.cities_in_supply}`, time];
    for (const text of cells) {
      const cell = document.createElement("td");
      cell.textContent = String(text);
      row.append(cell);
    }
    body.append(row);
  }
  table.querySelector("#clock-head").hidden = !clocks;
  for (const row of body.rows) row.cells[5].hidden = !clocks;
}
