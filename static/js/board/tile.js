// One tile: a low block (no bottom) drawn as two groups of one instanced
// mesh: its body, whose looks are in its vertex colours (an ivory layer on
// a green back that darkens towards the table, standing in for a contact
// shadow, and a darker rim round the top for its chamfer), and the face, a
// square in the middle of the top that shows the atlas cell of the instance.
// On a software renderer a frame's cost is the pixels shaded: the shaders
// here do the least a pixel can (bench/page.py holds them against a plain
// three.js page). Light is worked out once a vertex, not once a pixel: every
// side of a block is flat and the lights are a hemisphere and a sun, so
// that is exact. The body's pixels only pass on their vertex colour; the
// face's read the atlas once and multiply. Painted per pixel (Lambert, a
// test of the point's place on the block, the face's texture read with its
// sRGB decode, the sRGB encode) the pile ran at about 0.65 of the plain
// page's frame rate on the desktop viewport; so, at about 1.2
// (docs/performance-log.md). The
// face is square so that it can be turned a quarter with the view
// (camera.js) and still fill its place.

import { BufferAttribute, BufferGeometry, Color, ShaderMaterial, Vector3 } from "three";

import { TILE_SETS } from "./looks.js";

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

/**
 * The block as indexed triangles whose every shared edge is a whole edge of
 * both (no vertex of one in the middle of another's edge), so no pixel falls
 * through a crack between them. Group 0 is the body, group 1 the face.
 * Each part of one colour is as few triangles as that allows (34 a block),
 * and its corners are shared: SwiftShader's cost of a phone frame was mostly
 * vertices shaded, 174 a block drawn as separate triangles, 56 now. `look`
 * is the tile set's colours (looks.js): its top, and its back's two ends.
 * @param {{top: string, backLow: string, backHigh: string}} [look]
 * @returns {BufferGeometry}
 */
export function tileGeometry(look = TILE_SETS.classic) {
  const IVORY = new Color(look.top);
  const RIM = IVORY.clone().multiplyScalar(0.84);
  const BACK_LOW = new Color(look.backLow);
  const BACK_HIGH = new Color(look.backHigh);
  const h = TILE_H;
  const hb = TILE_H * BACK;
  const position = [];
  const normal = [];
  const color = [];
  const uv = [];
  const body = [];
  const faceIndex = [];
  const vertex = ([x, y, z], n, c, t = [0, 0]) => {
    position.push(x, y, z);
    normal.push(...n);
    color.push(c.r, c.g, c.b);
    uv.push(...t);
    return position.length / 3 - 1;
  };
  // Triangle a, b, c of vertices p, its corners ordered counter-clockwise
  // seen from where its normal n points (the side three.js draws).
  const triangle = (into, p, n, a, b, c) => {
    const at = (i) => position.slice(p[i] * 3, p[i] * 3 + 3);
    const [pa, pb, pc] = [at(a), at(b), at(c)];
    const u = pb.map((v, k) => v - pa[k]);
    const w = pc.map((v, k) => v - pa[k]);
    const cross = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const facing = cross[0] * n[0] + cross[1] * n[1] + cross[2] * n[2];
    into.push(...(facing > 0 ? [p[a], p[b], p[c]] : [p[a], p[c], p[b]]));
  };
  const up = [0, 1, 0];
  const top = (x, z, c, t) => vertex([x, h, z], up, c, t);
  const IN = HALF_D - BEVEL; // the rim's inner edge along the long sides
  // The rim, a ring round the top: its outer corners, its inner corners,
  // and where the face's corners meet its inner edge.
  const rim = [
    [-HALF_W, -HALF_D],
    [HALF_W, -HALF_D],
    [HALF_W, HALF_D],
    [-HALF_W, HALF_D], // 0-3 outer
    [-ART, -IN],
    [ART, -IN],
    [ART, IN],
    [-ART, IN], // 4-7 inner
    [ART, -ART],
    [ART, ART],
    [-ART, -ART],
    [-ART, ART], // 8-11 the face's corners
  ].map(([x, z]) => top(x, z, RIM));
  for (const [a, b, c] of [
    [0, 1, 5],
    [0, 5, 4], // the far strip
    [3, 2, 6],
    [3, 6, 7], // the near strip
    [1, 8, 5],
    [1, 9, 8],
    [1, 2, 9],
    [2, 6, 9], // the right strip
    [0, 10, 4],
    [0, 11, 10],
    [0, 3, 11],
    [3, 7, 11], // the left strip
  ]) {
    triangle(body, rim, up, a, b, c);
  }
  // The ivory margins before and behind the face.
  const margin = [
    [-ART, -IN],
    [ART, -IN],
    [ART, -ART],
    [-ART, -ART],
    [-ART, ART],
    [ART, ART],
    [ART, IN],
    [-ART, IN],
  ].map(([x, z]) => top(x, z, IVORY));
  for (const [a, b, c] of [
    [0, 1, 2],
    [0, 2, 3],
    [4, 5, 6],
    [4, 6, 7],
  ])
    triangle(body, margin, up, a, b, c);
  // Each side: its bottom corners a and b and its normal; a green back
  // darkening towards the table, an ivory layer above.
  const sides = [
    [
      [-HALF_W, HALF_D],
      [HALF_W, HALF_D],
      [0, 0, 1],
    ],
    [
      [HALF_W, HALF_D],
      [HALF_W, -HALF_D],
      [1, 0, 0],
    ],
    [
      [HALF_W, -HALF_D],
      [-HALF_W, -HALF_D],
      [0, 0, -1],
    ],
    [
      [-HALF_W, -HALF_D],
      [-HALF_W, HALF_D],
      [-1, 0, 0],
    ],
  ];
  for (const [[ax, az], [bx, bz], n] of sides) {
    for (const [y0, c0, y1, c1] of [
      [0, BACK_LOW, hb, BACK_HIGH],
      [hb, IVORY, h, IVORY],
    ]) {
      const band = [
        vertex([ax, y0, az], n, c0),
        vertex([bx, y0, bz], n, c0),
        vertex([bx, y1, bz], n, c1),
        vertex([ax, y1, az], n, c1),
      ];
      triangle(body, band, n, 0, 1, 2);
      triangle(body, band, n, 0, 2, 3);
    }
  }
  // The face, its texture coordinates 0..1 across (v grows away from the viewer).
  const face = [
    top(-ART, ART, IVORY, [0, 0]),
    top(ART, ART, IVORY, [1, 0]),
    top(ART, -ART, IVORY, [1, 1]),
    top(-ART, -ART, IVORY, [0, 1]),
  ];
  triangle(faceIndex, face, up, 0, 1, 2);
  triangle(faceIndex, face, up, 0, 2, 3);
  const geometry = new BufferGeometry();
  geometry.setAttribute("position", new BufferAttribute(new Float32Array(position), 3));
  geometry.setAttribute("normal", new BufferAttribute(new Float32Array(normal), 3));
  geometry.setAttribute("color", new BufferAttribute(new Float32Array(color), 3));
  geometry.setAttribute("uv", new BufferAttribute(new Float32Array(uv), 2));
  geometry.setIndex([...body, ...faceIndex]);
  geometry.addGroup(0, body.length, 0);
  geometry.addGroup(body.length, faceIndex.length, 1);
  return geometry;
}

