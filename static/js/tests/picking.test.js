// Which free tile a tap means (board/picking.js). Run: node --test static/js/tests/
import assert from "node:assert/strict";
import { test } from "node:test";

import { distanceToQuad, nearestTarget } from "../board/picking.js";

/** Quads of 8 numbers for axis-aligned boxes [left, top, right, bottom]. */
function quads(...boxes) {
  const out = new Float64Array(boxes.length * 8);
  boxes.forEach(([l, t, r, b], k) => out.set([l, t, r, t, r, b, l, b], k * 8));
  return out;
}

test("a point inside a quad is at distance 0, whichever way round it goes", () => {
  const q = quads([0, 0, 40, 30]);
  assert.equal(distanceToQuad(20, 15, q), 0);
  const reversed = Float64Array.from([0, 30, 40, 30, 40, 0, 0, 0]);
  assert.equal(distanceToQuad(20, 15, reversed), 0);
});

test("outside, the distance is to the nearest edge or corner", () => {
  const q = quads([0, 0, 40, 30]);
  assert.equal(distanceToQuad(50, 15, q), 10);
  assert.equal(distanceToQuad(20, -7, q), 7);
  assert.equal(distanceToQuad(43, 34, q), 5);
});

test("the nearest target within the radius wins; none beyond it", () => {
  // Two free tiles 60 px apart, 30 px wide.
  const q = quads([0, 0, 30, 40], [90, 0, 120, 40]);
  const ids = Int16Array.from([7, 9]);
  assert.equal(nearestTarget(40, 20, q, ids, 2, 14), 7);
  assert.equal(nearestTarget(80, 20, q, ids, 2, 14), 9);
  assert.equal(nearestTarget(60, 20, q, ids, 2, 14), -1);
  assert.equal(nearestTarget(15, 20, q, ids, 2, 14), 7);
  // Only the first `count` quads are candidates.
  assert.equal(nearestTarget(80, 20, q, ids, 1, 14), -1);
});
