// Together on the room page: one shared 3D pile (the solo board's scene),
// the strip of players in turn order with whose turn it is lit, a 30 s turn
// countdown from the server's deadline, and each pair taken flying to its
// taker's card. Only the seat whose turn it is may pick tiles; the pile can
// always be moved and turned.

import { Geometry, groupOf } from "../board/rules.js";
import { faceName } from "../board/a11y.js";
import { PileController } from "../board/controller.js";
import { BoardScene } from "../board/scene.js";
import { drawAtlas } from "../board/faces.js";
import { digits, fill, gettext, ngettext } from "../i18n.js";
import { raceMs, standingOf } from "./state.js";

const TURN_S = 30;
const BOT_NOTES = { easy: gettext("easy bot"), medium: gettext("medium bot"), hard: gettext("hard bot") };
const MESSAGE_MS = 4500;

/** @typedef {import("./state.js").Round} Round */
/** @typedef {import("./state.js").Move} Move */

/**
 * Milliseconds left in the turn, from the server's deadline on the shared clock.
 * @param {Round} round
 * @param {number} serverNow
 * @returns {number | null}
 */
export function turnLeftMs(round, serverNow) {
  if (round.deadline_ms === null || round.deadline_ms === undefined) return null;
  return Math.max(0, round.deadline_ms - raceMs(round, serverNow));
}

// The faces the 3D pile wears, drawn once into one image that every chip
// shows its own cell of (a CSS variable, so the image is set only once).
let atlas = null;

function faceAtlas() {
  if (!atlas) {
    const { canvas, cells, cellSize } = drawAtlas();
    atlas = { cells, cols: Math.round(1 / cellSize[0]), rows: Math.round(1 / cellSize[1]) };
    const root = document.documentElement.style;
    root.setProperty("--face-atlas", `url(${canvas.toDataURL()})`);
    root.setProperty("--face-atlas-size", `${atlas.cols * 100}% ${atlas.rows * 100}%`);
  }
  return atlas;
}

/**
 * A small tile showing `face`, as on the pile.
 * @param {string} face
 * @param {string} [extra] more classes
 */
export function chip(face, extra = "") {
  const { cells, cols, rows } = faceAtlas();
  const [u, v] = cells.get(face);
  const col = Math.round(u * cols);
  const row = Math.round((1 - v) * rows) - 1;
  const el = document.createElement("span");
  el.className = `face-chip ${extra}`.trim();
  el.dataset.face = face;
  el.title = faceName(face);
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", faceName(face));
  el.style.backgroundPosition = `${(col / (cols - 1)) * 100}% ${(row / (rows - 1)) * 100}%`;
  return el;
}

/**
 * The players' cards in turn order: name, points and lead, the pairs and
 * sets taken; whose turn it is lit. Shared with the watch page. Returns
 * the card element of each seat (pairs fly to it).
 * @param {HTMLElement} list
 * @param {Round} round
 * @param {{me?: number | null}} [who] `me`: this page's seat
 * @returns {Map<number, HTMLElement>}
 */
export function renderSeats(list, round, { me = null } = {}) {
  const cards = new Map();
  list.replaceChildren(
    ...round.seats.map((s) => {
      const li = document.createElement("li");
      li.className = "seat-card";
      li.dataset.seat = String(s.seat);
      li.dataset.points = String(s.points);
      li.classList.toggle("turn", s.seat === round.turn_seat);
      li.classList.toggle("away", s.away || s.left);
      const head = document.createElement("div");
      head.className = "seat-head";
      const name = document.createElement("span");
      name.className = "seat-name";
      name.textContent = s.seat === me ? fill(gettext("%(name)s (you)"), { name: s.name }) : s.name;
      const points = document.createElement("span");
      points.className = "seat-points";
      points.textContent = digits(s.points);
      head.append(name, points);
      const lead = document.createElement("div");
      lead.className = "seat-lead";
      const note = s.left ? gettext("left") : s.away ? gettext("away") : s.bot ? BOT_NOTES[s.bot] : "";
      const leadText = fill(gettext("lead %(lead)s"), { lead: digits(s.lead ? `+${s.lead}` : "0") });
      lead.textContent = note ? `${leadText} · ${note}` : leadText;
      const taken = document.createElement("div");
      taken.className = "seat-taken";
      const setGroups = new Set(s.sets);
      for (const [face] of s.taken) {
        taken.append(chip(face, setGroups.has(groupOf(face)) ? "in-set" : ""));
      }
      li.append(head, lead, taken);
      if (s.sets.length) {
        const sets = document.createElement("div");
        sets.className = "seat-sets";
        sets.textContent = fill(ngettext("%(n)s set", "%(n)s sets", s.sets.length), { n: digits(s.sets.length) });
        li.append(sets);
      }
      cards.set(s.seat, li);
      return li;
    }),
  );
  return cards;
}

