// The tile's block (board/tile.js): whole, facing out, and cheap to draw.
// Run: node --test static/js/tests/
import assert from "node:assert/strict";
import { test } from "node:test";

import { HALF_D, HALF_W, TILE_H, tileGeometry } from "../board/tile.js";

/** The geometry's triangles: corners, the group each is drawn in. */
function triangles(geometry) {
  const p = geometry.attributes.position.array;
  // Separate triangles when there is no index.
  const index = geometry.index ? geometry.index.array : p.map((_, k) => k);
  const out = [];
  for (const group of geometry.groups) {
    for (let k = group.start; k < group.start + group.count; k += 3) {
      const corners = [0, 1, 2].map((j) => Array.from(p.slice(index[k + j] * 3, index[k + j] * 3 + 3)));
      out.push({ corners, group: group.materialIndex });
    }
  }
  return out;
}

const minus = (a, b) => a.map((v, k) => v - b[k]);
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** How many of the triangles facing `normal` cover `point` (inside, not on an edge). */
function cover(tris, point, normal) {
  let n = 0;
  for (const { corners } of tris) {
    const [a, b, c] = corners;
    const facing = cross(minus(b, a), minus(c, a));
    if (dot(facing, normal) <= 0 || Math.abs(dot(minus(point, a), facing)) > 1e-6) continue;
    const sides = [
      [a, b],
      [b, c],
      [c, a],
    ].map(([u, v]) => dot(cross(minus(v, u), minus(point, u)), facing));
    if (sides.every((s) => s > 1e-12)) n++;
  }
  return n;
}

test("every point of the block's top and sides is drawn once, facing out", () => {
  const tris = triangles(tileGeometry());
  // Off-grid points, so none falls on an edge between two triangles.
  const at = (i, n) => -0.999 + (1.998 * (i + 0.37)) / n;
  const faces = [
    [[0, 1, 0], (u, v) => [u * HALF_W, TILE_H, v * HALF_D]],
    [[0, 0, 1], (u, v) => [u * HALF_W, ((v + 1) / 2) * TILE_H, HALF_D]],
    [[0, 0, -1], (u, v) => [u * HALF_W, ((v + 1) / 2) * TILE_H, -HALF_D]],
    [[1, 0, 0], (u, v) => [HALF_W, ((v + 1) / 2) * TILE_H, u * HALF_D]],
    [[-1, 0, 0], (u, v) => [-HALF_W, ((v + 1) / 2) * TILE_H, u * HALF_D]],
  ];
  for (const [normal, point] of faces) {
    for (let i = 0; i < 60; i++) {
      for (let j = 0; j < 60; j++) {
        const p = point(at(i, 60), at(j, 61));
        assert.equal(cover(tris, p, normal), 1, `${p} facing ${normal}`);
      }
    }
  }
});

test("a block shades few vertices: the phone's frames are bound by them", () => {
  // SwiftShader shades every vertex a draw reads; 174 a block (separate
  // triangles) held the phone's drag at 0.8 of the plain page's rate.
  const geometry = tileGeometry();
  const vertices = geometry.attributes.position.count;
  const corners = geometry.index ? geometry.index.count : vertices;
  assert.ok(vertices <= 64, `${vertices} vertices`);
  assert.ok(corners / 3 <= 40, `${corners / 3} triangles`);
});
