// A racer's own pile on the room page: the solo board's 3D scene and its
// hidden list of free tiles, driven by the room's state instead of the solo
// API. Taps answer at once with the page's copy of the rules; the pair is
// sent, and whenever the server's pile differs (a refusal, an undo, a
// shuffle) the board is brought back to it.

import { PileController } from "../board/controller.js";
import { BoardScene } from "../board/scene.js";
import { Geometry, groupOf } from "../board/rules.js";
import { safetyWords } from "../board/companion.js";
import { gettext } from "../i18n.js";
import { standingOf } from "./state.js";

const MESSAGE_MS = 4500;

/**
 * Pair up tiles that changed side (for the fly animation): each with a tile
 * of the same group, else with whichever is left.
 */
/**
 * @param {number[]} indices
 * @param {readonly string[]} faces
 * @returns {[number, number][]}
 */
function pairUp(indices, faces) {
  const rest = [...indices];
  const pairs = [];
  while (rest.length > 1) {
    const a = rest.shift();
    const k = rest.findIndex((b) => groupOf(faces[b]) === groupOf(faces[a]));
    pairs.push([a, rest.splice(k < 0 ? 0 : k, 1)[0]]);
  }
  return pairs;
}

/** @typedef {import("./connection.js").Act} Act */

/**
 * The room page's elements a racer's pile lives in.
 * @typedef {object} RaceElements
 * @property {HTMLElement} pile the 3D pile's container
 * @property {HTMLElement} list the hidden list of free tiles
 * @property {HTMLElement} message the line that says what happened
 * @property {HTMLElement} fit the button that fits the view again
 * @property {HTMLElement} root the room page's root (data-blocked)
 */

/** @typedef {import("./state.js").Racer} Racer */
/** @typedef {import("./state.js").Round} Round */

export class RaceView {
  /**
   * @param {RaceElements} els
   * @param {Act} act sends an action to the server; resolves with its reply
   * @param {() => Racer | null} mine the player's racer in the room's current state
   */
  constructor(els, act, mine) {
    this.els = els;
    this.act = act;
    this.mine = mine;
    /** @type {PileController | null} made at the first deal: no WebGL for a Together room */
    this.board = null;
    els.fit.addEventListener("click", () => this.scene.fit(this.standing, true));
    this.number = null;
    this.geometry = null;
    this.faces = [];
    this.standing = [];
    this.pending = 0; // takes sent and not yet answered
    this.moves = 0; // the undo log's length, counting takes in flight
    this.canPlay = false;
    this.messageTimer = 0;
  }

  get scene() {
    return this.board?.scene ?? null;
  }

  get list() {
    return this.board?.list ?? null;
  }

  /** The held tile's index, -1 when none. */
  get selected() {
    return this.board?.selected ?? -1;
  }

  /**
   * Show `me`'s pile of `round`; `canPlay` when taps may take pairs.
   * @param {Round} round
   * @param {Racer} me
   * @param {boolean} canPlay
   */
  render(round, me, canPlay) {
    if (!this.board) this.#start();
    this.canPlay = canPlay;
    if (this.number !== round.number) this.build(round, me);
    else if (this.pending === 0) this.follow(me);
    if (!canPlay) this.select(-1);
    this.refresh();
    this.els.pile.dataset.moves = String(me.moves);
  }

