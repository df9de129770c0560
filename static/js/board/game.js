// The board page: one solo run, from the first deal to the result screen.
// The server decides every move and keeps the clock; the page answers taps at
// once with its own copy of the rules, sends what the player did, and falls
// back to whatever the server says when the two disagree.

import { Api } from "./api.js";
import { REASONS, faceName } from "./a11y.js";
import { Companion } from "./companion.js";
import { celebrate } from "./celebrate.js";
import { adoptLooks, calmMotion, keepLook, keepShading, looks, shadingOn } from "./prefs.js";
import { digits, fill, gettext } from "../i18n.js";
import { Geometry } from "./rules.js";
import { drawAtlas } from "./faces.js";
import { LookChoices } from "./settings.js";
import { PileController } from "./controller.js";
import { BoardScene } from "./scene.js";
import { Sound } from "./sound.js";

const MESSAGE_MS = 4500;
const RETRY_MS = 3000;

const KEYS = {
  u: "undo",
  h: "hint",
  s: "shuffle",
  p: "pause",
  escape: "pause",
  "?": "help",
  n: "new",
  r: "restart",
  g: "giveup",
  f: "fit",
  m: "mode",
  b: "shading",
  v: "flat",
  o: "settings",
};

// What can be done only while the clock runs.
const MOVES = new Set(["undo", "hint", "shuffle", "giveup"]);

/** A <dialog> of the page, by id. @param {string} id */
const dialog = (id) => /** @type {HTMLDialogElement} */ (document.getElementById(id));

/** The page's elements a selector finds. @param {string} selector */
const all = (selector) => /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(selector));