// The lights the blocks are lit by, as three.js's hemisphere and directional
// lights with these colours and intensities would light a Lambert surface.
const SKY = new Color("#fff6e6").multiplyScalar(1.7);
const GROUND = new Color("#29443b").multiplyScalar(1.7);
const SUN = new Color("#fff3dd").multiplyScalar(2.1);
const SUN_DIR = new Vector3(-6, 14, 8).normalize();

const glsl = (v) => v.toFixed(6);
const vec3 = (c) => `vec3(${glsl(c.r)}, ${glsl(c.g)}, ${glsl(c.b)})`;

// Light and colour at a vertex, sRGB-encoded: a pixel's output is its
// interpolation (the body) or the atlas's sRGB texel times it (the face),
// which is the light applied in linear terms for a pure power curve and
// within a few levels of 255 for sRGB's.
const vertexShader = (isFace) => `
  #include <common>
  uniform float faceTurn;
  uniform vec2 cellSize;
  attribute vec2 faceCell;
  attribute vec3 color;
  varying vec3 vShade;
  ${isFace ? "varying vec2 vUv;" : ""}
  vec3 encode(vec3 v) {
    return mix(pow(v, vec3(0.41666)) * 1.055 - vec3(0.055), v * 12.92, vec3(lessThanEqual(v, vec3(0.0031308))));
  }
  void main() {
    vec3 n = normalize(mat3(modelMatrix) * mat3(instanceMatrix) * normal);
    vec3 light = ${vec3(SUN)} * max(dot(n, ${vec3({ r: SUN_DIR.x, g: SUN_DIR.y, b: SUN_DIR.z })}), 0.0)
      + mix(${vec3(GROUND)}, ${vec3(SKY)}, 0.5 * n.y + 0.5);
    light *= RECIPROCAL_PI * instanceColor;
    ${
      isFace
        ? `vShade = encode(light);
    vUv = mix(uv, vec2(uv.y, 1.0 - uv.x), faceTurn) * cellSize + faceCell;`
        : "vShade = encode(color * light);"
    }
    gl_Position = projectionMatrix * viewMatrix * modelMatrix * instanceMatrix * vec4(position, 1.0);
  }`;

/**
 * The tiles' two materials, body and face. `faceMap` is the atlas (sRGB
 * values, read as they are), `faceCell` the instanced attribute of each
 * tile's atlas cell (lower left corner), `cellSize` a cell's size in
 * texture coordinates; `faceTurn.value` set to 1 turns every face a quarter.
 * @param {import("three").Texture} faceMap
 * @param {number[]} cellSize [width, height]
 * @returns {{material: [ShaderMaterial, ShaderMaterial], faceTurn: {value: number}}}
 */
export function tileMaterial(faceMap, cellSize) {
  const faceTurn = { value: 0 };
  const uniforms = { faceTurn, cellSize: { value: cellSize } };
  const body = new ShaderMaterial({
    uniforms,
    vertexShader: vertexShader(false),
    fragmentShader: `
      varying vec3 vShade;
      void main() { gl_FragColor = vec4(vShade, 1.0); }`,
  });
  const face = new ShaderMaterial({
    uniforms: { ...uniforms, faceMap: { value: faceMap } },
    vertexShader: vertexShader(true),
    fragmentShader: `
      uniform sampler2D faceMap;
      varying vec3 vShade;
      varying vec2 vUv;
      void main() { gl_FragColor = vec4(texture2D(faceMap, vUv).rgb * vShade, 1.0); }`,
  });
  return { material: [body, face], faceTurn };
}
