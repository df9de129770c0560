// One tile's block, built by hand: 30 triangles where two rounded boxes took
// 216, since on a software renderer the pile's triangles are a large share of
// a frame. An ivory layer with chamfered top edges on a green back, as real
// tiles are made; the back darkens towards the table, which stands in for a
// contact shadow. The top carries a square of texture coordinates for the
// face (the attribute `art` is 1 there): square, so that the face can be
// turned a quarter with the view (see camera.js) and still fill it.

import { BufferAttribute, BufferGeometry, Color, Vector3 } from "three";

export const TILE_W = 1;
export const TILE_D = 1.32;
export const TILE_H = 0.66;
const GAP = 0.05;
const BEVEL = 0.05;
const BACK = 0.36; // share of the height that is the green back

/** Half the block's width and depth, in world units. */
export const HALF_W = (TILE_W - GAP) / 2;
export const HALF_D = (TILE_D - GAP) / 2;
/** Half the side of the face's square on the top, in world units. */
export const ART = HALF_W - BEVEL;

const IVORY = new Color("#f4ecd6");
const GREEN = new Color("#2f7a5a");
const DARK_GREEN = new Color("#2f7a5a").multiplyScalar(0.45);
const WHITE = new Color(1, 1, 1);

export function tileGeometry() {
  const position = [];
  const normal = [];
  const color = [];
  const uv = [];
  const art = [];
  const e1 = new Vector3();
  const e2 = new Vector3();
  const n = new Vector3();

  /** A quad p0..p3 facing `out`, a colour per corner, texture coordinates if art. */
  function quad(points, out, colours, uvs = null) {
    e1.subVectors(points[1], points[0]);
    e2.subVectors(points[2], points[0]);
    n.crossVectors(e1, e2).normalize();
    let order = [0, 1, 2, 0, 2, 3];
    if (n.dot(out) < 0) {
      order = [0, 2, 1, 0, 3, 2];
      n.negate();
    }
    for (const k of order) {
      position.push(points[k].x, points[k].y, points[k].z);
      normal.push(n.x, n.y, n.z);
      color.push(colours[k].r, colours[k].g, colours[k].b);
      uv.push(...(uvs ? uvs[k] : [0, 0]));
      art.push(uvs ? 1 : 0);
    }
  }

  const v = (x, y, z) => new Vector3(x, y, z);
  const top = TILE_H;
  const rim = TILE_H - BEVEL;
  const split = TILE_H * BACK;
  const ix = HALF_W - BEVEL;
  const iz = HALF_D - BEVEL;
  const up = v(0, 1, 0);
  const ivory4 = [IVORY, IVORY, IVORY, IVORY];

  // The top: the face's square in the middle, plain ivory above and below.
  quad([v(-ix, top, ART), v(ix, top, ART), v(ix, top, -ART), v(-ix, top, -ART)], up,
    [WHITE, WHITE, WHITE, WHITE], [[0, 0], [1, 0], [1, 1], [0, 1]]);
  quad([v(-ix, top, iz), v(ix, top, iz), v(ix, top, ART), v(-ix, top, ART)], up, ivory4);
  quad([v(-ix, top, -ART), v(ix, top, -ART), v(ix, top, -iz), v(-ix, top, -iz)], up, ivory4);

  // The chamfer and the sides, on each of the four edges.
  const corners = [
    [HALF_W, HALF_D], [HALF_W, -HALF_D], [-HALF_W, -HALF_D], [-HALF_W, HALF_D],
  ];
  const inner = [
    [ix, iz], [ix, -iz], [-ix, -iz], [-ix, iz],
  ];
  for (let k = 0; k < 4; k++) {
    const [ax, az] = corners[k];
    const [bx, bz] = corners[(k + 1) % 4];
    const [cx, cz] = inner[k];
    const [dx, dz] = inner[(k + 1) % 4];
    const out = v(ax + bx, 0, az + bz).normalize();
    quad([v(ax, rim, az), v(bx, rim, bz), v(dx, top, dz), v(cx, top, cz)], out, ivory4);
    quad([v(ax, split, az), v(bx, split, bz), v(bx, rim, bz), v(ax, rim, az)], out, ivory4);
    quad([v(ax, 0, az), v(bx, 0, bz), v(bx, split, bz), v(ax, split, az)], out,
      [DARK_GREEN, DARK_GREEN, GREEN, GREEN]);
  }

  const geometry = new BufferGeometry();
  geometry.setAttribute("position", new BufferAttribute(new Float32Array(position), 3));
  geometry.setAttribute("normal", new BufferAttribute(new Float32Array(normal), 3));
  geometry.setAttribute("color", new BufferAttribute(new Float32Array(color), 3));
  geometry.setAttribute("uv", new BufferAttribute(new Float32Array(uv), 2));
  geometry.setAttribute("art", new BufferAttribute(new Float32Array(art), 1));
  return geometry;
}
