// The browser's page: the tables on this server; a seat played, a table watched, or a
// finished game replayed. What you may do comes from the server's legal actions (as
// buttons, a space's own when it is clicked, a payment chooser where several payments do
// the same thing); hints come from the server's bot. Plain ES modules, no build step; the
// protocol is the one the terminal client speaks (docs/protocol.md).

import { actionSpaces, boardWords, drawBoard } from "./board.js";
import { button, renderChoices } from "./choices.js";
import { fillNewTableForm, forgetToken, heldToken, keepToken, newTableOptions, nextTableName, offerServersLevel, showTables } from "./lobby.js";
import { forgetOffer, offerOf, showOfferForm } from "./offer.js";
import { bindReplayControls, recordViews } from "./replay.js";
import { renderHand, renderScore, renderSeats } from "./seats.js";
import { LETTERS, actorSide, cardsText, completingWords, describeEvent, describeYours, phaseWords, refusalWords, setCatalogue, whoOf } from "./words.js";
import { Recent, actingSeats, chime, setSoundWanted, showTurn, soundWanted } from "./turn.js";
import { acceptWhy, expandWhy, requestFirst, spaceWhy, turnWhy } from "./why.js";

const PROTOCOL = 1;
const $ = (id) => document.getElementById(id);
const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`;

let board = null; // board.json: the grid, names, links, coasts
const boardLoaded = fetch("/board.json")
  .then((answer) => answer.json())
  .then((data) => (board = data))
  .then(() => fetch("/words.json"))
  .then((answer) => answer.json())
  .then((data) => {
    setCatalogue(data);
    fillNewTableForm(data);
  })
  .catch(() => say("the board's data could not be loaded: reload the page"));
let socket = null;
let nextId = 1;
let watching = null; // the table watched or played, if any
let seating = null; // {spectate, players, options} of the hello that took us there
let seat = null; // our seat (null: a spectator)
let names = [];
let retry = 500;
let lastEvent = -1; // the version of the newest event shown (repeats are skipped)
let lastChat = 0; // the seq of the newest line of talk shown
let prompt = null; // the decision asked of us (legal actions), if any
let sent = null; // the id of the action on its way for this decision: nothing more is sent
let hinting = null; // the id of the hint asked for this decision (one at a time)
let picked = null; // the space clicked: its actions are shown
let lastView = null;
let seatStatus = []; // who is connected, who is a bot (the table's news)
let hintsAllowed = true;
let advice = null; // {version, action}: the server's bot's choice for this decision
let clocks = null; // {at, seats}: the seats' clocks, as of performance.now() = at
let replay = null; // {views, points, events, step}: a finished game replayed
let points = null; // each seat's points if the game ended now (the server's count)
let statusLine = ""; // where we are, said again once a "sent: ..." has had its answer
const recent = new Recent(); // what each other seat did last, drawn on the board
let wasYours = false; // a decision waited for us at the last update (the chime rings once)
let promptAt = 0; // performance.now() when the prompt came (its deadline counts from there)

const lastKey = `tyros-last ${location.host}`; // the table this browser last sat at
const who = (s) => whoOf(s, names); // (the catalogue's way of naming a seat)

const playerName = () => $("name").value.trim() || "Guest";

// The table the page's address names (``/#TABLE``), if any.
function linkedTable() {
  const name = decodeURIComponent(location.hash.slice(1)).trim();
  return name || null;
}

function say(text) {
  $("status").textContent = text;
}

function send(message) {
  const id = nextId++;
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ ...message, id }));
  return id;
}

function connect() {
  socket = new WebSocket(url);
  socket.addEventListener("open", () => {
    retry = 500;
    if (!replay) say("connected");
    const last = localStorage.getItem(lastKey);
    const linked = linkedTable();
    if (watching && !replay) {
      sit(watching, seating);
    } else if (!replay && linked) {
      sit(linked, { spectate: !heldToken(linked) }); // a link: the seat held there, else watch
    } else if (!replay && last && heldToken(last)) {
      sit(last, { spectate: false }); // a reload: back to the seat
    } else {
      send({ type: "list_tables" });
    }
  });
  // (messages wait for the board's data, fetched meanwhile; they keep their order)
  socket.addEventListener("message", (event) => boardLoaded.then(() => receive(JSON.parse(event.data))));
  socket.addEventListener("close", () => {
    // (a refusal the server closes after, such as too many tables, stays what is said)
    if ($("lobby-refusal").hidden) say(`connection lost: trying again in ${Math.round(retry / 1000) || 1} s`);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function receive(message) {
  switch (message.type) {
    case "tables":
      offerServersLevel(message.bot_level);
      showTables(message.tables, { sit, replay: askReplay });
      break;
    case "table":
      names = message.table.seats.map((s) => s.name);
      seatStatus = message.table.seats;
      hintsAllowed = message.table.hints !== false;
      if (!message.table.started && !replay) showWaiting(message.table);
      if (lastView) {
        showSeats(lastView);
        showRequest(lastView);
      }
      break;
    case "chat":
      heard(message);
      break;
    case "welcome":
      seat = message.seat;
      if (message.token) keepToken(message.table, message.token);
      if (seat !== null) localStorage.setItem(lastKey, message.table);
      history.replaceState(null, "", `#${encodeURIComponent(message.table)}`); // (a link to share)
      statusLine = seat === null ? `watching table ${message.table}` : `playing at table ${message.table} as ${LETTERS[seat]}`;
      say(statusLine);
      break;
    case "update":
      showGame(message);
      break;
    case "advice":
      advised(message);
      break;
    case "record":
      startReplay(message);
      break;
    case "error":
      refused(message);
      break;
    default:
      break;
  }
}

