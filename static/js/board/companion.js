// The companion: was it winnable? Back to safety, the quiet warning, a way
// through played at a watchable pace, and where a lost run turned. The server
// answers every question (docs/api.md); this module only asks and shows. It
// builds its own buttons into the page, so the board's template and game.js
// need only a few hooks: the Game gives it `send`, `show`, `say` and
// `watching` (taps are ignored while a replay runs).

import { faceName } from "./a11y.js";

const WARN_KEY = "tiles.warn";
export const REPLAY_MS = 700;

const SUITS = { characters: "Characters", dots: "Dots", bamboo: "Bamboo" };

/** "the 5 of Dots", "the East wind": how the result screen names a tile. */
export function tileWords(face) {
  const [kind, value] = face.split("-");
  if (SUITS[kind]) return `the ${value} of ${SUITS[kind]}`;
  return `the ${faceName(face)}`;
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd ... */
export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

/** What back to safety found, in a sentence. */
export function safetyWords(found) {
  if (!found.exact) {
    return "The search ran out of time before it could tell how far back the pile could still be cleared; nothing was undone.";
  }
  if (found.clearable_now) return "The pile can still be cleared: no need to go back.";
  if (found.pairs_back == null) return "No position of this game could be cleared.";
  const n = found.pairs_back;
  return `${n} pair${n === 1 ? "" : "s"} back the pile could still be cleared: you are there now.`;
}

/** The first step of a certificate that the pile was lost, for people. */
export function whyWords(why, face) {
  if (!why || why.rule !== "no-pairing") return "";
  const kind = tileWords(face).replace(/^the /, "");
  if (why.group.length === 2) return ` The last two ${kind} lie one on the other.`;
  return ` Whichever way the four ${kind} are paired, one lies on its partner.`;
}

/** Where a finished run turned, in a sentence. */
export function turnedWords(turned) {
  if (!turned.exact) return "The search ran out of time before it found where this game turned.";
  if (turned.clearable_now) return "The pile could still be cleared when you stopped.";
  if (turned.turned_at == null) return "This deal could not be cleared from the start.";
  const why = whyWords(turned.why, turned.face);
  return `It turned on your ${ordinal(turned.turned_at)} pair, ${tileWords(turned.face)}: after it the pile could no longer be cleared.${why}`;
}

function stored(key) {
  try {
    return localStorage.getItem(key) === "1";
  } catch {
    return false;
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? "1" : "0");
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

function button(action, text, extra = {}) {
  const el = document.createElement("button");
  el.type = "button";
  el.dataset.action = action;
  el.textContent = text;
  Object.assign(el, extra);
  return el;
}

export class Companion {
  constructor(game) {
    this.game = game;
    this.$ = (id) => document.getElementById(id);
    this.warn = stored(WARN_KEY);
    this.warned = new Set(); // runs the warning has spoken for
    this.replay = null;
    this.turned = null;
    this.#build();
  }

  // --- the page's new furniture ---------------------------------------
  #build() {
    const stuck = this.$("stuck");
    if (stuck) {
      stuck.append(button("safety", "Back to safety"), button("way", "Show me a way through"));
    }
    const menu = document.querySelector(".more-menu");
    if (menu) {
      menu.prepend(
        button("safety", "Back to safety"),
        button("way", "Show me a way through"),
        button("warn", "Warn me when the pile is lost", { id: "warn-toggle" }),
      );
    }
    this.note = document.createElement("div");
    this.note.id = "lost-note";
    this.note.className = "stuck";
    this.note.setAttribute("role", "status");
    this.note.hidden = true;
    this.note.append(
      Object.assign(document.createElement("span"), {
        textContent: "That pair lost the pile: it can no longer be cleared.",
      }),
      button("safety", "Back to safety"),
    );
    const notes = document.querySelector(".board-notes");
    if (notes) notes.append(this.note);
    this.bar = document.createElement("div");
    this.bar.id = "replay";
    this.bar.className = "replay-bar";
    this.bar.hidden = true;
    this.barText = Object.assign(document.createElement("span"), { className: "tabular" });
    this.pauseButton = button("replay-pause", "Pause");
    this.stepButton = button("replay-step", "Step");
    this.bar.append(this.barText, this.pauseButton, this.stepButton, button("replay-done", "Back to my game"));
    const stage = document.querySelector(".board-stage");
    if (stage) stage.append(this.bar);
    const note = this.$("result-note");
    if (note) {
      this.turnedText = Object.assign(document.createElement("p"), { id: "result-turned" });
      this.turnedText.hidden = true;
      this.turnedButton = button("turned-show", "Show where it turned", { hidden: true });
      this.wayButton = button("way", "Show me a way through", { hidden: true, id: "result-way" });
      note.after(this.turnedText);
      const actions = this.$("result").querySelector(".dialog-actions");
      actions.prepend(this.turnedButton, this.wayButton);
    }
    this.#showWarn();
  }

  #showWarn() {
    const toggle = this.$("warn-toggle");
    if (toggle) toggle.setAttribute("aria-pressed", String(this.warn));
  }

  /** The run changed: hide what no longer applies. */
  update(run) {
    if (run.status !== "playing") this.note.hidden = true;
  }

  action(name) {
    switch (name) {
      case "safety":
        return this.backToSafety();
      case "way":
        return this.wayThrough();
      case "warn":
        this.warn = !this.warn;
        store(WARN_KEY, this.warn);
        return this.#showWarn();
      case "turned-show":
        return this.showTurned();
      case "replay-pause":
        return this.#togglePause();
      case "replay-step":
        return this.#step();
      case "replay-done":
        return this.stop();
      default:
        return undefined;
    }
  }

  // --- back to safety and the warning --------------------------------
  async backToSafety() {
    const run = this.game.run;
    if (!run || run.status !== "playing" || this.replay) return;
    this.note.hidden = true;
    const data = await this.game.send("safety", {});
    if (data) this.game.say(safetyWords(data.safety));
  }

  /** After each pair the player takes: the quiet warning, when asked for. */
  async afterTake(data) {
    if (!this.warn || !data || data.status !== "playing") return;
    if (this.warned.has(data.id)) return;
    const answer = await this.game.send("check", {});
    if (answer && answer.warning) {
      this.warned.add(data.id);
      this.note.hidden = false;
    }
  }

  // --- a way through --------------------------------------------------
  async wayThrough() {
    const run = this.game.run;
    if (!run || this.replay) return;
    for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
    const data = await this.game.send("way", {});
    if (!data) return;
    const { way } = data;
    const base = way.from === "start" ? [] : data.run.removed.map((p) => [...p]);
    this.game.say(
      way.from === "start"
        ? "The pile could no longer be cleared, so here is a way through from the start."
        : "A way through from here.",
    );
    this.#startReplay(base, way.pairs, way.faces);
  }

  #startReplay(base, pairs, faces) {
    this.game.watching = true;
    this.replay = { base, pairs, faces, k: 0, timer: 0, paused: false };
    this.bar.hidden = false;
    this.pauseButton.hidden = this.stepButton.hidden = false;
    this.game.show(base, faces);
    this.#render();
    this.#schedule();
  }

  #schedule() {
    const r = this.replay;
    clearTimeout(r.timer);
    if (!r.paused && r.k < r.pairs.length) r.timer = setTimeout(() => this.#advance(), REPLAY_MS);
  }

  #advance() {
    const r = this.replay;
    if (!r || r.k >= r.pairs.length) return;
    r.k += 1;
    this.game.show([...r.base, ...r.pairs.slice(0, r.k)], r.faces);
    this.#render();
    this.#schedule();
  }

  #step() {
    const r = this.replay;
    if (!r) return;
    r.paused = true;
    clearTimeout(r.timer);
    this.#advance();
    this.#render();
  }

  #togglePause() {
    const r = this.replay;
    if (!r) return;
    r.paused = !r.paused;
    this.#render();
    this.#schedule();
  }

  #render() {
    const r = this.replay;
    const done = r.k >= r.pairs.length;
    this.barText.textContent = `${r.k} of ${r.pairs.length} pairs`;
    this.pauseButton.textContent = r.paused ? "Play" : "Pause";
    this.pauseButton.disabled = this.stepButton.disabled = done;
    this.game.root.dataset.replay = done ? "done" : r.paused ? "paused" : "playing";
  }

  /** Leave a replay or a shown position: the board shows the run again. */
  stop() {
    if (this.replay) clearTimeout(this.replay.timer);
    this.replay = null;
    this.bar.hidden = true;
    this.game.watching = false;
    delete this.game.root.dataset.replay;
    this.game.send(null, null, { method: "GET", rebuild: true });
  }

  // --- where it turned --------------------------------------------------
  /** The result screen of a finished run: say where a lost one turned. */
  async result(run) {
    this.turnedText.hidden = this.turnedButton.hidden = true;
    this.wayButton.hidden = run.status !== "lost";
    this.turned = null;
    if (run.status !== "lost") return;
    this.turnedText.hidden = false;
    this.turnedText.textContent = "Working out where it turned…";
    const data = await this.game.send("turned", null, { method: "GET" });
    if (!data) return;
    this.turned = { ...data.turned, removed: data.run.removed };
    this.turnedText.textContent = turnedWords(data.turned);
    this.turnedButton.hidden = data.turned.turned_at == null;
  }

  /** The position just before the pair that lost the pile, that pair shown. */
  showTurned() {
    const t = this.turned;
    if (!t || t.turned_at == null) return;
    for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
    const before = t.removed.slice(0, t.turned_at - 1);
    this.#startReplay(before, [], null);
    this.pauseButton.hidden = this.stepButton.hidden = true;
    this.barText.textContent = `Before your ${ordinal(t.turned_at)} pair`;
    const [a, b] = t.pair.map((id) => this.game.indexById.get(id));
    this.game.scene.showHint(a, b);
    this.game.say(`Taking ${tileWords(t.face)} here lost the pile.`);
  }
}
