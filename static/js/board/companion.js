// The companion: was it winnable? Back to safety, the quiet warning, a way
// through played at a watchable pace, and where a lost run turned. The server
// answers every question (docs/api.md); this module only asks and shows. It
// builds its own buttons into the page, so the board's template and game.js
// need only a few hooks: the Game gives it `send`, `show`, `say` and
// `watching` (taps are ignored while a replay runs).

import { digits, fill, gettext, ngettext, pgettext } from "../i18n.js";
import { faceName } from "./a11y.js";

const WARN_KEY = "tiles.warn";
export const REPLAY_MS = 700;

const SUITS = {
  characters: gettext("%(n)s of Characters"),
  dots: gettext("%(n)s of Dots"),
  bamboo: gettext("%(n)s of Bamboo"),
};

/** "5 of Dots", "East wind": a tile's kind, without an article. */
function tileKind(face) {
  const [kind, value] = face.split("-");
  if (SUITS[kind]) return fill(SUITS[kind], { n: digits(value) });
  return faceName(face);
}

/** "the 5 of Dots", "the East wind": how the result screen names a tile. */
export function tileWords(face) {
  return fill(gettext("the %(tile)s"), { tile: tileKind(face) });
}

// English ordinals by their last digits; a language with one ordinal form
// translates all four alike.
const ORDINALS = {
  st: pgettext("ordinal", "%(n)sst"),
  nd: pgettext("ordinal", "%(n)snd"),
  rd: pgettext("ordinal", "%(n)srd"),
  th: pgettext("ordinal", "%(n)sth"),
};

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd ... */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return fill(ORDINALS[suffix], { n: digits(n) });
}

/** What back to safety found, in a sentence. */
export function safetyWords(found) {
  if (!found.exact) {
    return gettext(
      "The search ran out of time before it could tell how far back the pile could still be cleared; nothing was undone.",
    );
  }
  if (found.clearable_now) return gettext("The pile can still be cleared: no need to go back.");
  if (found.pairs_back == null) return gettext("No position of this game could be cleared.");
  const n = found.pairs_back;
  const words = ngettext(
    "%(n)s pair back the pile could still be cleared: you are there now.",
    "%(n)s pairs back the pile could still be cleared: you are there now.",
    n,
  );
  return fill(words, { n: digits(n) });
}

/** The first step of a certificate that the pile was lost, for people
 * (docs/certificates.md); faceOf(id) is the face of one of the run's tiles. */
export function whyWords(why, faceOf) {
  const groups = why?.rule === "no-order" ? why.groups : why?.rule === "no-pairing" ? [why.group] : [];
  if (!groups.length) return "";
  const [tile, other] = groups.map((group) => tileKind(faceOf(group[0])));
  let words;
  if (why.rule === "no-pairing") {
    words =
      groups[0].length === 2
        ? gettext("The last two %(tile)s lie one on the other.")
        : gettext("Whichever way the four %(tile)s are paired, one lies on its partner.");
  } else if (groups.length === 1) {
    words =
      groups[0].length === 2
        ? gettext("The last two %(tile)s can never both be free at once.")
        : gettext("Whichever way the four %(tile)s are paired, their pairs cannot all be taken.");
  } else if (groups.length === 2) {
    words = gettext(
      "Whichever way the %(tile)s and the %(other)s are paired, their pairs block each other: no order of play takes them all.",
    );
  } else {
    words = ngettext(
      "Whichever way the %(tile)s, the %(other)s and %(n)s more kind are paired, their pairs block each other: no order of play takes them all.",
      "Whichever way the %(tile)s, the %(other)s and %(n)s more kinds are paired, their pairs block each other: no order of play takes them all.",
      groups.length - 2,
    );
  }
  return " " + fill(words, { tile, other, n: digits(groups.length - 2) });
}

