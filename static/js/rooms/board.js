// A racer's pile drawn small and flat, seen from above, for the players'
// strip: one element per tile, placed by its (x, y, z) and shifted a little
// up-left per level so stacks show. Faces are not shown (only the player's
// own 3D pile wears them).

export class FlatBoard {
  /** `unit`: pixels per half tile width. */
  constructor(container, positions, { unit }) {
    this.positions = positions;
    this.el = document.createElement("div");
    this.el.className = "flat-board mini";
    container.replaceChildren(this.el);
    this.tiles = positions.map((_, i) => {
      const tile = document.createElement("div");
      tile.className = "tile";
      tile.dataset.tile = i;
      this.el.append(tile);
      return tile;
    });
    this.layout(unit);
  }

  layout(unit) {
    if (unit === this.unit) return;
    this.unit = unit;
    const lift = unit * 0.35;
    const maxZ = Math.max(...this.positions.map((p) => p[2]));
    let width = 0;
    let height = 0;
    this.positions.forEach(([x, y, z], i) => {
      const style = this.tiles[i].style;
      const left = x * unit - z * lift + maxZ * lift;
      const top = y * unit * 1.3 - z * lift + maxZ * lift;
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
  }

  /** Show the standing tiles. */
  update(standing) {
    this.tiles.forEach((tile, i) => {
      tile.hidden = !standing[i];
    });
  }
}

/**
 * A racer's card for a strip of small piles: a name, the pile from above and
 * a line under it, appended to `list`. `opts` names the tags and classes the
 * page styles, and the pile's scale.
 */
export function racerCard(list, seat, positions, opts) {
  const li = document.createElement("li");
  li.dataset.seat = seat;
  const name = document.createElement(opts.tag);
  name.className = opts.nameClass;
  const pile = document.createElement("div");
  const count = document.createElement(opts.tag);
  count.className = opts.countClass;
  li.append(name, pile, count);
  list.append(li);
  const board = new FlatBoard(pile, positions, { unit: opts.unit });
  return { li, name, count, board };
}

/** The flat pile's width and height at one pixel per half tile. */
export function flatSize(positions) {
  const maxZ = Math.max(...positions.map((p) => p[2]));
  const lift = 0.35 * maxZ;
  return {
    w: Math.max(...positions.map(([x, , z]) => x - 0.35 * z)) + lift + 2,
    h: Math.max(...positions.map(([, y, z]) => y * 1.3 - 0.35 * z)) + lift + 2.6,
  };
}

/**
 * How to lay `n` racers' cards into a box of `width` x `height` CSS px so
 * that every card shows and the piles are as large as they can be: the
 * number of columns and the pile's scale (at most `maxUnit`). `extra` is
 * what each card adds round its pile (padding, gaps, the text), [x, y] px;
 * `maxCols` keeps cards wide enough for their text.
 */
export function fitCards(n, size, width, height, extra, maxUnit, maxCols = n) {
  const most = Math.max(1, Math.min(n, maxCols));
  let best = { cols: most, unit: 0 };
  for (let cols = 1; cols <= most; cols++) {
    const rows = Math.ceil(n / cols);
    const unit = Math.min(maxUnit, (width / cols - extra[0]) / size.w, (height / rows - extra[1]) / size.h);
    if (unit > best.unit) best = { cols, unit };
  }
  // Below a pixel per half tile a pile is a smudge; the card still shows.
  return { cols: best.cols, unit: Math.max(1, Math.floor(best.unit * 4) / 4) };
}
