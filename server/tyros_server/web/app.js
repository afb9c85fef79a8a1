// The browser's page: the tables on this server; a seat played, or a table watched (the
// board drawn as SVG from the server's own board.json, the seats, the log, what you may
// do: the server's legal actions, as buttons, a space's own when it is clicked).
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
let watching = null; // the table watched or played, if any
let seating = null; // {name, players, spectate} of the hello that took us there
let seat = null; // our seat (null: a spectator)
let names = [];
let retry = 500;
let lastEvent = -1; // the version of the newest event shown (repeats are skipped)
let prompt = null; // the decision asked of us (legal actions), if any
let sent = false; // an action for this prompt is on its way: nothing more is sent
let picked = null; // the space clicked: its actions are shown
let lastView = null;
let seatStatus = []; // who is connected, who is a bot (the table's news)

const tokenKey = (table) => `tyros-token ${location.host} ${table}`;
const lastKey = `tyros-last ${location.host}`; // the table this browser last sat at

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
    const last = localStorage.getItem(lastKey);
    if (watching) {
      sit(watching, seating);
    } else if (last && localStorage.getItem(tokenKey(last))) {
      sit(last, { spectate: false }); // a reload: back to the seat
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
      seatStatus = message.table.seats;
      if (lastView) showSeats(lastView);
      break;
    case "chat":
      heard(message);
      break;
    case "welcome":
      seat = message.seat;
      if (message.token) localStorage.setItem(tokenKey(message.table), message.token);
      if (seat !== null) localStorage.setItem(lastKey, message.table);
      say(seat === null ? `watching table ${message.table}` : `playing at table ${message.table} as ${LETTERS[seat]}`);
      break;
    case "update":
      showGame(message);
      break;
    case "accepted":
      break;
    case "error":
      refused(message);
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
      if (!table.started || localStorage.getItem(tokenKey(table.name))) {
        cell.append(button(table.started ? "Back to my seat" : "Join", () => join(table.name, table.players)));
      }
      cell.append(button("Watch", () => sit(table.name, { spectate: true })));
    }
    row.append(cell);
    body.append(row);
  }
}

function button(text, action) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = text;
  node.addEventListener("click", action);
  return node;
}

function join(table, players) {
  sit(table, { spectate: false, players });
}

// Take a seat (back, with the token this browser keeps for the table) or watch.
function sit(table, how) {
  watching = table;
  seating = how;
  const name = ($("name").value || "Guest").trim() || "Guest";
  localStorage.setItem("tyros-name", name);
  $("lobby").hidden = true;
  $("game").hidden = false;
  $("game-title").textContent = `Table ${table}`;
  $("log").replaceChildren();
  lastEvent = -1;
  const token = how.spectate ? null : localStorage.getItem(tokenKey(table));
  if (token) {
    send({ type: "resume", protocol: PROTOCOL, token });
  } else {
    const hello = { type: "hello", protocol: PROTOCOL, name, table, spectate: !!how.spectate };
    if (how.players) hello.players = Number(how.players);
    send(hello);
  }
}

function refused(message) {
  const words = message.message || message.code;
  if (message.code === "bad_token" && watching) {
    localStorage.removeItem(tokenKey(watching)); // a seat this browser no longer holds
    localStorage.removeItem(lastKey);
    seating = { ...seating, spectate: false };
    const name = ($("name").value || "Guest").trim() || "Guest";
    send({ type: "hello", protocol: PROTOCOL, name, table: watching, spectate: false });
    return;
  }
  if (seat === null && lastView === null && watching) {
    // The hello was refused: back to the tables, saying why.
    watching = null;
    $("game").hidden = true;
    $("lobby").hidden = false;
    say(words);
    send({ type: "list_tables" });
    return;
  }
  sent = false;
  const alert = $("refusal");
  alert.textContent = `Refused: ${words}`;
  alert.hidden = false;
  if (lastView) showRequest(lastView);
}

// The game ----------------------------------------------------------------------------

