// The board as SVG, from the server's board.json and a view: spaces with their numbers and
// names, empires (colour and letter), cities and ships by seat; a space can be picked.

import { LETTERS } from "./words.js";

const CELL = { w: 100, h: 72 };
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

// One tab stop for the whole board (the picked space, else the first); the arrow keys move
// between spaces, Enter or Space picks one; focus stays on its space when it is redrawn.
export function drawBoard(container, board, view, picked, onPick) {
  const focused = container.contains(document.activeElement) ? document.activeElement.dataset.space : null;
  const at = positions(board);
  const spaceAt = {};
  for (const [label, [r, c]] of Object.entries(at)) spaceAt[`${r},${c}`] = label;
  const stop = picked || focused || board.grid[0][0];
  const rows = board.grid.length;
  const cols = board.grid[0].length;
  const svg = element("svg", {
    viewBox: `0 0 ${cols * CELL.w} ${rows * CELL.h}`,
    role: "group",
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
    const owner = (view.cities || {})[label];
    const fleet = (ships[label] || []).map((s) => `${s.count} ship${s.count === 1 ? "" : "s"} of ${LETTERS[s.seat]}${s.port === label ? "" : ` on the ${s.port.endsWith("W") ? "west" : "east"} coast`}`);
    const said = [`space ${label} ${board.names[label] || ""}`, colour ? `${colour} empire` : "no empire"];
    if (owner !== undefined) said.push(`a city of ${LETTERS[owner]}`);
    said.push(...fleet);
    const cell = element("rect", {
      x, y, width: w, height: h, rx: 6,
      class: `cell ${colour || ""}${picked === label ? " picked" : ""}`,
      tabindex: label === stop ? 0 : -1,
      role: "button",
      "data-space": label,
      "aria-label": said.join(", "),
    });
    cell.addEventListener("click", () => onPick(label));
    cell.addEventListener("keydown", (event) => {
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
    });
    svg.append(cell);
    svg.append(element("text", { x: x + 5, y: y + 15, class: "label" }, label));
    const name = board.names[label] || "";
    const room = colour ? 8 : 11; // (the empire's letter takes the right corner)
    const short = name.length > room ? name.slice(0, room - 1) + "." : name;
    svg.append(element("text", { x: x + 28, y: y + 14, class: "name" }, short));
    if (colour) {
      svg.append(element("text", { x: x + w - 14, y: y + 15, class: "tag" }, colour[0].toUpperCase()));
    }
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
  container.replaceChildren(svg);
  if (focused) {
    const again = container.querySelector(`[data-space="${focused}"]`);
    if (again) again.focus();
  }
}

function isSpace(board, label) {
  return label !== board.serpent && label !== board.desert;
}

export function boardWords(view) {
  const cities = Object.entries(view.cities || {}).map(([s, o]) => `a city of ${LETTERS[o]} in ${s}`);
  const ships = (view.ships || []).map((s) => `${s.count} ship${s.count === 1 ? "" : "s"} of ${LETTERS[s.seat]} in ${s.port}`);
  return ["The board.", ...cities, ...ships].join(" ");
}
