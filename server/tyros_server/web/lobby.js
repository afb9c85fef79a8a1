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

let listed = []; // the names of the tables last shown

// A name for the next game after ``name``'s, none of the tables listed: "friday" ->
// "friday-2" -> "friday-3" (within the 32 characters a name may have).
export function nextTableName(name) {
  const [, stem, number] = name.match(/^(.*?)(?:-(\d+))?$/);
  for (let n = Number(number || 1) + 1; ; n++) {
    const suffix = `-${n}`;
    const next = stem.slice(0, 32 - suffix.length) + suffix;
    if (next !== name && !listed.includes(next)) return next;
  }
}

// ``sit(table, how)`` takes a seat or watches; ``replay(table)`` asks for a finished game.
export function showTables(tables, { sit, replay }) {
  listed = tables.map((table) => table.name);
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

// The new-table form from the catalogue: the bounds of the clock's inputs and of the time
// to answer an offer (the protocol's), and the levels of the server's own bots with their words.
export function fillNewTableForm(data) {
  const bounds = [["clock-decision", data.clock.decision], ["clock-reserve", data.clock.reserve], ["trade-seconds", data.trade_seconds]];
  for (const [id, [min, max]] of bounds) Object.assign(document.getElementById(id), { min, max });
  const levels = document.getElementById("bot-level");
  for (const [level, words] of data.levels) {
    const option = document.createElement("option");
    Object.assign(option, { value: level, textContent: `${level}: ${words}` });
    levels.append(option);
  }
  levels.addEventListener("change", () => (levels.dataset.chosen = "yes"));
}

// The level the server's bots play unless asked otherwise, offered first (until one is chosen).
export function offerServersLevel(level) {
  const levels = document.getElementById("bot-level");
  if (!levels.dataset.chosen && level) levels.value = level;
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
