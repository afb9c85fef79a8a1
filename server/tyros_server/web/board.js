// The board as a map, from the server's board.json and a view: land spaces tinted by their
// empire (and lettered O, Y, G, V, for colour blindness), sea routes between their ports
// (Italia's two coasts each a port of their own), Tyros, the serpent and the desert; ships
// and cities as pieces in their player's colour, each with its seat letter. Your own pieces
// and your tiles' spaces are marked; so is what each other seat did last (``recent``) and
// the acting seat's pieces; a ship that just moved sails there (not under reduced motion).
// A space can be picked, by pointer or keyboard.

import { LETTERS } from "./words.js";

const CELL = { w: 120, h: 100 };
const INSET = 9; // half the sea between two spaces: the routes cross it
const SVG = "http://www.w3.org/2000/svg";

function element(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function positions(board) {
  const out = {};
  board.grid.forEach((row, r) => row.forEach((label, c) => (out[label] = [r, c])));
  return out;
}

const spaceOf = (port) => port.replace(/[WE]$/, "");

// The spaces an action names (a move's both ends, a ship's or city's space, a tile), Italia's
// coasts as Italia; an offer names seats, not spaces.
export function actionSpaces(action) {
  return [action.space, action.from, action.to, action.tile]
    .filter((s) => s !== undefined && !Array.isArray(s))
    .map((s) => spaceOf(String(s)));
}

// Where a port's ships stand in its space: the middle of its bottom row; a coast at its side.
function anchor(board, at, port) {
  const [r, c] = at[spaceOf(port)];
  const x = c * CELL.w;
  const y = r * CELL.h;
  if (port.endsWith("W") && board.coasts[spaceOf(port)]) return [x + INSET + 20, y + CELL.h - INSET - 18];
  if (port.endsWith("E") && board.coasts[spaceOf(port)]) return [x + CELL.w - INSET - 20, y + CELL.h - INSET - 18];
  return [x + CELL.w / 2, y + CELL.h - INSET - 18];
}

export function shipWords(stack) {
  const coast = stack.port !== spaceOf(stack.port) ? ` on the ${stack.port.endsWith("W") ? "west" : "east"} coast` : "";
  return `${stack.count} ship${stack.count === 1 ? "" : "s"} of ${LETTERS[stack.seat]}${coast}`;
}

// One tab stop for the whole board (the picked space, else the first); the arrow keys move
// between spaces, Enter or Space picks one; focus stays on its space when it is redrawn.
// ``marks``: {seat, tiles, acting, recent: {seat: action}, moved: action or null}.
export function drawBoard(container, board, view, picked, onPick, marks = {}) {
  const focused = container.contains(document.activeElement) ? document.activeElement.dataset.space : null;
  const at = positions(board);
  const spaceAt = {};
  for (const [label, [r, c]] of Object.entries(at)) spaceAt[`${r},${c}`] = label;
  const stop = picked || focused || board.grid[0][0];
  const rows = board.grid.length;
  const cols = board.grid[0].length;
  const svg = element("svg", {
    viewBox: `0 0 ${cols * CELL.w} ${rows * CELL.h}`,
    class: "board",
    role: "group",
    "aria-label": boardWords(view),
  });
  const ships = {};
  for (const stack of view.ships || []) (ships[spaceOf(stack.port)] ||= []).push(stack);
  const tiles = new Set(marks.tiles || []);
  const recent = marks.recent || {};
  const touched = {}; // space -> the seats whose last action touched it
  for (const [who, action] of Object.entries(recent)) {
    if (action.kind === "return_tile") continue;
    for (const space of actionSpaces(action)) (touched[space] ||= new Set()).add(Number(who));
  }
  svg.append(drawRoutes(board, at));
  for (const [label, [r, c]] of Object.entries(at)) {
    const x = c * CELL.w + INSET;
    const y = r * CELL.h + INSET;
    const w = CELL.w - 2 * INSET;
    const h = CELL.h - 2 * INSET;
    if (label === board.serpent || label === board.desert) {
      const serpent = label === board.serpent;
      svg.append(element("rect", { x, y, width: w, height: h, rx: 8, class: serpent ? "serpent" : "blocked" }));
      svg.append(element("text", { x: x + w / 2, y: y + h / 2 + 5, class: "place", "text-anchor": "middle" }, serpent ? "sea serpent" : "desert"));
      continue;
    }
    const colour = (view.chips || {})[label];
    const owner = (view.cities || {})[label];
    const said = [`space ${label} ${board.names[label] || ""}`, colour ? `${colour} empire` : "no empire"];
    if (owner !== undefined) said.push(`a city of ${LETTERS[owner]}${owner === marks.seat ? " (yours)" : ""}`);
    said.push(...(ships[label] || []).map(shipWords));
    if (tiles.has(label)) said.push("one of your tiles");
    for (const s of touched[label] || []) said.push(`${LETTERS[s]} acted here last`);
    const tyros = label === board.tyros;
    const cell = element("rect", {
      x, y, width: w, height: h, rx: 8,
      class: `cell ${colour || ""}${tyros ? " tyros" : ""}${picked === label ? " picked" : ""}`,
      tabindex: label === stop ? 0 : -1,
      role: "button",
      "data-space": label,
      "aria-label": said.join(", "),
    });
    cell.addEventListener("click", () => onPick(label));
    cell.addEventListener("keydown", (event) => moveFocus(event, { container, board, spaceAt, r, c, label, onPick, cell }));
    svg.append(cell);
    for (const s of touched[label] || []) {
      svg.append(element("rect", { x: x + 3, y: y + 3, width: w - 6, height: h - 6, rx: 6, class: `recent seat${s}`, "data-recent": LETTERS[s] }));
    }
    if (tiles.has(label)) {
      // (below the space's number and name, and a coast's labels, which it would cross)
      const top = board.coasts[label] ? 50 : 24;
      svg.append(element("rect", { x: x + 6, y: y + top, width: w - 12, height: h - top - 6, rx: 5, class: "your-tile" }));
    }
    // Tyros too by its label ("TY"), as moves name it
    svg.append(element("text", { x: x + 6, y: y + 17, class: "label" }, label));
    const name = board.names[label] || "";
    const room = (colour ? 9 : 12) - label.length; // (what fits: the empire letter takes the corner)
    const short = name.length > room ? name.slice(0, room - 1) + "." : name;
    svg.append(element("text", { x: x + (label.length > 1 ? 31 : 21), y: y + 16, class: "name" }, short));
    if (colour) svg.append(element("text", { x: x + w - 7, y: y + 17, class: "tag", "text-anchor": "end" }, colour[0].toUpperCase()));
    // On a space with two coasts the city stands beside the name, the coasts' words at the
    // foot: the ships of each coast between them.
    const coasts = board.coasts[label] || [];
    if (owner !== undefined) svg.append(city(x + w - 20, y + (coasts.length ? 12 : 30), owner, marks));
    for (const port of coasts) {
      const [px] = anchor(board, at, port);
      svg.append(element("text", { x: px, y: y + h - 3, class: "coast", "text-anchor": "middle" }, `${port.slice(-1)} coast`));
    }
    const byPort = {};
    for (const stack of ships[label] || []) (byPort[stack.port] ||= []).push(stack);
    for (const [port, stacks] of Object.entries(byPort)) {
      const room = shipRoom({ x, y, w, h }, port, board, owner !== undefined);
      shipSpots(room, stacks.length).forEach(([px, py, scale], i) => {
        svg.append(shipPiece(px, py, scale, stacks[i], marks, board, at));
      });
    }
  }
  svg.append(drawRecentMoves(board, at, recent));
  container.replaceChildren(svg);
  if (focused) {
    const again = container.querySelector(`[data-space="${focused}"]`);
    if (again) again.focus();
  }
}

function moveFocus(event, { container, board, spaceAt, r, c, label, onPick, cell }) {
  const step = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[event.key];
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    onPick(label);
  } else if (step) {
    event.preventDefault();
    let [row, col] = [r + step[0], c + step[1]];
    while (`${row},${col}` in spaceAt && !isSpace(board, spaceAt[`${row},${col}`])) [row, col] = [row + step[0], col + step[1]];
    const next = container.querySelector(`[data-space="${spaceAt[`${row},${col}`]}"]`);
    if (next) {
      cell.setAttribute("tabindex", "-1");
      next.setAttribute("tabindex", "0");
      next.focus();
    }
  }
}