/**
 * What a pair that left no pair did: the pile laid out again and the
 * points its taker lost, or the game's end when no layout could help.
 * @param {Round} round
 * @param {Move} move
 * @param {boolean} relaid
 */
export function stuckText(round, move, relaid) {
  if (!relaid) return gettext("No pairs left, and no new layout could help: the game is over.");
  const name = round.seats.find((s) => s.seat === move.seat)?.name ?? "";
  if (!move.penalty) return gettext("No pairs left: the pile was laid out again.");
  return fill(gettext("No pairs left: the pile was laid out again, −%(points)s for %(name)s"), {
    points: digits(move.penalty),
    name,
  });
}

/**
 * The room page's elements of a Together game.
 * @typedef {object} TogetherElements
 * @property {HTMLElement} pile the shared 3D pile's container (data-blocked)
 * @property {HTMLElement} strip the players' cards
 * @property {HTMLElement} turn whose turn it is
 * @property {HTMLElement} countdown the turn's seconds left
 * @property {HTMLElement} hint the hint bulb
 * @property {HTMLElement} fit the button that fits the view again
 * @property {HTMLElement} message the line that says what happened
 * @property {HTMLElement} standings the final standings' box
 * @property {HTMLElement} standingsList their list
 */

export class TogetherView {
  /**
   * @param {TogetherElements} els
   * @param {import("./connection.js").RoomConnection} conn the room connection
   * @param {import("./connection.js").Act} act sends an action to the server
   */
  constructor(els, conn, act) {
    this.els = els;
    this.conn = conn;
    this.act = act;
    /** @type {PileController | null} made at the first Together deal */
    this.board = null;
    this.number = null;
    this.moves = 0;
    this.faces = null;
    this.standing = [];
    this.geometry = null;
    this.cards = new Map();
    els.hint.addEventListener("click", () => this.hint());
    els.fit.addEventListener("click", () => this.scene.fit(this.standing, true));
  }

  get scene() {
    return this.board?.scene ?? null;
  }

  /** The held tile's index, -1 when none. */
  get selected() {
    return this.board?.selected ?? -1;
  }

  get round() {
    return this.conn.state?.round ?? null;
  }

  /** Whether this seat may pick now: its turn, the clock running. @param {Round | null} [round] */
  myTurn(round = this.round) {
    return (
      round?.status === "playing" &&
      !round.paused &&
      round.turn_seat === this.conn.seat &&
      this.conn.serverNow() >= (round.running_since ?? Infinity)
    );
  }

  /** Show the shared pile, the cards and the turn. @param {Round} round */
  render(round) {
    if (!this.board) {
      this.board = new PileController((hooks) => new BoardScene(this.els.pile, hooks), {
        pile: () => this,
        canPick: () => this.myTurn(),
        // The pair leaves when the server's move comes: a turn may have ended.
        take: (a, b) => this.act("take", { a, b, move: this.round.moves.length }),
        say: (text) => this.say(text),
        marker: this.els.pile,
        onMovedChange: (moved) => {
          this.els.fit.hidden = !moved;
        },
      });
    }
    const standing = standingOf(round.standing, round.positions.length);
    if (this.number !== round.number) this.build(round, standing);
    else this.follow(round, standing);
    this.standing = standing;
    const free = new Set(this.geometry.freeTiles(standing));
    if (this.selected >= 0 && !(free.has(this.selected) && this.myTurn(round))) {
      this.select(-1);
    }
    this.scene.setBlocked(standing.map((s, i) => s && !free.has(i)));
    this.cards = renderSeats(this.els.strip, round, { me: this.conn.seat });
    this.els.pile.dataset.turn = String(round.turn_seat ?? "");
    this.els.pile.dataset.moves = String(round.moves.length);
    this.renderStandings(round);
    this.tick();
  }

  /** A new deal's pile. @param {Round} round @param {boolean[]} standing */
  build(round, standing) {
    this.number = round.number;
    this.moves = round.moves.length;
    this.faces = round.faces;
    this.board.reset();
    const tiles = round.positions.map(([x, y, z], i) => ({ x, y, z, face: round.faces[i] }));
    this.geometry = new Geometry(tiles);
    this.scene.setTiles(tiles, standing, true);
  }

