// A finished game replayed as a spectator saw it: the record's views, one a decision, and
// the controls that step through them (buttons, the slider, the arrow keys).

// Every decision's view of a public record: its first view, then each change laid on the
// one before.
export function recordViews(record) {
  const views = [record.view];
  for (const change of record.changes) views.push({ ...views[views.length - 1], ...change });
  return views;
}

// The replay's controls call ``show(step)`` with the step asked for; ``current()`` is the
// step shown (null: no replay on screen), so one listener serves every replay.
export function bindReplayControls(current, show) {
  const $ = (id) => document.getElementById(id);
  const moves = { "replay-first": () => 0, "replay-back": (s) => s - 1, "replay-next": (s) => s + 1, "replay-last": () => Infinity };
  for (const [id, move] of Object.entries(moves)) {
    $(id).addEventListener("click", () => current() !== null && show(move(current())));
  }
  $("replay-step").addEventListener("input", () => current() !== null && show(Number($("replay-step").value)));
  document.addEventListener("keydown", (event) => {
    const step = current();
    if (step === null || event.target.tagName === "INPUT" || $("board").contains(event.target)) return;
    const keys = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: Infinity };
    if (event.key in keys) {
      event.preventDefault();
      show(keys[event.key]);
    }
  });
}
