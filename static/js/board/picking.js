// Which free tile a tap means. Only free tiles can be picked, so a tap need
// not land on a tile's face: the free tile whose drawn top is nearest to the
// finger, within a touch radius, is the one meant. Plain screen geometry, so
// the node tests check it without a browser.

/**
 * Distance in pixels from (px, py) to a convex quad given as 8 numbers
 * (x0, y0 .. x3, y3, in order round it, either way); 0 inside.
 * @param {number} px
 * @param {number} py
 * @param {ArrayLike<number>} q
 * @returns {number}
 */
export function distanceToQuad(px, py, q) {
  let inside = true;
  let sign = 0;
  let best = Infinity;
  for (let k = 0; k < 4; k++) {
    const ax = q[k * 2];
    const ay = q[k * 2 + 1];
    const bx = q[((k + 1) % 4) * 2];
    const by = q[((k + 1) % 4) * 2 + 1];
    const ex = bx - ax;
    const ey = by - ay;
    const cross = ex * (py - ay) - ey * (px - ax);
    if (cross !== 0) {
      if (sign === 0) sign = Math.sign(cross);
      else if (Math.sign(cross) !== sign) inside = false;
    }
    const len = ex * ex + ey * ey;
    const t = len ? Math.max(0, Math.min(1, ((px - ax) * ex + (py - ay) * ey) / len)) : 0;
    best = Math.min(best, Math.hypot(px - (ax + t * ex), py - (ay + t * ey)));
  }
  return inside ? 0 : best;
}

/**
 * The index of the target nearest to (px, py) within `radius`, or -1.
 * `quads` holds `count` quads of 8 numbers each, `indices` their tile indices.
 * @param {number} px
 * @param {number} py
 * @param {Float64Array} quads
 * @param {ArrayLike<number>} indices
 * @param {number} count
 * @param {number} radius
 * @returns {number}
 */
export function nearestTarget(px, py, quads, indices, count, radius) {
  let found = -1;
  let best = Infinity;
  for (let k = 0; k < count; k++) {
    const d = distanceToQuad(px, py, quads.subarray(k * 8, k * 8 + 8));
    if (d <= radius && d < best) {
      found = indices[k];
      best = d;
    }
  }
  return found;
}