// A piece's classes: its seat's colour, yours marked, the acting seat's pieces lit.
function pieceClass(kind, owner, marks) {
  return `${kind} seat${owner}${owner === marks.seat ? " mine" : ""}${(marks.acting || []).includes(owner) ? " acting" : ""}`;
}

const S = 1.35; // pieces' scale: big enough to tell apart at a glance

function city(x, y, owner, marks) {
  const group = element("g", { class: pieceClass("city", owner, marks), "data-seat": LETTERS[owner] });
  const at = (dx, dy) => `${x + dx * S},${y + dy * S}`;
  group.append(element("polygon", { points: [at(-11, 6), at(0, -5), at(11, 6), at(11, 19), at(-11, 19)].join(" ") }));
  group.append(element("text", { x, y: y + 16 * S, "text-anchor": "middle" }, LETTERS[owner]));
  return group;
}

// Where a port's ships may stand inside its space (x0, x1, y0, y1): below the space's name,
// beside or below a city, whichever leaves the larger ships; on a coast, its half.
function shipRoom(cell, port, board, hasCity) {
  const { x, y, w, h } = cell;
  const coast = board.coasts[spaceOf(port)] ? port.slice(-1) : "";
  if (coast) {
    return [{ x0: coast === "E" ? x + w / 2 + 1 : x + 4, x1: coast === "W" ? x + w / 2 - 1 : x + w - 4, y0: y + (coast === "E" && hasCity ? 40 : 21), y1: y + h - 14 }];
  }
  const room = { x0: x + 4, x1: x + w - 4, y0: y + 21, y1: y + h - 3 };
  if (!hasCity) return [room];
  // (the city stands at x + w - 20, y + 30: 15 either side, from y + 23 to y + 56)
  return [{ ...room, x1: x + w - 37 }, { ...room, y0: Math.max(room.y0, y + 58) }];
}