function showScreen(which) {
  $("lobby").hidden = which !== "lobby";
  $("game").hidden = which === "lobby";
  $("talk").hidden = which !== "game";
  $("offer").hidden = true; // (until an update says whether you may offer)
  $("replay-controls").hidden = which !== "replay";
}

// Take a seat (back, with the token this browser keeps for the table) or watch.
function sit(table, how) {
  resetGame();
  $("lobby-refusal").hidden = true;
  $("lobby-note").hidden = true;
  watching = table;
  seating = how;
  const name = playerName();
  localStorage.setItem("tyros-name", name);
  showScreen("game");
  $("game-title").textContent = `Table ${table}`;
  $("log").replaceChildren();
  lastEvent = -1;
  lastChat = 0;
  const token = how.spectate ? null : heldToken(table);
  if (token) {
    send({ type: "resume", protocol: PROTOCOL, token });
  } else {
    send({ type: "hello", protocol: PROTOCOL, name, table, spectate: !!how.spectate, ...(how.options || {}) });
  }
}

// Nothing of a table left once we leave it (its board, choices, seats, marks).
function resetGame() {
  [watching, replay, seat, lastView, prompt, advice, picked, points, clocks, sent, hinting] =
    [null, null, null, null, null, null, null, null, null, null, null];
  forgetOffer();
  names = [];
  seatStatus = [];
  recent.clear();
  wasYours = false;
  lastEvent = -1;
  lastChat = 0;
  for (const id of ["board", "choices", "log"]) $(id).replaceChildren();
  for (const id of ["hand", "request", "offer", "score", "refusal", "legend"]) $(id).hidden = true;
  $("seats").querySelector("tbody").replaceChildren();
  $("where").textContent = "";
  $("empires").textContent = "";
}

// A phone's board zoomed (panned in its own frame) or fitted to the screen.
function zoomBoard(zoomed) {
  $("board").classList.toggle("zoomed", zoomed);
  $("zoom").setAttribute("aria-pressed", String(zoomed));
  $("zoom").textContent = zoomed ? "Fit the board" : "Zoom the board";
}

function backToTables(words) {
  resetGame();
  zoomBoard(false); // (the next table opens with the whole board in sight; a reconnection keeps it)
  document.title = "Tyros";
  history.replaceState(null, "", location.pathname);
  showScreen("lobby");
  if (words) say(words);
  send({ type: "list_tables" });
}