function showGame(update) {
  const view = update.view;
  lastView = view;
  prompt = update.prompt || null;
  sent = false;
  const turn = !!prompt && view.phase === "actions" && prompt.legal.some((a) => a.kind === "pass");
  $("offer").hidden = !(turn || countering());
  const mode = countering() ? "Counter: you give" : "Offer: give";
  if ($("offer-what").textContent !== mode) {
    // Words typed for an offer of one's own are never sent as a counter, nor the reverse.
    $("give").value = "";
    $("get").value = "";
  }
  $("offer-what").textContent = mode;
  $("offer-send").textContent = countering() ? "Counter" : "Offer to everyone";
  $("refusal").hidden = true;
  $("where").textContent = `Round ${view.round}, ${phaseWords(view)}`;
  drawBoard(view);
  showSeats(view);
  showHand(view);
  showRequest(view);
  showScore(view);
  $("empires").textContent =
    "Empires: " + view.empires.map((e) => `${e.colour} ${e.size} (#${e.rank})`).join(", ");
  const log = $("log");
  for (const event of update.events || []) {
    if (typeof event.version === "number") {
      if (event.version <= lastEvent) continue; // shown already (a resent update)
      lastEvent = event.version;
    }
    const item = document.createElement("li");
    item.textContent = describe(event);
    if (event.type === "round_start") item.className = "round";
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

function heard(line) {
  const item = document.createElement("li");
  item.className = "chat";
  const speaker = line.seat === null ? `(spectator) ${line.name}` : `${LETTERS[line.seat]} ${line.name}`;
  item.textContent = `${speaker} says: ${line.text}`;
  $("log").append(item);
  $("log").scrollTop = $("log").scrollHeight;
}

function offer(event) {
  event.preventDefault();
  const cards = (text) => text.split(/[\s,]+/).filter(Boolean).map((c) => c.toLowerCase());
  const give = cards($("give").value);
  const get = cards($("get").value);
  if (countering()) {
    // A counter is written from the proposer's side: they would give what you ask for.
    act({ kind: "counter", give: get, get: give });
    return;
  }
  const others = [...Array(names.length).keys()].filter((s) => s !== seat);
  act({ kind: "propose", to: others, give, get });
}

function countering() {
  return !!prompt && prompt.legal.some((a) => a.kind === "answer");
}

function who(seat) {
  return `${LETTERS[seat]} ${names[seat] || ""}`.trim();
}

function showHand(view) {
  const hand = $("hand");
  if (!view.hand) {
    hand.hidden = true;
    return;
  }
  const counts = ["orange", "yellow", "green", "violet", "wild"].map(
    (card) => `${card} ${view.hand.filter((c) => c === card).length}`,
  );
  hand.textContent = `Your hand: ${counts.join(", ")}. Your tiles: ${(view.tiles || []).join(", ") || "none"}.`;
  hand.hidden = false;
}

// What you may do: the prompt's legal actions, grouped by kind; a clicked space shows
// only its own.
function showRequest(view) {
  const box = $("request");
  const choices = $("choices");
  choices.replaceChildren();
  if (!prompt || !prompt.legal || !prompt.legal.length) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  let legal = prompt.legal;
  const filter = $("filter");
  if (picked) {
    const here = legal.filter((a) => touches(a, picked));
    filter.hidden = false;
    filter.replaceChildren(`Space ${picked}: ${here.length ? "" : "nothing to do there now. "}`, button("Show everything", () => pick(null)));
    if (here.length) legal = here;
  } else {
    filter.hidden = true;
  }
  $("request-title").textContent = requestTitle(view);
  const groups = new Map();
  for (const action of legal) {
    if (!groups.has(action.kind)) groups.set(action.kind, []);
    groups.get(action.kind).push(action);
  }
  for (const [kind, actions] of groups) {
    const head = document.createElement("h4");
    head.textContent = `${kind.replace("_", " ")} (${actions.length})`;
    choices.append(head);
    for (const action of actions.slice(0, 60)) {
      const choice = button(actionWords(action), () => act(action));
      choice.disabled = sent;
      choices.append(choice);
    }
    if (actions.length > 60) {
      const more = document.createElement("p");
      more.textContent = `... and ${actions.length - 60} more: click a space to see its own`;
      choices.append(more);
    }
  }
}

function requestTitle(view) {
  if (view.trade && view.trade.proposer !== seat) {
    const t = view.trade;
    return `${who(t.proposer)} offers ${t.give.join(", ")} for your ${t.get.join(", ")}`;
  }
  return view.phase === "keep" ? "End of round: the cards you keep" : "Your decision";
}

function touches(action, space) {
  return [action.space, action.from, action.to, action.tile]
    .filter((s) => s !== undefined)
    .some((s) => String(s).replace(/[WE]$/, "") === space);
}

function act(action) {
  if (sent || !prompt) return; // never an action twice for one decision
  sent = true;
  send({ type: "action", version: prompt.version, action });
  for (const choice of $("choices").querySelectorAll("button")) choice.disabled = true;
  say("sent: " + actionWords(action));
}

function pick(space) {
  picked = space;
  if (lastView) {
    drawBoard(lastView);
    showRequest(lastView);
  }
}

function showScore(view) {
  const box = $("score");
  if (!view.score) {
    box.hidden = true;
    return;
  }
  localStorage.removeItem(lastKey);
  const lines = ["Final score"];
  for (const player of view.score.players) {
    const bonus = player.majority_points + player.all_four_bonus;
    lines.push(`${who(player.seat).padEnd(12)} ${String(player.total).padStart(3)} points (bonuses ${bonus})`);
  }
  const winners = view.score.winners.map(who).join(" and ");
  lines.push(`${view.score.winners.length === 1 ? "Winner" : "Shared win"}: ${winners}`);
  box.textContent = lines.join("\n");
  box.hidden = false;
}

function actionWords(action) {
  const parts = [action.kind.replace("_", " ")];
  if (action.kind === "answer") return action.accept ? "accept" : "decline";
  if (action.kind === "complete") return `complete with ${who(action.with)}`;
  if (action.kind === "propose") {
    const to = action.to && action.to.length ? ` to ${action.to.map(who).join(", ")}` : "";
    return `offer ${action.give.join(", ")} for ${action.get.join(", ")}${to}`;
  }
  for (const key of ["tile", "colour", "space", "from", "to", "card"]) {
    if (action[key] !== undefined) parts.push(key === "to" ? `to ${action[key]}` : String(action[key]));
  }
  for (const key of ["give", "get", "pay", "cards"]) {
    if (action[key] && action[key].length) parts.push(`${key} ${action[key].join(", ")}`);
  }
  return parts.join(" ");
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
  for (const info of view.seats) {
    const row = document.createElement("tr");
    const status = seatStatus.find((s) => s.seat === info.seat) || {};
    const bot = status.bot || status.program;
    const marks = (bot ? " (bot)" : status.connected === false ? " (away)" : "") + (info.seat === seat ? " (you)" : "");
    const cells = [who(info.seat) + marks, info.cards, info.tiles, `${info.ships_in_supply}/${info.cities_in_supply}`];
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
    case "action":
      return `${who(event.seat)}: ${actionWords(event.action)}`;
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
    const cell = element("rect", {
      x, y, width: w, height: h, rx: 6,
      class: `cell ${colour || ""}${picked === label ? " picked" : ""}`,
      tabindex: 0,
      "aria-label": `space ${label} ${board.names[label] || ""}`,
    });
    cell.addEventListener("click", () => pick(label));
    cell.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") pick(label);
    });
    svg.append(cell);
    svg.append(element("text", { x: x + 5, y: y + 15, class: "label" }, label));
    const name = board.names[label] || "";
    const room = colour ? 9 : 11; // (the empire's letter takes the right corner)
    const short = name.length > room ? name.slice(0, room - 1) + "." : name;
    svg.append(element("text", { x: x + 28, y: y + 14, class: "name" }, short));
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
  $("offer").addEventListener("submit", offer);
  $("talk").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("say").value.trim();
    if (text) send({ type: "chat", text });
    $("say").value = "";
  });
  $("join").addEventListener("submit", (event) => {
    event.preventDefault();
    join($("table-name").value.trim(), $("players").value);
  });
  $("leave").addEventListener("click", () => {
    watching = null;
    localStorage.removeItem(lastKey);
    socket.close();
    $("game").hidden = true;
    $("lobby").hidden = false;
  });
  // The list of tables stays fresh while it is on screen (tables start and end).
  setInterval(() => {
    if (!watching && !document.hidden) send({ type: "list_tables" });
  }, 3000);
  const answer = await fetch("/board.json");
  board = await answer.json();
  connect();
}

start();
