// The browser's page: the tables on this server, and a table watched as a spectator
// (the board drawn as SVG from the server's own board.json, the seats, the log).
// Plain ES module, no build step; the protocol is the one the terminal client speaks.

const PROTOCOL = 1;
const COLOURS = ["orange", "yellow", "green", "violet"];
const LETTERS = "ABCD";
const CELL = { w: 100, h: 72 };
const SVG = "http://www.w3.org/2000/svg";

const $ = (id) => document.getElementById(id);
const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`;

let board = null; // board.json: the grid, names, links, coasts
let socket = null;
let nextId = 1;
let watching = null; // the table watched, if any
let names = [];
let retry = 500;

function say(text) {
  $("status").textContent = text;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ ...message, id: nextId++ }));
  }
}

function connect() {
  socket = new WebSocket(url);
  socket.addEventListener("open", () => {
    retry = 500;
    say("connected");
    if (watching) {
      watch(watching);
    } else {
      send({ type: "list_tables" });
    }
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    say(`connection lost: trying again in ${Math.round(retry / 1000) || 1} s`);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function receive(message) {
  switch (message.type) {
    case "tables":
      showTables(message.tables);
      break;
    case "table":
      names = message.table.seats.map((s) => s.name);
      break;
    case "welcome":
      say(`watching table ${message.table}`);
      break;
    case "update":
      showGame(message);
      break;
    case "error":
      say(message.message || message.code);
      if (watching && message.re !== null) {
        watching = null;
        $("game").hidden = true;
        $("lobby").hidden = false;
        send({ type: "list_tables" });
      }
      break;
    default:
      break;
  }
}

// The tables ------------------------------------------------------------------------

function showTables(tables) {
  const body = $("tables").querySelector("tbody");
  body.replaceChildren();
  $("no-tables").hidden = tables.length > 0;
  for (const table of tables) {
    const row = document.createElement("tr");
    const seated = table.seats.filter((s) => s.name).length;
    const state = table.unavailable
      ? "unavailable"
      : table.finished
        ? "finished"
        : table.started
          ? "playing"
          : `waiting (${seated} of ${table.players})`;
    for (const text of [table.name, table.seats.map((s) => s.name || "-").join(", "), state]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    const cell = document.createElement("td");
    if (!table.unavailable && !table.finished) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = "Watch";
      button.addEventListener("click", () => watch(table.name));
      cell.append(button);
    }
    row.append(cell);
    body.append(row);
  }
}

function watch(table) {
  watching = table;
  const name = ($("name").value || "Guest").trim() || "Guest";
  localStorage.setItem("tyros-name", name);
  $("lobby").hidden = true;
  $("game").hidden = false;
  $("game-title").textContent = `Table ${table}`;
  $("log").replaceChildren();
  send({ type: "hello", protocol: PROTOCOL, name, table, spectate: true });
}

// The game ----------------------------------------------------------------------------

function showGame(update) {
  const view = update.view;
  $("where").textContent = `Round ${view.round}, ${phaseWords(view)}`;
  drawBoard(view);
  showSeats(view);
  $("empires").textContent =
    "Empires: " + view.empires.map((e) => `${e.colour} ${e.size} (#${e.rank})`).join(", ");
  const log = $("log");
  for (const event of update.events || []) {
    const item = document.createElement("li");
    item.textContent = describe(event);
    if (event.type === "round_start") item.className = "round";
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

function who(seat) {
  return `${LETTERS[seat]} ${names[seat] || ""}`.trim();
}

function phaseWords(view) {
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

function showSeats(view) {
  const body = $("seats").querySelector("tbody");
  body.replaceChildren();
  for (const seat of view.seats) {
    const row = document.createElement("tr");
    const cells = [
      who(seat.seat),
      seat.cards,
      seat.tiles,
      `${seat.ships_in_supply}/${seat.cities_in_supply}`,
    ];
    for (const text of cells) {
      const cell = document.createElement("td");
      cell.textContent = String(text);
      row.append(cell);
    }
    body.append(row);
  }
}

function describe(event) {
  switch (event.type) {
    case "round_start":
      return `Round ${event.round}`;
    case "round_end":
      return `round ${event.round} ends`;
    case "action": {
      const action = event.action;
      const parts = [action.kind.replace("_", " ")];
      for (const key of ["tile", "space", "from", "to", "with", "card"]) {
        if (action[key] !== undefined) parts.push(`${key} ${action[key]}`);
      }
      for (const key of ["give", "get", "pay", "cards"]) {
        if (action[key] && action[key].length) parts.push(`${key} ${action[key].join(", ")}`);
      }
      return `${who(event.seat)}: ${parts.join(" ")}`;
    }
    case "cards_drawn":
      return `${who(event.seat)} draws ${event.count} card${event.count === 1 ? "" : "s"}`;
    case "game_over":
      return "the game is over";
    default:
      return event.type.replaceAll("_", " ");
  }
}

// The board, as SVG -------------------------------------------------------------------

function element(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function positions() {
  const out = {};
  board.grid.forEach((row, r) => row.forEach((label, c) => (out[label] = [r, c])));
  return out;
}

function drawBoard(view) {
  const at = positions();
  const rows = board.grid.length;
  const cols = board.grid[0].length;
  const svg = element("svg", {
    viewBox: `0 0 ${cols * CELL.w} ${rows * CELL.h}`,
    role: "img",
    "aria-label": boardWords(view),
  });
  const ships = {};
  for (const stack of view.ships || []) {
    const space = stack.port.replace(/[WE]$/, "");
    (ships[space] ||= []).push(stack);
  }
  for (const [label, [r, c]] of Object.entries(at)) {
    const x = c * CELL.w + 3;
    const y = r * CELL.h + 3;
    const w = CELL.w - 6;
    const h = CELL.h - 6;
    if (label === board.serpent || label === board.desert) {
      const serpent = label === board.serpent;
      svg.append(element("rect", { x, y, width: w, height: h, rx: 6, class: serpent ? "serpent" : "blocked" }));
      svg.append(element("text", { x: x + 8, y: y + h / 2 + 4, class: "name" }, serpent ? "sea serpent" : "desert"));
      continue;
    }
    const colour = (view.chips || {})[label];
    svg.append(element("rect", { x, y, width: w, height: h, rx: 6, class: `cell ${colour || ""}` }));
    svg.append(element("text", { x: x + 5, y: y + 15, class: "label" }, label));
    svg.append(element("text", { x: x + 28, y: y + 14, class: "name" }, board.names[label] || ""));
    if (colour) {
      svg.append(element("text", { x: x + w - 14, y: y + 15, class: "tag" }, colour[0].toUpperCase()));
    }
    const owner = (view.cities || {})[label];
    if (owner !== undefined) {
      svg.append(element("text", { x: x + 5, y: y + 36, class: "city" }, `city ${LETTERS[owner]}`));
    }
    const here = (ships[label] || []).map((s) => {
      const coast = /[WE]$/.test(s.port) ? `${s.port.slice(-1)}:` : "";
      return coast + LETTERS[s.seat].repeat(s.count);
    });
    if (here.length) {
      svg.append(element("text", { x: x + 5, y: y + h - 8, class: "ships" }, here.join(" ")));
    }
  }
  for (const link of board.links) {
    const [a, b] = link.split("-").map((p) => p.replace(/[WE]$/, ""));
    if (!(a in at) || !(b in at)) continue;
    const [ra, ca] = at[a];
    const [rb, cb] = at[b];
    if (ra === rb && Math.abs(ca - cb) === 1) {
      const x = Math.max(ca, cb) * CELL.w;
      const y = ra * CELL.h + CELL.h / 2;
      svg.append(element("line", { x1: x - 6, y1: y, x2: x + 6, y2: y, class: "link" }));
    } else if (ca === cb && Math.abs(ra - rb) === 1) {
      const x = ca * CELL.w + CELL.w / 2;
      const y = Math.max(ra, rb) * CELL.h;
      svg.append(element("line", { x1: x, y1: y - 6, x2: x, y2: y + 6, class: "link" }));
    }
  }
  $("board").replaceChildren(svg);
}

function boardWords(view) {
  const cities = Object.entries(view.cities || {}).map(([s, o]) => `a city of ${LETTERS[o]} in ${s}`);
  const ships = (view.ships || []).map((s) => `${s.count} ship${s.count === 1 ? "" : "s"} of ${LETTERS[s.seat]} in ${s.port}`);
  return ["The board.", ...cities, ...ships].join(" ");
}

async function start() {
  $("name").value = localStorage.getItem("tyros-name") || "";
  $("leave").addEventListener("click", () => {
    watching = null;
    socket.close();
    $("game").hidden = true;
    $("lobby").hidden = false;
  });
  const answer = await fetch("/board.json");
  board = await answer.json();
  connect();
}

start();
