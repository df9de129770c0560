// The free rule and face matching, a small copy of games/engine/layout.py and
// faces.py so the page can answer at once (which tiles are free, why one is
// blocked, whether any move is left). The server stays the judge of moves;
// tests/fixtures/rules-cases.json, made by the engine, keeps the two agreeing.

const FACE_GROUPS = (() => {
  const faces = [];
  for (const suit of ["characters", "dots", "bamboo"]) {
    for (let n = 1; n <= 9; n++) faces.push(`${suit}-${n}`);
  }
  faces.push("wind-east", "wind-south", "wind-west", "wind-north");
  faces.push("dragon-red", "dragon-green", "dragon-white");
  const groups = new Map(faces.map((f) => [f, f]));
  for (const f of ["plum", "orchid", "chrysanthemum", "bamboo"]) {
    groups.set(`flower-${f}`, "flower");
  }
  for (const s of ["spring", "summer", "autumn", "winter"]) {
    groups.set(`season-${s}`, "season");
  }
  return groups;
})();

/** Why a tile cannot be picked: covered from above, or held on both sides. */
/** @typedef {"covered" | "sides"} BlockedReason */

/** A tile's place in half-tile units: x across, y down the table, z the level. */
/** @typedef {{x: number, y: number, z: number}} Place */

/** Every face code, in the engine's order (suits, winds, dragons, flowers, seasons). */
export const FACES = Object.freeze([...FACE_GROUPS.keys()]);

/**
 * The matching group of a face: tiles match when their groups are equal.
 * @param {string} face
 * @returns {string}
 */
export function groupOf(face) {
  const group = FACE_GROUPS.get(face);
  if (group === undefined) throw new Error(`unknown face ${face}`);
  return group;
}

/** Whether faces `a` and `b` make a pair. @param {string} a @param {string} b */
export function matches(a, b) {
  return groupOf(a) === groupOf(b);
}

/**
 * The geometry of one set of tiles ({x, y, z} in half-tile units), computed
 * once: for each tile the indices of the tiles that cover it and of those
 * touching its left and right sides. `standing` is then an array of booleans
 * (or 0/1) by tile index.
 */
export class Geometry {
  /** @param {readonly Place[]} tiles */
  constructor(tiles) {
    this.size = tiles.length;
    /** @type {number[][]} by tile, the tiles on top of it */
    this.cover = [];
    /** @type {number[][]} by tile, the tiles touching its left side */
    this.left = [];
    /** @type {number[][]} by tile, the tiles touching its right side */
    this.right = [];
    /** @type {Map<number, number[]>} */
    const byLevel = new Map();
    tiles.forEach((t, i) => {
      if (!byLevel.has(t.z)) byLevel.set(t.z, []);
      byLevel.get(t.z).push(i);
    });
    for (const a of tiles) {
      const cover = [];
      const left = [];
      const right = [];
      for (const j of byLevel.get(a.z + 1) ?? []) {
        const b = tiles[j];
        if (Math.abs(b.x - a.x) < 2 && Math.abs(b.y - a.y) < 2) cover.push(j);
      }
      for (const j of byLevel.get(a.z)) {
        const b = tiles[j];
        if (Math.abs(b.y - a.y) >= 2) continue;
        if (b.x === a.x - 2) left.push(j);
        else if (b.x === a.x + 2) right.push(j);
      }
      this.cover.push(cover);
      this.left.push(left);
      this.right.push(right);
    }
  }

  /**
   * null when tile i is free, else "covered" or "sides" (held on both sides).
   * @param {number} i
   * @param {ArrayLike<boolean | number>} standing
   * @returns {BlockedReason | null}
   */
  blockedReason(i, standing) {
    if (this.cover[i].some((j) => standing[j])) return "covered";
    if (this.left[i].some((j) => standing[j]) && this.right[i].some((j) => standing[j])) {
      return "sides";
    }
    return null;
  }

  /** @param {number} i @param {ArrayLike<boolean | number>} standing */
  isFree(i, standing) {
    return this.blockedReason(i, standing) === null;
  }

  /**
   * Indices of the free standing tiles, in index order.
   * @param {ArrayLike<boolean | number>} standing
   * @returns {number[]}
   */
  freeTiles(standing) {
    const out = [];
    for (let i = 0; i < this.size; i++) {
      if (standing[i] && this.isFree(i, standing)) out.push(i);
    }
    return out;
  }

  /**
   * Every matching pair [a, b] (a < b) of free tiles, in index order.
   * @param {ArrayLike<boolean | number>} standing
   * @param {readonly string[]} faces
   * @returns {[number, number][]}
   */
  freePairs(standing, faces) {
    const free = this.freeTiles(standing);
    /** @type {[number, number][]} */
    const pairs = [];
    for (let k = 0; k < free.length; k++) {
      for (let m = k + 1; m < free.length; m++) {
        if (matches(faces[free[k]], faces[free[m]])) pairs.push([free[k], free[m]]);
      }
    }
    return pairs;
  }

  /**
   * Whether any two free tiles match.
   * @param {ArrayLike<boolean | number>} standing
   * @param {readonly string[]} faces
   */
  hasMove(standing, faces) {
    const seen = new Set();
    for (const i of this.freeTiles(standing)) {
      const g = groupOf(faces[i]);
      if (seen.has(g)) return true;
      seen.add(g);
    }
    return false;
  }
}