/** Where a finished run turned, in a sentence. */
export function turnedWords(turned, tiles = []) {
  if (!turned.exact) return gettext("The search ran out of time before it found where this game turned.");
  if (turned.clearable_now) return gettext("The pile could still be cleared when you stopped.");
  if (turned.turned_at == null) return gettext("This deal could not be cleared from the start.");
  // The certificate may name other kinds than the pair it turned on.
  const faces = new Map(tiles.map((tile) => [tile.id, tile.face]));
  const why = whyWords(turned.why, (id) => faces.get(id) ?? turned.face);
  const words = gettext("It turned on your %(nth)s pair, %(tile)s: after it the pile could no longer be cleared.");
  return fill(words, { nth: ordinal(turned.turned_at), tile: tileWords(turned.face) }) + why;
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
      stuck.append(button("safety", gettext("Back to safety")), button("way", gettext("Show me a way through")));
    }
    const menu = document.querySelector(".more-menu");
    if (menu) {
      menu.prepend(
        button("safety", gettext("Back to safety")),
        button("way", gettext("Show me a way through")),
        button("warn", gettext("Warn me when the pile is lost"), { id: "warn-toggle" }),
      );
    }
    this.note = document.createElement("div");
    this.note.id = "lost-note";
    this.note.className = "stuck";
    this.note.setAttribute("role", "status");
    this.note.hidden = true;
    this.note.append(
      Object.assign(document.createElement("span"), {
        textContent: gettext("That pair lost the pile: it can no longer be cleared."),
      }),
      button("safety", gettext("Back to safety")),
    );
    const notes = document.querySelector(".board-notes");
    if (notes) notes.append(this.note);
    this.bar = document.createElement("div");
    this.bar.id = "replay";
    this.bar.className = "replay-bar";
    this.bar.hidden = true;
    this.barText = Object.assign(document.createElement("span"), { className: "tabular" });
    this.pauseButton = button("replay-pause", gettext("Pause"));
    this.stepButton = button("replay-step", gettext("Step"));
    this.bar.append(this.barText, this.pauseButton, this.stepButton, button("replay-done", gettext("Back to my game")));
    const stage = document.querySelector(".board-stage");
    if (stage) stage.append(this.bar);
    const note = this.$("result-note");
    if (note) {
      this.turnedText = Object.assign(document.createElement("p"), { id: "result-turned" });
      this.turnedText.hidden = true;
      this.turnedButton = button("turned-show", gettext("Show where it turned"), { hidden: true });
      this.wayButton = button("way", gettext("Show me a way through"), { hidden: true, id: "result-way" });
      this.wayOpens = Object.assign(document.createElement("p"), { id: "result-way-opens", className: "muted" });
      this.wayOpens.hidden = true;
      note.after(this.turnedText, this.wayOpens);
      const actions = this.$("result").querySelector(".dialog-actions");
      actions.prepend(this.turnedButton, this.wayButton);
    }
    this.#showWarn();
  }

  #showWarn() {
    const toggle = this.$("warn-toggle");
    if (toggle) toggle.setAttribute("aria-pressed", String(this.warn));
  }

  /** Hide the quiet warning's note (the stuck notice says it all). */
  quiet() {
    this.note.hidden = true;
  }

  /** The run changed: hide what no longer applies. */
  update(run) {
    if (run.status !== "playing") this.note.hidden = true;
    // A ranked daily gives no way through (the server refuses it too).
    /** @type {NodeListOf<HTMLElement>} */
    const ways = document.querySelectorAll("[data-action=way]:not(#result-way)");
    for (const el of ways) {
      el.hidden = Boolean(run.way_opens);
    }
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
    // From the settings dialog: the player watches the pile go back.
    for (const dialog of document.querySelectorAll("dialog")) dialog.close();
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
      this.note.hidden = this.game.root.dataset.stuck === "1";
    }
  }

  // --- a way through --------------------------------------------------
  async wayThrough() {
    const run = this.game.run;
    if (!run || this.replay) return;
    for (const dialog of document.querySelectorAll("dialog")) dialog.close();
    const data = await this.game.send("way", {});
    if (!data) return;
    const { way } = data;
    const base = way.from === "start" ? [] : data.run.removed.map((p) => [...p]);
    this.game.say(
      way.from === "start"
        ? gettext("The pile could no longer be cleared, so here is a way through from the start.")
        : gettext("A way through from here."),
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
    this.barText.textContent = fill(gettext("%(k)s of %(n)s pairs"), { k: digits(r.k), n: digits(r.pairs.length) });
    this.pauseButton.textContent = r.paused ? gettext("Play") : gettext("Pause");
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
    this.wayButton.hidden = run.status !== "lost" || Boolean(run.way_opens);
    // When the way through opens, worded by the server in the page's language.
    this.wayOpens.textContent = run.way_opens ? run.way_opens.message : "";
    this.wayOpens.hidden = !run.way_opens;
    this.turned = null;
    if (run.status !== "lost") return;
    this.turnedText.hidden = false;
    this.turnedText.textContent = gettext("Working out where it turned…");
    const data = await this.game.send("turned", null, { method: "GET" });
    if (!data) return;
    this.turned = { ...data.turned, removed: data.run.removed };
    this.turnedText.textContent = turnedWords(data.turned, data.run.tiles);
    this.turnedButton.hidden = data.turned.turned_at == null;
  }

  /** The position just before the pair that lost the pile, that pair shown. */
  showTurned() {
    const t = this.turned;
    if (!t || t.turned_at == null) return;
    for (const dialog of document.querySelectorAll("dialog")) dialog.close();
    const before = t.removed.slice(0, t.turned_at - 1);
    this.#startReplay(before, [], null);
    this.pauseButton.hidden = this.stepButton.hidden = true;
    this.barText.textContent = fill(gettext("Before your %(nth)s pair"), { nth: ordinal(t.turned_at) });
    const [a, b] = t.pair.map((id) => this.game.indexById.get(id));
    this.game.scene.showHint(a, b);
    this.game.say(fill(gettext("Taking %(tile)s here lost the pile."), { tile: tileWords(t.face) }));
  }
}
