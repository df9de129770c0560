// The keyboard and screen-reader side of the board: a visually hidden list
// of the free tiles (one button each: face, level, position) that mirrors the
// pile, arrow keys that walk it by position on the table, and the names read
// out for faces and blocked reasons. Browser tests press these buttons too.

import { digits, fill, gettext } from "../i18n.js";

// Whole names, not words put together: a language may order them its own way.
const SUIT_NAMES = {
  characters: gettext("Characters %(n)s"),
  dots: gettext("Dots %(n)s"),
  bamboo: gettext("Bamboo %(n)s"),
};
const HONOUR_NAMES = {
  "wind-east": gettext("East wind"),
  "wind-south": gettext("South wind"),
  "wind-west": gettext("West wind"),
  "wind-north": gettext("North wind"),
  "dragon-red": gettext("Red dragon"),
  "dragon-green": gettext("Green dragon"),
  "dragon-white": gettext("White dragon"),
  "flower-plum": gettext("Plum flower"),
  "flower-orchid": gettext("Orchid flower"),
  "flower-chrysanthemum": gettext("Chrysanthemum flower"),
  "flower-bamboo": gettext("Bamboo flower"),
  "season-spring": gettext("Spring season"),
  "season-summer": gettext("Summer season"),
  "season-autumn": gettext("Autumn season"),
  "season-winter": gettext("Winter season"),
};

/**
 * A face code as words: "Dots 5", "East wind", "Red dragon", "Plum flower".
 * @param {string} face
 * @returns {string}
 */
export function faceName(face) {
  const [kind, value] = face.split("-");
  if (SUIT_NAMES[kind]) return fill(SUIT_NAMES[kind], { n: digits(value) });
  if (HONOUR_NAMES[face]) return HONOUR_NAMES[face];
  return `${value.charAt(0).toUpperCase() + value.slice(1)} ${kind}`;
}

/** What the page says about a tile a rule holds. @type {Record<import("./rules.js").BlockedReason, string>} */
export const REASONS = {
  covered: gettext("That tile is covered: clear the tile on top of it first."),
  sides: gettext("That tile is held on both sides: free its left or right side first."),
};

const DIRECTIONS = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

export class FreeTileList {
  /**
   * @param {HTMLElement} list the <ol> to fill
   * @param {(i: number) => void} onPick called with a tile index when its button is pressed
   * @param {(i: number) => void} onFocus called with a tile index (or -1) as keyboard focus moves
   */
  constructor(list, onPick, onFocus) {
    this.list = list;
    this.onPick = onPick;
    this.onFocus = onFocus;
    this.tiles = [];
    this.minX = 0;
    this.minY = 0;
    this.key = "";
    /** The tile button an event came from, or null. @param {Event} e */
    const buttonOf = (e) =>
      /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (e.target).closest("button[data-index]"));
    list.addEventListener("click", (e) => {
      const button = buttonOf(e);
      if (button) onPick(Number(button.dataset.index));
    });
    list.addEventListener("focusin", (e) => {
      const button = buttonOf(e);
      if (button) onFocus(Number(button.dataset.index));
    });
    list.addEventListener("focusout", (e) => {
      if (!list.contains(/** @type {Node | null} */ (e.relatedTarget))) onFocus(-1);
    });
    list.addEventListener("keydown", (e) => this.#walk(e));
  }

  /** @param {import("./controller.js").Tile[]} tiles */
  setTiles(tiles) {
    this.tiles = tiles;
    this.minX = Math.min(...tiles.map((t) => t.x));
    this.minY = Math.min(...tiles.map((t) => t.y));
    this.key = "";
  }

  /** A tile's place in words: level, column and row counted from 1. */
  place(i) {
    const t = this.tiles[i];
    const col = (t.x - this.minX) / 2 + 1;
    const row = (t.y - this.minY) / 2 + 1;
    const where = gettext("level %(level)s, column %(column)s, row %(row)s");
    return fill(where, { level: digits(t.z + 1), column: digits(col), row: digits(row) });
  }

  /**
   * Rebuild the list for these free tile indices (reading order), keeping focus.
   * @param {number[]} free
   * @param {readonly string[]} faces
   * @param {number} selected the held tile, -1 when none
   */
  update(free, faces, selected) {
    const order = [...free].sort((a, b) => {
      const ta = this.tiles[a];
      const tb = this.tiles[b];
      return ta.y - tb.y || ta.x - tb.x || tb.z - ta.z;
    });
    const key = `${order.join(",")}|${selected}|${order.map((i) => faces[i]).join(",")}`;
    if (key === this.key) return;
    this.key = key;
    const active = /** @type {HTMLElement} */ (document.activeElement);
    const focused = this.list.contains(active) ? Number(active.dataset.index) : null;
    const items = order.map((i) => {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.index = String(i);
      button.dataset.tile = String(this.tiles[i].id);
      button.dataset.face = faces[i];
      button.setAttribute("aria-pressed", String(i === selected));
      button.textContent = `${faceName(faces[i])}, ${this.place(i)}`;
      li.append(button);
      return li;
    });
    this.list.replaceChildren(...items);
    if (focused !== null) this.focus(free.includes(focused) ? focused : order[0]);
  }

  /** Keyboard focus on tile `i`'s button. @param {number} i */
  focus(i) {
    /** @type {HTMLButtonElement | null} */
    const button = this.list.querySelector(`button[data-index="${i}"]`);
    if (button) button.focus();
    else this.onFocus(-1);
  }

  /** Put keyboard focus on the first free tile (top left) when none has it. */
  enter() {
    const first = this.list.querySelector("button");
    if (first) first.focus();
  }

  /** @param {KeyboardEvent} e */
  #walk(e) {
    const dir = DIRECTIONS[e.key];
    if (!dir) return;
    const from = Number(/** @type {HTMLElement} */ (e.target).dataset.index);
    if (Number.isNaN(from)) return;
    e.preventDefault();
    const a = this.tiles[from];
    let best = -1;
    let bestScore = Infinity;
    for (const button of this.list.querySelectorAll("button")) {
      const i = Number(button.dataset.index);
      if (i === from) continue;
      const b = this.tiles[i];
      const along = (b.x - a.x) * dir[0] + (b.y - a.y) * dir[1];
      if (along <= 0) continue;
      const across = Math.abs((b.x - a.x) * dir[1]) + Math.abs((b.y - a.y) * dir[0]);
      // Prefer the nearest tile straight ahead over one far to the side.
      const score = along + across * 2.5;
      if (score < bestScore) {
        bestScore = score;
        best = i;
      }
    }
    if (best >= 0) this.focus(best);
  }
}