function refused(message) {
  const words = refusalWords(message);
  if (replay !== null && replay.views === null) {
    backToTables(`no replay: ${words}`);
    return;
  }
  if (message.code === "bad_token" && watching) {
    forgetToken(watching); // a seat this browser no longer holds
    localStorage.removeItem(lastKey);
    seating = { ...seating, spectate: false };
    send({ type: "hello", protocol: PROTOCOL, name: playerName(), table: watching, spectate: false });
    return;
  }
  if (seat === null && lastView === null && watching) {
    backToTables(""); // the hello was refused: back to the tables, saying why beside the form
    $("lobby-refusal").textContent = `Refused: ${words}`;
    $("lobby-refusal").hidden = false;
    return;
  }
  if (message.re === hinting) hinting = null;
  if (message.re !== sent) {
    showRefusal(words); // (talk said too fast, a hint asked twice: the decision is untouched)
    return;
  }
  sent = null;
  say(statusLine); // (not "sent: ..." any more)
  showRefusal(`Refused: ${words}`);
  if (lastView) showRequest(lastView);
}

function showRefusal(text) {
  const alert = $("refusal");
  alert.textContent = text;
  alert.hidden = false;
  alert.scrollIntoView({ block: "nearest" });
}

// The game ----------------------------------------------------------------------------

function showGame(update) {
  const view = update.view;
  const fresh = prompt === null || !update.prompt || update.prompt.id !== prompt.id;
  if (fresh) {
    advice = null;
    picked = null; // a space clicked for one decision does not filter the next
    hinting = null;
    if (sent !== null) say(statusLine);
    sent = null; // (an update about the same decision keeps what was sent for it)
  }
  prompt = update.prompt || null;
  promptAt = performance.now();
  clocks = update.clocks ? { at: performance.now(), seats: update.clocks } : null;
  points = update.points || null;
  // (a reason stays until the next click, or until a new decision of yours replaces it)
  if (fresh && prompt && prompt.legal.length) $("refusal").hidden = true;
  const events = (update.events || []).filter((e) => typeof e.version !== "number" || e.version > lastEvent);
  recent.note(events, seat);
  showView(view);
  showOfferForm({ prompt, view, names, seat, who });
  showHand(view);
  showRequest(view);
  appendEvents(events);
  const yours = !!prompt && prompt.legal.length > 0;
  if (yours && !wasYours && document.hidden && soundWanted()) chime();
  wasYours = yours;
}

// What a player and a spectator see alike, in play or in a replay.
function showView(view) {
  lastView = view;
  $("where").textContent = `Round ${view.round}${view.last_round ? " (the last)" : ""}, ${phaseWords(view, who)}`;
  showTurn($("turn"), { view, seat, yours: !replay && !!prompt && prompt.legal.length > 0, who, table: watching || (replay && replay.table), trade: !!view.trade && view.trade.proposer !== seat });
  redraw();
  $("board").setAttribute("aria-label", boardWords(view));
  showSeats(view);
  showScore(view);
  $("legend").hidden = false;
  for (const part of $("legend").querySelectorAll(".seat-only")) part.hidden = seat === null; // (a watcher has no pieces of its own)
  $("sound-box").hidden = seat === null; // (a watcher has no turn to be told of)
  $("empires").textContent =
    "Empires: " + view.empires.map((e) => `${e.colour} (${e.colour[0].toUpperCase()}) ${e.size}, #${e.rank}`).join("; ");
}