const SHIP = { w: 22, h: 27, below: 11 }; // a ship's size at scale 1; its hull below its anchor

// Each ship's anchor and scale: a grid of the largest ships whose rows fit one of the rooms
// (at the smallest, in the room they overflow least).
function shipSpots(rooms, count) {
  const scales = [S, 1.2, 1.05, 0.9, 0.75];
  let best = null;
  for (const scale of scales) {
    const [pw, ph] = [SHIP.w * scale + 2, SHIP.h * scale + 2];
    for (const room of rooms) {
      const cols = Math.max(1, Math.floor((room.x1 - room.x0 + 2) / pw));
      const rows = Math.ceil(count / cols);
      const over = rows * ph - 2 - (room.y1 - room.y0);
      if (over <= 0 || (scale === scales.at(-1) && (best === null || over < best.over))) best = { room, scale, cols, pw, ph, over };
      if (over <= 0) break;
    }
    if (best && best.over <= 0) break;
  }
  const { room, scale, cols, pw, ph } = best;
  return Array.from({ length: count }, (_, i) => {
    const row = Math.floor(i / cols);
    const inRow = Math.min(cols, count - row * cols);
    const cx = (room.x0 + room.x1) / 2 + ((i % cols) - (inRow - 1) / 2) * pw;
    return [cx, room.y1 - SHIP.below * scale - row * ph, scale];
  });
}

