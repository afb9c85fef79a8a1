// A tyros bot in plain JavaScript: it plays random legal moves to the end of a game,
// and takes its seat back (with its token) when the connection drops.
//
//   node --experimental-websocket docs/examples/bot.mjs ws://HOST:PORT TABLE NAME [PLAYERS]
//
// Node 22 and newer have WebSocket without the flag. Only docs/protocol.md was needed to
// write it. The seat token is kept in NAME.token (delete it to join afresh).
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const [url, table, name, players = "4"] = process.argv.slice(2);
const tokenFile = `${name}.token`;
let token = existsSync(tokenFile) ? readFileSync(tokenFile, "utf8").trim() : null;
let nextId = 1;
let answered = -1; // the id of the newest prompt acted on: each decision is made once
let pending = null; // our action waiting for its answer: {id, action}
let prompt = null; // the newest prompt we hold
let retryDelay = 250;
let joinId = null; // the id of our hello or resume: its refusal is the only fatal one

function connect() {
  const ws = new WebSocket(url);
  const send = (message) => {
    ws.send(JSON.stringify({ id: nextId, ...message }));
    return nextId++;
  };
  const act = (action) => {
    const id = nextId;
    pending = { id, action };
    send({ type: "action", version: prompt.version, action });
  };

  ws.onopen = () => {
    retryDelay = 250;
    if (token) joinId = send({ type: "resume", protocol: 1, token });
    else joinId = send({ type: "hello", protocol: 1, name, table, players: Number(players) });
  };

  ws.onmessage = (frame) => {
    const message = JSON.parse(frame.data);
    switch (message.type) {
      case "welcome":
        if (message.token) writeFileSync(tokenFile, (token = message.token));
        answered = -1; // after a resume, decide afresh on the prompt that follows
        break;
      case "update": {
        if (message.view.phase === "over") {
          console.log(`game over: winners ${JSON.stringify(message.view.score.winners)}`);
          ws.close();
          process.exit(0);
        }
        prompt = message.prompt;
        // A prompt with the id we answered is the same decision (others acted meanwhile).
        if (prompt && prompt.id > answered) {
          answered = prompt.id;
          act(prompt.legal[Math.floor(Math.random() * prompt.legal.length)]);
        }
        break;
      }
      case "accepted":
        pending = null;
        break;
      case "error":
        if (message.re === joinId && message.code === "bad_token") {
          token = null; // the server forgot the seat (a new database): join afresh
          joinId = send({ type: "hello", protocol: 1, name, table, players: Number(players) });
        } else if (message.re === joinId) {
          console.error(`refused: ${message.code}: ${message.message}`);
          process.exit(1); // a refused join (full table, ...): trying again will not help
        } else if (message.re !== pending?.id && message.re !== null) {
          // The answer to an older action of ours: the newer one is what counts.
        } else if (message.code === "rate_limited") {
          if (!pending) break;
          const again = pending.action; // not taken: send it again a little later
          setTimeout(() => prompt && ws.readyState === 1 && act(again), 200);
        } else {
          pending = null;
          // too_late, stale_version: overtaken, the next prompt will come. Anything else:
          // a refusal of our choice; choose again on the same prompt.
          if (!["too_late", "stale_version"].includes(message.code) && prompt) {
            console.error(`refused: ${message.code}: ${message.message}`);
            act(prompt.legal[Math.floor(Math.random() * prompt.legal.length)]);
          }
        }
        break;
    }
  };

  ws.onclose = () => {
    prompt = null;
    setTimeout(connect, retryDelay); // the server restarts, or the network drops
    retryDelay = Math.min(retryDelay * 2, 5000);
  };
  ws.onerror = () => {}; // onclose follows
}

connect();
