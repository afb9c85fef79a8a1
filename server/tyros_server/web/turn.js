// Whose turn it is, and what just happened: the banner above the board, the tab's title,
// a sound when your turn comes while the tab is in the background (off until turned on,
// remembered), and what each other seat did last (drawn on the board).

import { LETTERS, tradeTalk } from "./words.js";

const SOUND_KEY = "tyros-turn-sound";

export function actingSeats(view) {
  if (!view || view.phase === "over") return [];
  return view.to_act && view.to_act.length ? view.to_act : view.current !== null && view.current !== undefined ? [view.current] : [];
}

// What each seat did last (its newest action event), for the board; and the newest move of
// these events, to sail.
export class Recent {
  constructor() {
    this.bySeat = {};
    this.moved = null;
  }

  clear() {
    this.bySeat = {};
    this.moved = null;
  }

  note(events, viewer) {
    this.moved = null;
    for (const event of events) {
      if (event.type === "round_start") this.bySeat = {};
      if (event.type !== "action" || event.seat === viewer) continue;
      const action = event.action;
      if (["move", "city", "ship", "expand"].includes(action.kind)) {
        this.bySeat[event.seat] = action;
        if (action.kind === "move") this.moved = { ...action, seat: event.seat };
      } else if (!tradeTalk(action.kind)) {
        delete this.bySeat[event.seat]; // (its last action was off the board: no old news)
      }
    }
  }

  // Only what others did: your own pieces you know.
  shown(viewer) {
    return Object.fromEntries(Object.entries(this.bySeat).filter(([s]) => Number(s) !== viewer));
  }
}

// The banner and the title; ``yours`` is true when a decision waits for you.
export function showTurn(node, { view, seat, yours, who, table, trade }) {
  const acting = actingSeats(view);
  node.replaceChildren();
  node.className = "turn";
  if (!view) return;
  if (view.phase === "over") {
    node.append("The game is over: the score is above.");
    node.classList.add("over");
  } else if (yours) {
    node.classList.add("yours");
    node.append(trade ? "Your answer: an offer waits for you" : "Your turn");
  } else if (acting.length) {
    node.append(...acting.flatMap((s, i) => [...(i ? [", "] : []), chip(s), who(s)]), ` ${acting.length > 1 ? "are" : "is"} to act`);
  }
  if (view.last_round) {
    const notice = document.createElement("strong");
    notice.className = "last-round";
    notice.textContent = "Last round: a player has no tiles left, so the game ends with this round.";
    node.append(notice);
  }
  document.title = `${yours ? "(your turn) " : ""}Tyros - ${table}`;
}

export function chip(seat) {
  const mark = document.createElement("span");
  mark.className = `chip seat${seat}`;
  mark.setAttribute("aria-hidden", "true");
  mark.title = `player ${LETTERS[seat]}'s colour`;
  return mark;
}

export function soundWanted() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

export function setSoundWanted(on) {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
}

// A short two-note chime (Web Audio: no file to fetch).
export function chime() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  const audio = new Context();
  [660, 880].forEach((frequency, i) => {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, audio.currentTime + i * 0.18);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + i * 0.18 + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start(audio.currentTime + i * 0.18);
    tone.stop(audio.currentTime + i * 0.18 + 0.3);
  });
}