function appendEvents(events) {
  const log = $("log");
  const shown = lastEvent; // (one decision's events share its version)
  for (const event of events) {
    if (typeof event.version === "number") {
      if (event.version <= shown) continue; // shown already (a resent update)
      lastEvent = Math.max(lastEvent, event.version);
    }
    const line = describeEvent(event, names, seat);
    if (line === null) continue;
    const item = document.createElement("li");
    item.textContent = line;
    if (event.type === "round_start") item.className = "round";
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

function showWaiting(table) {
  const seated = table.seats.filter((s) => s.name);
  const missing = table.players - seated.length;
  $("where").textContent =
    `Waiting for ${missing} more player${missing === 1 ? "" : "s"} (${table.players} in all; seated: ` +
    `${seated.map((s) => who(s.seat)).join(", ") || "nobody"}). Friends join this table by its name ` +
    `(bots are chosen when a table is created, or seated with tyros-bot HOST:PORT --table ${table.name}).`;
}

function heard(line) {
  if (line.seq <= lastChat) return; // repeated after a welcome
  lastChat = line.seq;
  const item = document.createElement("li");
  item.className = "chat";
  const speaker = line.seat === null ? `(spectator) ${line.name}` : `${LETTERS[line.seat]} ${line.name}`;
  item.textContent = `${speaker} says: ${line.text}`;
  $("log").append(item);
  $("log").scrollTop = $("log").scrollHeight;
}

function offer(event) {
  event.preventDefault();
  const { action, refusal } = offerOf(prompt);
  if (refusal) showRefusal(refusal);
  else act(action);
}

// What you may do: the prompt's legal actions, grouped by kind; a clicked space shows
// only its own; one thing done by several payments is one choice with a payment chooser.
function showRequest(view) {
  const box = $("request");
  $("choices").replaceChildren();
  if (!prompt || !prompt.legal || !prompt.legal.length || replay) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  let legal = prompt.legal;
  const filter = $("filter");
  if (picked) {
    const here = legal.filter((a) => touches(a, picked));
    filter.hidden = false;
    const found = here.length === 1 ? "1 choice here, below. " : `${here.length} choices here, below. `;
    filter.replaceChildren(`Space ${picked} ${board.names[picked] || ""}: ${here.length ? found : `${nothingThere(picked)}. `}`, button("Show everything", () => pick(null)));
    if (here.length) legal = here;
  } else {
    filter.hidden = true;
  }
  $("request-title").textContent = requestTitle(view);
  $("hint").hidden = !hintsAllowed || seat === null;
  $("hint").disabled = sent !== null || hinting !== null || (advice !== null && advice.version === prompt.version);
  $("advice").hidden = !advice;
  if (advice) {
    const action = advice.action;
    const written = action && (action.kind === "propose" || action.kind === "counter") ? " (written in the form below)" : "";
    $("advice").textContent = action ? `Hint: ${describeYours(action, names)}${written}` : "Hint: no advice for this decision";
  }
  renderChoices($("choices"), legal, { describe: choiceWords, advice: advice && advice.action, disabled: sent !== null, act });
}

// A choice in the catalogue's words; a trade to complete says its terms beside it (the
// counter's, or the offer's for a seat that accepted), from your side.
function choiceWords(action) {
  const words = describeYours(action, names);
  const trade = lastView && lastView.trade;
  if (action.kind !== "complete" || !trade) return words;
  const answer = trade.answers.find((a) => a.seat === action.with) || {};
  const [give, get] = answer.answer === "counter" ? [answer.give, answer.get] : [trade.give, trade.get];
  return `${words}: ${completingWords(answer, give, get)}`;
}

// Why nothing can be done in a space clicked: what is asked first, or what is in the way.
function nothingThere(space) {
  const first = requestFirst(prompt.legal);
  if (first) return first;
  const cardTurn = lastView.phase === "actions" && prompt.legal.some((a) => a.kind === "pass");
  if (cardTurn) return spaceWhy(board, lastView, seat, space, who);
  const expanding = lastView.phase === "expand" && expandWhy(space, lastView.tiles || [], prompt.legal);
  return expanding || "nothing to do there now";
}

function requestTitle(view) {
  if (view.trade && view.trade.proposer !== seat) {
    const t = view.trade;
    const seconds = prompt && prompt.deadline ? prompt.deadline - (performance.now() - promptAt) / 1000 : null;
    const left = seconds !== null ? ` (${Math.max(0, Math.round(seconds))} s left to answer)` : "";
    const accepting = prompt && prompt.legal.some((a) => a.kind === "answer" && a.accept);
    const why = accepting ? null : acceptWhy(view.hand || [], t.get);
    return `${who(t.proposer)} offers ${cardsText(t.give)} for your ${cardsText(t.get)}${left}${why ? `; ${why}` : ""}`;
  }
  if (view.trade && view.trade.proposer === seat) {
    const t = view.trade;
    const pending = t.answers.filter((a) => a.answer === "pending").map((a) => who(a.seat));
    const waiting = pending.length ? ` (waiting for ${pending.join(", ")})` : "";
    return `Your offer: ${cardsText(t.give)} for ${cardsText(t.get)}${waiting}`;
  }
  return view.phase === "keep" ? "End of round: the cards you keep" : "Your decision";
}

function touches(action, space) {
  return actionSpaces(action).includes(space);
}

function act(action) {
  if (sent !== null || !prompt) return; // never an action twice for one decision
  sent = send({ type: "action", version: prompt.version, action });
  $("refusal").hidden = true;
  for (const node of $("request").querySelectorAll("button")) node.disabled = true;
  say("sent: " + describeYours(action, names));
}

function askHint() {
  if (!prompt || sent !== null || hinting !== null) return;
  $("hint").disabled = true;
  hinting = send({ type: "hint", version: prompt.version, advice: true });
}

function advised(message) {
  if (message.re === hinting) hinting = null;
  if (!prompt || message.version !== prompt.version) return; // about a decision gone by
  advice = { version: message.version, action: message.action };
  const action = message.action;
  if (action && (action.kind === "propose" || action.kind === "counter") && !$("offer").hidden) {
    const mine = actorSide(action); // (written in the form as you would: from your side)
    $("give").value = mine[0].join(", ");
    $("get").value = mine[1].join(", ");
    for (const box of $("offer-to").querySelectorAll("input")) {
      box.checked = action.kind !== "propose" || action.to.includes(Number(box.value));
    }
  }
  if (lastView) showRequest(lastView);
  if (!$("offer").hidden && action && (action.kind === "propose" || action.kind === "counter")) inView($("offer"), "nearest");
}

function pick(space) {
  picked = space;
  $("refusal").hidden = true;
  // (a spectator is told so: a tap that does nothing looks broken)
  const waiting = space && !prompt && !replay ? turnWhy(lastView, seat, who) : null;
  if (waiting) showRefusal(`Space ${space} ${board.names[space] || ""}: ${waiting}`);
  if (lastView) {
    redraw();
    showRequest(lastView);
  }
  if (space && !$("filter").hidden) inView($("filter"), "center"); // (a phone's board fills the screen)
}

// Scroll ``element`` into the window if any of it is outside (not otherwise: no jumps).
function inView(element, block) {
  const { top, bottom } = element.getBoundingClientRect();
  if (top < 0 || bottom > window.innerHeight) element.scrollIntoView({ block, behavior: "smooth" });
}

function redraw() {
  const marks = { seat, tiles: lastView.tiles, acting: actingSeats(lastView), recent: recent.shown(seat), moved: recent.moved };
  drawBoard($("board"), board, lastView, picked, pick, marks);
  recent.moved = null; // (a ship sails once, not at every redraw)
}

function showHand(view) {
  renderHand($("hand"), view);
}

function showScore(view) {
  if (view.score && !replay) {
    localStorage.removeItem(lastKey);
    say(`table ${watching}: the game is over`);
  }
  renderScore($("score"), view, who);
}

function showSeats(view) {
  renderSeats($("seats"), view, { who, seat, seatStatus, clocks, points, acting: actingSeats(view) });
}

// A finished game, replayed as a spectator saw it ---------------------------------------

function askReplay(table) {
  resetGame();
  replay = { table, views: null, events: [], step: 0 };
  send({ type: "get_record", table, public: true });
  say(`fetching the game at table ${table}`);
}

function startReplay(message) {
  if (!replay || replay.table !== message.table) return;
  const record = message.record;
  const views = recordViews(record);
  names = record.players.map((p) => p.name);
  points = null;
  seatStatus = [];
  clocks = null;
  prompt = null;
  seat = null;
  replay = { table: message.table, views, points: record.points || [], events: record.events, step: 0 };
  showScreen("replay");
  $("game-title").textContent = `Replay of table ${message.table}`;
  $("replay-step").max = String(views.length - 1);
  say(`replaying table ${message.table}: ${views.length - 1} decisions`);
  showStep(0); // (from the first deal: End or >| goes to the end)
}

function showStep(step) {
  replay.step = Math.max(0, Math.min(step, replay.views.length - 1));
  const view = replay.views[replay.step];
  points = replay.points[replay.step] || null; // the seats' points had the game ended here
  showView(view);
  showHand(view);
  showRequest(view);
  $("replay-step").value = String(replay.step);
  $("replay-where").textContent = `decision ${replay.step} of ${replay.views.length - 1}`;
  $("log").replaceChildren();
  lastEvent = -1;
  const events = replay.events.filter((e) => e.version <= replay.step);
  recent.clear();
  recent.note(events, null);
  recent.moved = null; // (a step taken by hand is not sailed)
  redraw();
  appendEvents(events);
}

function start() {
  $("name").value = localStorage.getItem("tyros-name") || "";
  $("offer").addEventListener("submit", offer);
  $("hint").addEventListener("click", askHint);
  $("talk").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("say").value.trim();
    if (text) send({ type: "chat", text });
    $("say").value = "";
  });
  $("join").addEventListener("submit", (event) => {
    event.preventDefault();
    if (!$("name").value.trim()) {
      say("Write your name first: a name is not blank");
      $("name").focus();
      return;
    }
    sit($("table-name").value.trim(), { spectate: false, options: newTableOptions() });
  });
  $("leave").addEventListener("click", () => {
    localStorage.removeItem(lastKey);
    const seated = watching !== null;
    const finished = seated && !replay && lastView !== null && lastView.phase === "over";
    const left = watching;
    backToTables("");
    if (finished) {
      // (the same name would open the finished game again: the form offers the next one)
      $("table-name").value = nextTableName(left);
      $("lobby-note").textContent = `Another game? "Join or create" opens a new table, ${$("table-name").value}, with these settings.`;
      $("lobby-note").hidden = false;
    }
    if (seated) socket.close(); // (it reconnects, to the list of tables)
  });
  bindReplayControls(() => (replay && replay.views ? replay.step : null), showStep);
  window.addEventListener("hashchange", () => {
    const linked = linkedTable();
    if (linked && linked !== watching) sit(linked, { spectate: !heldToken(linked) });
  });
  // (a level only for bots: none without them)
  const levelForBots = () => ($("bot-level").disabled = Number($("bots").value) === 0);
  $("players").addEventListener("change", () => {
    // (bots take the seats besides yours: at most one fewer than the players)
    const most = Number($("players").value) - 1;
    for (const option of $("bots").options) option.disabled = Number(option.value) > most;
    if (Number($("bots").value) > most) $("bots").value = String(most);
    levelForBots();
  });
  $("bots").addEventListener("change", levelForBots);
  levelForBots(); // (a reload may bring the form's last values back)
  $("zoom").addEventListener("click", () => zoomBoard(!$("board").classList.contains("zoomed")));
  $("sound").checked = soundWanted();
  $("sound").addEventListener("change", () => setSoundWanted($("sound").checked));
  // The list of tables stays fresh while it is on screen (tables start and end); the
  // clocks count down between updates.
  setInterval(() => {
    if (!watching && !replay && !document.hidden) send({ type: "list_tables" });
  }, 3000);
  setInterval(() => {
    if (clocks && lastView && !replay) showSeats(lastView);
    if (prompt && prompt.deadline && lastView && lastView.trade && !replay) $("request-title").textContent = requestTitle(lastView);
  }, 1000);
  connect();
}

start();