/** @param {number} ms */
function formatTime(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return digits(h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`);
}

class Game {
  /** @param {HTMLElement} root the #board element, with the run's URLs in its data */
  constructor(root) {
    this.root = root;
    this.boardKey = root.dataset.board;
    this.api = new Api(root.dataset.api);
    this.$ = (id) => document.getElementById(id);
    this.run = null;
    this.tiles = [];
    this.faces = [];
    this.standing = [];
    this.removed = []; // pairs of tile indices, in order
    this.indexById = new Map();
    this.geometry = null;
    this.clock = { base: 0, at: 0, running: false };
    this.messageTimer = 0;
    this.shownResult = null;
    // The account's tile set and table come with the page: this device takes them.
    const saved = document.getElementById("account-looks");
    if (saved) adoptLooks(JSON.parse(saved.textContent));
    this.looks = looks();
    this.sound = new Sound(this.looks.sound);

    this.board = new PileController((hooks) => new BoardScene(this.$("board-view"), hooks), {
      pile: () => this,
      // While the companion replays a way through, taps wait.
      canPick: () => !this.watching && this.run?.status === "playing",
      leaveAtOnce: true,
      take: (a, b) => this.#take(a, b),
      say: (text) => this.say(text),
      marker: root,
      list: this.$("free-tiles"),
      onSelect: (i) => {
        if (this.geometry) this.list.update(this.geometry.freeTiles(this.standing), this.faces, i);
      },
      sound: (name) => this.sound.play(name),
      onMovedChange: (moved) => {
        this.$("fit").hidden = !moved;
      },
    });
    this.scene = this.board.scene;
    this.list = this.board.list;
    this.shading = shadingOn();
    this.scene.setShading(this.shading);
    this.choices = new LookChoices(this.looks, (name, value) => this.#choose(name, value));
    this.#showToggles();
    // While the companion replays a way through, taps and tools wait.
    this.watching = false;
    this.companion = new Companion(this);
    this.#listen();
    setInterval(() => this.#tick(), 250);
    // For browser tests and tools: where a tile is drawn, and whether the
    // page has settled (no animation running, no request in flight).
    window.tilesBoard = {
      point: (id) => this.scene.screenPoint(this.indexById.get(id)),
      tappable: (id) => this.scene.tappablePoint(this.indexById.get(id)),
      idle: () => this.scene.idle && this.api.pending === 0,
      stats: () => ({
        frames: this.scene.frameCount,
        frameMs: this.scene.frameMs,
        calls: this.scene.renderer.info.render.calls,
        triangles: this.scene.renderer.info.render.triangles,
        // Where the camera stands and looks (bench/page.py's plain page takes the same view).
        camera: [...this.scene.camera.position.toArray(), ...this.scene.view.controls.target.toArray()],
      }),
      shakes: () => this.scene.shakes,
      sounds: () => this.sound.played,
      look: () => ({ ...this.scene.look, calm: this.scene.calm }),
      // The face atlas as this page draws it, or with other numerals or tile set.
      atlas: (numerals, set) => drawAtlas(document, numerals, set),
      // The tile a tap at (x, y) would pick (its id), or null.
      pickAt: (x, y) => {
        const i = this.scene.pick(x, y);
        return i >= 0 ? this.tiles[i].id : null;
      },
      glyph: (id) => this.scene.glyphSize(this.indexById.get(id)),
      bounds: () => this.scene.pileBounds(),
      turned: () => this.scene.view.turned,
      turn: (radians) => this.scene.view.turn(radians),
    };
  }

  // --- talking to the server ---------------------------------------------
  start() {
    return this.#send("", { board: this.boardKey }, { rebuild: true });
  }

  /** For the companion: the same queue and resync as the page's own actions. */
  send(path, body, opts) {
    return this.#send(path, body, opts);
  }

  async #send(path, body, opts = {}) {
    this.root.dataset.busy = "1";
    // "" starts or resumes a run; null is the run itself; else an action.
    let url = "";
    if (path !== "") url = path === null ? `/${this.run.id}` : `/${this.run.id}/${path}`;
    const result = await this.api.send(url, body, opts.method);
    const data = result.data || {};
    const run = data.run || (data.id ? data : null);
    if (!result.ok) this.#sayError(result.status, data);
    // While more requests are queued, an earlier answer would undo the
    // page's later moves on screen; only the last answer (or an error)
    // resets the board. Every answer resyncs the clock.
    if (run && (this.api.pending === 0 || !result.ok || opts.rebuild)) {
      this.#applyRun(run, opts.rebuild);
    } else if (run) {
      this.#syncClock(run);
    }
    if (this.api.pending === 0) this.root.dataset.busy = "0";
    // Lost connection: what the server holds is unknown, so ask it again.
    if (result.status === 0 && this.run) {
      setTimeout(() => this.#send(null, null, { method: "GET" }), RETRY_MS);
    }
    return result.ok ? data : null;
  }

  #sayError(status, data) {
    if (data.error === "covered" || data.error === "sides") this.say(REASONS[data.error]);
    else if (status === 0) this.say(gettext("No connection to the server. Try again in a moment."));
    else if (data.error === "stale") this.say(gettext("The board was out of step and has been reloaded."));
    else if (data.message) this.say(data.message);
    else this.say(fill(gettext("The server answered %(status)s."), { status: digits(status) }));
  }

  // --- applying the server's state ---------------------------------------
  #applyRun(run, rebuild) {
    const fresh = rebuild || !this.run || run.id !== this.run.id || run.tiles.length !== this.tiles.length;
    if (fresh) this.#setup(run);
    else this.#reconcile(run);
    this.run = run;
    this.root.dataset.status = run.status;
    this.root.dataset.mode = run.mode;
    this.#syncClock(run);
    this.#refresh();
    this.#showRun(run);
  }

  #setup(run) {
    this.tiles = run.tiles;
    this.faces = run.tiles.map((t) => t.face);
    this.indexById = new Map(run.tiles.map((t, i) => [t.id, i]));
    this.geometry = new Geometry(run.tiles);
    this.removed = run.removed.map(([a, b]) => [this.indexById.get(a), this.indexById.get(b)]);
    this.standing = run.tiles.map(() => true);
    for (const [a, b] of this.removed) this.standing[a] = this.standing[b] = false;
    this.board.reset();
    this.shownResult = run.status === "won" || run.status === "lost" ? run.id : null;
    this.list.setTiles(run.tiles);
    this.scene.setTiles(run.tiles, this.standing, true);
  }

  /** Bring the page's pile to the server's, animating what differs. */
  #reconcile(run) {
    const serverRemoved = run.removed.map(([a, b]) => [this.indexById.get(a), this.indexById.get(b)]);
    const key = ([a, b]) => (a < b ? `${a},${b}` : `${b},${a}`);
    const theirs = new Set(serverRemoved.map(key));
    const ours = new Set(this.removed.map(key));
    for (const pair of this.removed) if (!theirs.has(key(pair))) this.scene.fly(...pair, false);
    for (const pair of serverRemoved) if (!ours.has(key(pair))) this.scene.fly(...pair, true);
    this.removed = serverRemoved;
    this.standing = this.tiles.map(() => true);
    for (const [a, b] of this.removed) this.standing[a] = this.standing[b] = false;
    if (this.board.selected >= 0 && !this.standing[this.board.selected]) this.board.select(-1);
    const faces = run.tiles.map((t) => t.face);
    if (faces.some((f, i) => f !== this.faces[i])) {
      this.faces = faces;
      this.scene.setFaces(faces);
      this.scene.hopAll();
      this.sound.play("shuffle");
      this.board.select(-1);
    }
    if (theirs.size !== ours.size || [...theirs].some((k) => !ours.has(k))) {
      this.scene.followPile(this.standing);
    }
  }

  /** Show a position that is not the run's own (a replay); nothing is sent. */
  show(removedIds, faces) {
    const tiles = this.tiles.map((t, i) => ({ ...t, face: faces ? faces[i] : this.faces[i] }));
    this.#reconcile({ ...this.run, removed: removedIds, tiles });
    this.#refresh();
  }

  #syncClock(run) {
    const now = performance.now();
    const running = run.status === "playing";
    // A new pile: the server's clock starts when it has built.
    this.clock = { base: run.elapsed_ms, at: now + (run.starts_in_ms || 0), running };
    this.#tick();
  }

  #tick() {
    const c = this.clock;
    const ms = c.base + (c.running ? Math.max(0, performance.now() - c.at) : 0);
    const text = formatTime(ms);
    const el = this.$("timer");
    if (el.textContent !== text) el.textContent = text;
  }

  /** Everything that follows from the standing tiles: shading, free list, stuck. */
  #refresh() {
    const free = this.geometry.freeTiles(this.standing);
    const freeSet = new Set(free);
    this.scene.setBlocked(this.standing.map((s, i) => s && !freeSet.has(i)));
    this.list.update(free, this.faces, this.board.selected);
    const left = this.standing.filter(Boolean).length;
    this.$("tiles-left").textContent = digits(left);
    const run = this.run;
    const playing = run && run.status === "playing";
    const stuck = playing && left > 0 && !this.geometry.hasMove(this.standing, this.faces);
    this.$("stuck").hidden = !stuck;
    // One notice at a time: stuck says all the quiet warning would.
    if (stuck) this.companion.quiet();
    this.root.dataset.stuck = stuck ? "1" : "0";
    // Nothing that would do nothing looks active: while paused (a run
    // comes back paused after a reload) or over, only the cover resumes.
    for (const id of ["undo", "hint", "shuffle", "giveup"]) {
      const button = /** @type {HTMLButtonElement} */ (this.$(id));
      button.disabled = !playing || (id === "undo" && this.removed.length === 0);
    }
    this.root.dataset.left = String(left);
  }

  #showRun(run) {
    const canShuffle = Boolean(run.can_shuffle);
    const free = run.mode === "free";
    // Levels and dailies have no shuffle: neither the button nor its count.
    for (const el of all("[data-action=shuffle], [data-action-row=shuffle]")) {
      el.hidden = !canShuffle;
    }
    for (const el of all("[data-action=new]")) el.hidden = !free;
    for (const el of all("[data-action=again]")) el.hidden = free;
    // A lost new deal can be tried again; a fixed board has "Play again".
    for (const el of all("[data-action=retry]")) el.hidden = !(free && run.status === "lost");
    this.$("hint-count").textContent = digits(run.hints);
    this.$("pause-cover").hidden = run.status !== "paused";
    this.$("pause").setAttribute("aria-pressed", String(run.status === "paused"));
    this.companion.update(run);
    const over = run.status === "won" || run.status === "lost";
    if (over && this.shownResult !== run.id) {
      this.shownResult = run.id;
      // Let the last pair fly off before the result covers the table.
      setTimeout(() => this.#showResult(run), 650);
    }
  }

  #showResult(run) {
    const won = run.status === "won";
    this.$("result-title").textContent = won ? gettext("Cleared!") : gettext("Given up");
    this.$("result-time").textContent = formatTime(run.elapsed_ms);
    this.$("result-hints").textContent = digits(run.hints);
    this.$("result-shuffles").textContent = digits(run.shuffles);
    this.$("result-best").textContent = run.best_ms == null ? gettext("none yet") : formatTime(run.best_ms);
    let note = "";
    if (won && run.too_fast) note = gettext("The pairs came faster than hands can tap, so this clear is not ranked.");
    else if (won && !run.clean) note = gettext("Hints or shuffles were used, so this clear sets no best time.");
    else if (won && run.review === "waiting")
      note = gettext(
        "Faster than the game's quickest bot: this time goes on the leaderboard once an admin has reviewed it.",
      );
    else if (!won) note = gettext("A run given up counts as lost.");
    this.$("result-note").textContent = note;
    this.$("result-new-best").hidden = !(won && run.new_best);
    const next = this.$("next-level");
    if (next) next.hidden = !won;
    dialog("result").showModal();
    if (won) {
      this.sound.play("win");
      celebrate(this.$("celebration"), calmMotion());
    } else this.$("celebration").hidden = true;
    this.companion.result(run);
  }

  // --- the player's actions ----------------------------------------------
  /** A pair the controller has taken off the page's pile: to the server. */
  #take(a, b) {
    const move = this.removed.length;
    this.removed.push([a, b]);
    this.#refresh();
    this.#send("take", { a: this.tiles[a].id, b: this.tiles[b].id, move }).then((data) =>
      this.companion.afterTake(data),
    );
  }

  undo() {
    if (!this.#playing()) return;
    if (!this.removed.length) {
      this.say(gettext("Nothing to undo."));
      return;
    }
    const move = this.removed.length;
    const [a, b] = this.removed.pop();
    this.standing[a] = this.standing[b] = true;
    this.board.select(-1);
    this.scene.fly(a, b, false);
    this.scene.followPile(this.standing);
    this.#refresh();
    this.#send("undo", { move });
  }

  async hint() {
    if (!this.#playing()) return;
    const data = await this.#send("hint", {});
    const pair = data && data.hint && data.hint.pair;
    if (!pair) {
      if (data) {
        this.say(
          this.run.can_shuffle
            ? gettext("No pairs left: undo, restart or shuffle.")
            : gettext("No pairs left: undo or restart."),
        );
      }
      return;
    }
    const [a, b] = pair.map((id) => this.indexById.get(id));
    this.scene.showHint(a, b);
    // clearable is null when the engine ran out of time to check.
    this.say(
      data.hint.clearable === false
        ? gettext("These two match, but the pile can no longer be cleared: undo or shuffle.")
        : fill(gettext("Try %(tile)s with its match."), { tile: faceName(this.faces[a]) }),
    );
  }

  shuffle() {
    if (!this.#playing() || !this.run.can_shuffle) return;
    this.#send("shuffle", {});
  }

  restart() {
    if (!this.run) return;
    this.#closeDialogs();
    this.#send("restart", {}, { rebuild: true });
  }

  newDeal() {
    if (this.run && this.run.mode !== "free") return;
    this.#closeDialogs();
    this.#send("", { board: this.boardKey, fresh: true }, { rebuild: true });
  }

  /** A fixed board (daily, level) once more from the start, as a new run. */
  playAgain() {
    this.#closeDialogs();
    this.#send("", { board: this.boardKey }, { rebuild: true });
  }

  giveUp() {
    if (!this.#playing()) return;
    dialog("confirm").showModal();
  }

  togglePause() {
    if (!this.run) return;
    if (this.run.status === "playing") {
      this.$("pause-cover").hidden = false;
      this.#send("pause", {});
    } else if (this.run.status === "paused") {
      this.$("pause-cover").hidden = true;
      this.#send("resume", {});
    }
  }

  #playing() {
    return Boolean(this.run) && this.run.status === "playing" && !this.watching;
  }

  // --- page furniture ---------------------------------------------------------
  say(text) {
    const el = this.$("message");
    el.textContent = text;
    clearTimeout(this.messageTimer);
    if (text) this.messageTimer = setTimeout(() => (el.textContent = ""), MESSAGE_MS);
  }

  #showToggles() {
    const shading = this.$("shading");
    shading.setAttribute("aria-pressed", String(this.shading));
    this.$("mode").setAttribute("aria-pressed", String(this.scene.view.rotateFirst));
    this.$("flat").setAttribute("aria-pressed", String(this.looks.flat));
    this.$("sound").setAttribute("aria-pressed", String(this.looks.sound));
  }

  /** A look chosen in the settings (or by a key): shown, kept here and with the account. */
  #choose(name, value) {
    this.looks[name] = value;
    keepLook(name, value);
    if (name === "sound") this.sound.setOn(value);
    else this.scene.setLook({ [name]: value });
    this.#showToggles();
    // Kept with a signed-in player's account too; a guest's stays on this device.
    new Api(this.root.dataset.looksUrl).send("", this.looks);
  }

  action(name) {
    // A key for a move while paused: say how to go on, not nothing.
    if (this.run?.status === "paused" && MOVES.has(name)) {
      return this.say(gettext("Paused: tap to go on."));
    }
    switch (name) {
      case "undo":
        return this.undo();
      case "hint":
        return this.hint();
      case "shuffle":
        return this.shuffle();
      case "restart":
        return this.restart();
      case "new":
        return this.newDeal();
      case "again":
        return this.playAgain();
      case "retry":
        return this.restart();
      case "settings":
        return dialog("settings").showModal();
      case "flat":
        return this.#choose("flat", !this.looks.flat);
      case "sound":
        return this.#choose("sound", !this.looks.sound);
      case "giveup":
        return this.giveUp();
      case "confirm-giveup":
        dialog("confirm").close();
        return this.#send("give-up", {});
      case "pause":
      case "resume":
        return this.togglePause();
      case "help":
        return dialog("help").showModal();
      case "fit":
        return this.scene.fit(this.standing, true);
      case "mode":
        this.scene.setRotateFirst(!this.scene.view.rotateFirst);
        return this.#showToggles();
      case "shading":
        this.shading = !this.shading;
        keepShading(this.shading);
        this.scene.setShading(this.shading);
        return this.#showToggles();
      case "close":
        return this.#closeDialogs();
      default:
        return this.companion.action(name);
    }
  }

  #closeDialogs() {
    // Closing a closed dialog does nothing.
    for (const dialog of document.querySelectorAll("dialog")) dialog.close();
  }

  #listen() {
    document.addEventListener("click", (e) => {
      const target = /** @type {Element} */ (e.target);
      const button = /** @type {HTMLButtonElement | null} */ (target.closest("[data-action]"));
      if (button && !button.disabled) this.action(button.dataset.action);
    });
    document.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (document.querySelector("dialog[open]")) return;
      const target = /** @type {Element} */ (e.target);
      const tag = target.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
      if (e.key.startsWith("Arrow") && !this.$("free-tiles").contains(target)) {
        e.preventDefault();
        this.list.enter();
        return;
      }
      const name = KEYS[e.key.toLowerCase()];
      if (!name) return;
      e.preventDefault();
      this.action(name);
    });
    // A hidden tab stops the clock: the pile is covered when the player returns.
    document.addEventListener("visibilitychange", () => {
      if (document.hidden && this.#playing()) this.togglePause();
    });
  }
}

const root = document.getElementById("board");
if (root) new Game(root).start();
