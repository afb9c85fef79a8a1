// The lobby: the tables on this server, and how a table the hello creates is set up.

import { button } from "./choices.js";
import { LETTERS } from "./words.js";

const tokenKey = (table) => `tyros-token ${location.host} ${table}`;

export function heldToken(table) {
  return localStorage.getItem(tokenKey(table));
}

export function keepToken(table, token) {
  localStorage.setItem(tokenKey(table), token);
}

export function forgetToken(table) {
  localStorage.removeItem(tokenKey(table));
}

// ``sit(table, how)`` takes a seat or watches; ``replay(table)`` asks for a finished game.
export function showTables(tables, { sit, replay }) {
  const body = document.getElementById("tables").querySelector("tbody");
  body.replaceChildren();
  document.getElementById("no-tables").hidden = tables.length > 0;
  for (const table of tables) {
    const row = document.createElement("tr");
    const clock = table.clock ? `, clock ${table.clock.decision}+${table.clock.reserve} s` : "";
    const about = `${table.players} players, ${table.setup} setup${houseBots(table)}${clock}${table.hints === false ? ", no hints" : ""}`;
    for (const text of [table.name, table.seats.map((s) => s.name || "-").join(", "), `${stateWords(table)}: ${about}`]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    const cell = document.createElement("td");
    if (table.finished) {
      cell.append(button("Replay", () => replay(table.name)));
    } else if (!table.unavailable) {
      if (!table.started || heldToken(table.name)) {
        cell.append(button(table.started ? "Back to my seat" : "Join", () => sit(table.name, { spectate: false })));
      }
      cell.append(button("Watch", () => sit(table.name, { spectate: true })));
    }
    row.append(cell);
    body.append(row);
  }
}

// The server's own bots and their level: ", 2 hard bots" (their seats are programs it plays).
function houseBots(table) {
  if (!table.bot_level) return "";
  const count = table.seats.filter((s) => s.bot && s.program).length;
  return count ? `, ${count} ${table.bot_level} bot${count === 1 ? "" : "s"}` : "";
}

function stateWords(table) {
  if (table.unavailable) return "unavailable";
  if (table.finished) {
    const winners = (table.winners || []).map((s) => `${LETTERS[s]} ${table.seats[s].name || ""}`.trim());
    return winners.length ? `finished, won by ${winners.join(" and ")}` : "finished";
  }
  if (table.started) return "playing";
  return `waiting (${table.seats.filter((s) => s.name).length} of ${table.players})`;
}

// The clock's bounds on its inputs: the protocol's, which the catalogue carries.
export function boundClockInputs(clock) {
  for (const [id, [min, max]] of [["clock-decision", clock.decision], ["clock-reserve", clock.reserve]]) {
    Object.assign(document.getElementById(id), { min, max });
  }
}

// How a table the hello creates is set up (ignored by the server for a table that exists).
export function newTableOptions() {
  const $ = (id) => document.getElementById(id);
  const options = { players: Number($("players").value), setup: $("setup").value, hints: $("hints").checked };
  const bots = Math.min(Number($("bots").value), options.players - 1);
  if (bots > 0) {
    options.bots = bots; // the server's own bots take the other seats at once
    options.bot_level = $("bot-level").value;
  }
  const decision = Number($("clock-decision").value);
  if (decision > 0) options.clock = { decision, reserve: Number($("clock-reserve").value) || 0 };
  const trade = Number($("trade-seconds").value);
  if (trade > 0) options.trade_seconds = trade;
  return options;
}