function shipPiece(x, y, scale, stack, marks, board, at) {
  const group = element("g", { class: pieceClass("ship", stack.seat, marks), "data-seat": LETTERS[stack.seat], "data-port": stack.port });
  const hull = element("g", { transform: `translate(${x} ${y}) scale(${scale / S})` });
  const p = (dx, dy) => `${dx * S} ${dy * S}`;
  // A hull with a sail: the seat's letter on the sail, the stack's size on the hull.
  hull.append(element("path", { d: `M ${p(-11, 3)} L ${p(11, 3)} L ${p(7, 11)} L ${p(-7, 11)} Z` }));
  hull.append(element("path", { d: `M ${p(-8, 1)} L ${p(-1, -16)} L ${p(10, 1)} Z`, class: "sail" }));
  hull.append(element("text", { x: S, y: -1, "text-anchor": "middle" }, LETTERS[stack.seat]));
  if (stack.count > 1) hull.append(element("text", { x: 0, y: 10 * S, "text-anchor": "middle", class: "count" }, String(stack.count)));
  group.append(hull);
  const moved = marks.moved;
  if (moved && moved.kind === "move" && moved.to === stack.port && moved.seat === stack.seat && !reducedMotion()) {
    const [fx, fy] = anchor(board, at, moved.from);
    group.append(element("animateTransform", {
      attributeName: "transform", type: "translate", from: `${fx - x} ${fy - y}`, to: "0 0", dur: "0.7s", fill: "freeze",
    }));
  }
  return group;
}

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Sea routes across the water between two spaces, each at its ports' side.
function drawRoutes(board, at) {
  const group = element("g", { class: "routes", "aria-hidden": "true" });
  for (const link of board.links) {
    const [a, b] = link.split("-");
    if (!(spaceOf(a) in at) || !(spaceOf(b) in at)) continue;
    const [ra, ca] = at[spaceOf(a)];
    const [rb, cb] = at[spaceOf(b)];
    const [ax] = anchor(board, at, a);
    const [bx] = anchor(board, at, b);
    if (ra === rb) {
      const x = Math.max(ca, cb) * CELL.w;
      const y = ra * CELL.h + CELL.h / 2 + 8;
      group.append(element("line", { x1: x - INSET - 4, y1: y, x2: x + INSET + 4, y2: y, class: "route" }));
    } else {
      const coastal = a !== spaceOf(a) ? ax : b !== spaceOf(b) ? bx : null;
      const x = coastal ?? Math.min(ca, cb) * CELL.w + CELL.w / 2;
      const y = Math.max(ra, rb) * CELL.h;
      group.append(element("line", { x1: x, y1: y - INSET - 4, x2: x, y2: y + INSET + 4, class: "route" }));
    }
  }
  return group;
}

// The route of each other seat's last move, in its colour, along the sea links (a shortest
// way from port to port: the one the rules price the move by).
function drawRecentMoves(board, at, recent) {
  const group = element("g", { class: "recent-moves", "aria-hidden": "true" });
  for (const [who, action] of Object.entries(recent)) {
    if (action.kind !== "move" || !(spaceOf(action.from) in at) || !(spaceOf(action.to) in at)) continue;
    const points = seaRoute(board, action.from, action.to).map((port) => {
      const [x, y] = anchor(board, at, port);
      return `${x},${y - 20}`;
    });
    group.append(element("polyline", { points: points.join(" "), class: `trail seat${who}` }));
  }
  return group;
}

// The ports from ``from`` to ``to`` by the fewest sea links (both ends included).
export function seaRoute(board, from, to) {
  const next = {};
  for (const link of board.links) {
    const [a, b] = link.split("-");
    (next[a] ||= []).push(b);
    (next[b] ||= []).push(a);
  }
  const came = { [from]: null };
  const queue = [from];
  while (queue.length && !(to in came)) {
    const port = queue.shift();
    for (const other of next[port] || []) {
      if (!(other in came)) {
        came[other] = port;
        queue.push(other);
      }
    }
  }
  if (!(to in came)) return [from, to];
  const route = [];
  for (let port = to; port !== null; port = came[port]) route.unshift(port);
  return route;
}

function isSpace(board, label) {
  return label !== board.serpent && label !== board.desert;
}

export function boardWords(view) {
  const cities = Object.entries(view.cities || {}).map(([s, o]) => `a city of ${LETTERS[o]} in ${s}`);
  const ships = (view.ships || []).map((s) => `${s.count} ship${s.count === 1 ? "" : "s"} of ${LETTERS[s.seat]} in ${s.port}`);
  return ["The board.", ...cities, ...ships].join(" ");
}
