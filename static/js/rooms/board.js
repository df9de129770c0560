// A pile drawn flat, seen from above: one element per tile, placed by its
// (x, y, z) and shifted a little up-left per level so stacks show. The full
// size is the racer's own board (free tiles are buttons); the small size is
// a racer's pile in the players' strip.

import { faceName } from "../board/a11y.js";

// Plain symbols every system font has (no CJK font is assumed).
const SUIT_MARKS = { dots: "●", bamboo: "‖", characters: "✶" };
const HONOURS = {
  "wind-east": "E",
  "wind-south": "S",
  "wind-west": "W",
  "wind-north": "N",
  "dragon-red": "Rd",
  "dragon-green": "Gr",
  "dragon-white": "Wh",
};

export function shortLabel(face) {
  if (HONOURS[face]) return HONOURS[face];
  const [kind, value] = face.split("-");
  if (SUIT_MARKS[kind]) return `${value}${SUIT_MARKS[kind]}`;
  return kind === "flower" ? `✿${value[0].toUpperCase()}` : `☀${value[0].toUpperCase()}`;
}

export class FlatBoard {
  /** `unit`: pixels per half tile width; `onPick(i)` makes free tiles buttons. */
  constructor(container, positions, { unit, onPick = null, mini = false }) {
    this.positions = positions;
    this.onPick = onPick;
    this.el = document.createElement("div");
    this.el.className = mini ? "flat-board mini" : "flat-board";
    container.replaceChildren(this.el);
    this.tiles = positions.map((_, i) => {
      const tile = document.createElement(onPick ? "button" : "div");
      tile.className = "tile";
      tile.dataset.tile = i;
      if (onPick) {
        tile.type = "button";
        tile.addEventListener("click", () => this.onPick(i));
      }
      this.el.append(tile);
      return tile;
    });
    this.layout(unit);
  }

  layout(unit) {
    const lift = unit * 0.35;
    let width = 0;
    let height = 0;
    this.positions.forEach(([x, y, z], i) => {
      const style = this.tiles[i].style;
      const left = x * unit - z * lift + this.maxZ() * lift;
      const top = y * unit * 1.3 - z * lift + this.maxZ() * lift;
      style.left = `${left}px`;
      style.top = `${top}px`;
      style.width = `${2 * unit}px`;
      style.height = `${2.6 * unit}px`;
      style.zIndex = String(z * 1000 + y * 10 + x);
      width = Math.max(width, left + 2 * unit);
      height = Math.max(height, top + 2.6 * unit);
    });
    this.el.style.width = `${width}px`;
    this.el.style.height = `${height}px`;
    this.el.style.fontSize = `${unit * 0.9}px`;
  }

  maxZ() {
    return Math.max(...this.positions.map((p) => p[2]));
  }

  /** Show the standing tiles; `faces` labels them (own board only). */
  update(standing, { faces = null, free = null, selected = null, hint = [] } = {}) {
    this.tiles.forEach((tile, i) => {
      tile.hidden = !standing[i];
      if (!standing[i] || !faces) return;
      tile.textContent = shortLabel(faces[i]);
      tile.dataset.face = faces[i];
      const isFree = free ? free.has(i) : false;
      tile.classList.toggle("free", isFree);
      tile.classList.toggle("selected", selected === i);
      tile.classList.toggle("hinted", hint.includes(i));
      if (this.onPick) {
        tile.disabled = !isFree;
        tile.setAttribute("aria-label", faceName(faces[i]));
      }
    });
  }
}