  /**
   * New moves: each pair flies off the pile to its taker's card.
   * @param {Round} round
   * @param {boolean[]} standing
   */
  follow(round, standing) {
    const fresh = round.moves.slice(this.moves);
    this.moves = round.moves.length;
    for (const move of fresh) {
      const [a, b] = move.pair;
      this.flyToCard(move, this.faces);
      this.scene.fly(a, b, true);
    }
    const relaid = round.faces.join() !== this.faces.join();
    if (relaid) {
      // The pile was stuck and laid out again.
      this.faces = round.faces;
      this.scene.setFaces(round.faces);
      this.scene.hopAll();
    }
    const stuck = fresh.filter((m) => m.stuck).at(-1);
    if (stuck) this.say(stuckText(round, stuck, relaid));
    if (!fresh.length) this.scene.setStanding(standing);
    this.scene.followPile(standing);
  }

  /** @param {Move} move @param {readonly string[]} faces */
  flyToCard(move, faces) {
    const card = this.cards.get(move.seat);
    if (!card) return;
    const target = card.getBoundingClientRect();
    move.pair.forEach((i, k) => {
      const from = this.scene.screenPoint(i);
      const el = chip(faces[i], "flying");
      el.style.left = `${from.x}px`;
      el.style.top = `${from.y}px`;
      document.body.append(el);
      el.getBoundingClientRect(); // the start, laid out before the move
      el.style.left = `${target.left + target.width / 2 - 12 + k * 14}px`;
      el.style.top = `${target.top + target.height / 2}px`;
      el.style.transform = "translate(-50%, -50%) scale(1)";
      el.style.opacity = "0.3";
      setTimeout(() => el.remove(), 800);
    });
  }

  /** A tap on tile `i` of the shared pile. @param {number} i */
  tap(i) {
    this.board?.tap(i);
  }

  /** Hold tile `i` (-1: none). @param {number} i */
  select(i) {
    this.board?.select(i);
  }

  /** The pile goes (the next deal is a race, or the player leaves). */
  dispose() {
    this.board?.dispose();
    this.board = null;
    this.number = null;
    this.geometry = null;
  }

  async hint() {
    const reply = await this.act("hint");
    if (reply.type !== "hint") return;
    if (reply.pair) this.scene.showHint(...reply.pair);
    else this.say(gettext("No pairs left."));
  }

  /** @param {string} text */
  say(text) {
    const el = this.els.message;
    el.textContent = text;
    clearTimeout(this.messageTimer);
    this.messageTimer = setTimeout(() => (el.textContent = ""), MESSAGE_MS);
  }

  /** @param {Round} round */
  renderStandings(round) {
    const over = round.status === "over";
    this.els.standings.hidden = !over;
    if (!over) return;
    const names = new Map(round.seats.map((s) => [s.seat, s.name]));
    this.els.standingsList.replaceChildren(
      ...round.standings.map((p) => {
        const li = document.createElement("li");
        li.dataset.seat = p.seat;
        const pace = digits((p.average_ms / 1000).toFixed(1));
        const line = gettext("%(place)s. %(name)s: %(points)s points (%(pace)s s a turn)");
        li.textContent = fill(line, {
          place: digits(p.place),
          name: names.get(p.seat),
          points: digits(p.points),
          pace,
        });
        return li;
      }),
    );
  }

  /** The turn line and its countdown; called four times a second. */
  tick() {
    const round = this.round;
    if (!round || round.mode !== "together") return;
    const { turn, countdown } = this.els;
    const left = turnLeftMs(round, this.conn.serverNow());
    const who = round.seats.find((s) => s.seat === round.turn_seat);
    if (round.status === "over") {
      turn.textContent = gettext("Game over");
    } else if (this.conn.serverNow() < (round.running_since ?? 0)) {
      turn.textContent = gettext("The pile is being built…");
    } else if (!who) {
      turn.textContent = gettext("Waiting for a player to come back");
    } else {
      turn.textContent =
        who.seat === this.conn.seat
          ? gettext("Your turn: take a pair")
          : fill(gettext("%(name)s's turn"), { name: who.name });
    }
    const secs = left === null ? null : Math.ceil(left / 1000);
    countdown.textContent = secs === null ? "" : fill(gettext("%(n)s s"), { n: digits(secs) });
    countdown.classList.toggle("low", secs !== null && secs <= 10);
    countdown.style.setProperty("--left", String(left === null ? 0 : left / (TURN_S * 1000)));
    turn.classList.toggle("mine", this.myTurn(round));
    // The bulb is yours on your own turn only.
    this.els.hint.hidden = !this.myTurn(round);
  }
}