  #start() {
    const els = this.els;
    this.board = new PileController((hooks) => new BoardScene(els.pile, hooks), {
      pile: () => this,
      canPick: () => this.canPlay,
      leaveAtOnce: true,
      take: (a, b) => this.#send(a, b),
      say: (text) => this.say(text),
      marker: els.root,
      list: els.list,
      onSelect: () => this.refresh(),
      onMovedChange: (moved) => {
        els.fit.hidden = !moved;
      },
    });
  }

  /** The pile goes (the next deal is Together, or the player leaves). */
  dispose() {
    this.board?.dispose();
    this.board = null;
    this.number = null;
    this.geometry = null;
  }

  /** A new deal's pile. @param {Round} round @param {Racer} me */
  build(round, me) {
    this.number = round.number;
    this.faces = [...me.faces];
    this.standing = standingOf(me.standing, round.positions.length);
    this.board.reset();
    this.pending = 0;
    this.moves = me.moves;
    const tiles = round.positions.map(([x, y, z], i) => ({ x, y, z, id: i, face: me.faces[i] }));
    this.geometry = new Geometry(tiles);
    this.list.setTiles(tiles);
    this.scene.setTiles(tiles, this.standing, true);
  }

  /** Bring the pile to the server's: pairs fly off or back, new faces hop. @param {Racer} me */
  follow(me) {
    this.moves = me.moves;
    const theirs = standingOf(me.standing, this.standing.length);
    const gone = [];
    const back = [];
    theirs.forEach((up, i) => {
      if (this.standing[i] && !up) gone.push(i);
      else if (!this.standing[i] && up) back.push(i);
    });
    for (const [a, b] of pairUp(gone, this.faces)) this.scene.fly(a, b, true);
    for (const [a, b] of pairUp(back, this.faces)) this.scene.fly(a, b, false);
    if (gone.length % 2 || back.length % 2) this.scene.setStanding(theirs);
    this.standing = theirs;
    if (me.faces.some((f, i) => f !== this.faces[i])) {
      this.faces = [...me.faces];
      this.scene.setFaces(this.faces);
      this.scene.hopAll();
      this.select(-1);
    }
    if (gone.length || back.length) this.scene.followPile(this.standing);
  }

  /** Shading, the free-tile list and the selection, from the page's pile. */
  refresh() {
    const free = this.canPlay ? this.geometry.freeTiles(this.standing) : [];
    if (this.selected >= 0 && !free.includes(this.selected)) this.select(-1);
    this.scene.setBlocked(this.standing.map((up, i) => up && !this.geometry.isFree(i, this.standing)));
    this.list.update(free, this.faces, this.selected);
  }

  /** A tap on tile `i`, as on the canvas or the list of free tiles. @param {number} i */
  tap(i) {
    this.board?.tap(i);
  }

  /** Hold tile `i` (-1: none). @param {number} i */
  select(i) {
    this.board?.select(i);
  }

  /**
   * Take the pair (a, b) as a tap would, matching or not (the server judges).
   * @param {number} a
   * @param {number} b
   */
  take(a, b) {
    this.board?.take(a, b);
  }

  /**
   * A pair the controller has taken off the page's pile: to the server.
   * @param {number} a
   * @param {number} b
   */
  async #send(a, b) {
    this.refresh();
    const number = this.number;
    this.pending++;
    const reply = await this.act("take", { a, b, move: this.moves++ });
    if (number !== this.number) return; // a new deal was built meanwhile
    this.pending--;
    // The server said no (or has moved on): its pile is the true one. On
    // an ack the pile already shows the pair gone, its event follows.
    const me = this.mine();
    if (reply.type === "error" && this.pending === 0 && me) {
      this.follow(me);
      this.refresh();
    }
  }

  async hint() {
    const reply = await this.act("hint");
    if (reply.type !== "hint") return;
    // A hint on a stuck pile says so, rather than doing nothing.
    if (!reply.pair) this.say(gettext("No pairs left: shuffle (+60 s) or stop here."));
    else this.scene.showHint(...reply.pair);
  }

  /** Back to safety: the server undoes to the latest position of this
   * pile that can still be cleared (its events bring the pairs back), and
   * its answer is said as on the solo board. */
  async backToSafety() {
    this.select(-1);
    const reply = await this.act("safety", { move: this.moves });
    if (reply.type === "ack") this.say(safetyWords(reply.safety));
  }

  /** @param {string} text */
  say(text) {
    const el = this.els.message;
    el.textContent = text;
    clearTimeout(this.messageTimer);
    if (text) this.messageTimer = setTimeout(() => (el.textContent = ""), MESSAGE_MS);
  }
}
