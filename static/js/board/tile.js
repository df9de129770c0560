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
const RIM = IVORY.clone().multiplyScalar(0.84);
const BACK_LOW = new Color("#15372a");
const BACK_HIGH = new Color("#2f7a5a");

/**
 * The block as triangles whose every shared edge is a whole edge of both
 * (no vertex of one in the middle of another's edge), so no pixel falls
 * through a crack between them. Group 0 is the body, group 1 the face.
 */
export function tileGeometry() {
  const h = TILE_H;
  const hb = TILE_H * BACK;
  // Where the top's parts meet: the rim, the ivory margins, the face.
  const xs = [-HALF_W, -ART, ART, HALF_W];
  const zs = [-HALF_D, -(HALF_D - BEVEL), -ART, ART, HALF_D - BEVEL, HALF_D];
  const position = [];
  const normal = [];
  const color = [];
  const uv = [];
  const vertex = (p, n, c, t = [0, 0]) => {
    position.push(...p);
    normal.push(...n);
    color.push(c.r, c.g, c.b);
    uv.push(...t);
  };
  const up = [0, 1, 0];
  let face = null;
  for (let i = 0; i < 3; i++) {
    for (let k = 0; k < 5; k++) {
      const [x0, x1, z0, z1] = [xs[i], xs[i + 1], zs[k], zs[k + 1]];
      if (i === 1 && k === 2) {
        face = [x0, x1, z0, z1];
        continue;
      }
      const c = i === 1 && (k === 1 || k === 3) ? IVORY : RIM;
      for (const [x, z] of [[x0, z1], [x1, z1], [x1, z0], [x0, z1], [x1, z0], [x0, z0]]) vertex([x, h, z], up, c);
    }
  }
  // Each side: its bottom corners a and b (counter-clockwise seen from
  // outside), its normal, and the points where the top's parts meet its
  // upper edge, from a to b. Its upper band is a fan to those points.
  const sides = [
    [[-HALF_W, HALF_D], [HALF_W, HALF_D], [0, 0, 1], xs.map((x) => [x, HALF_D])],
    [[HALF_W, HALF_D], [HALF_W, -HALF_D], [1, 0, 0], [...zs].reverse().map((z) => [HALF_W, z])],
    [[HALF_W, -HALF_D], [-HALF_W, -HALF_D], [0, 0, -1], [...xs].reverse().map((x) => [x, -HALF_D])],
    [[-HALF_W, -HALF_D], [-HALF_W, HALF_D], [-1, 0, 0], zs.map((z) => [-HALF_W, z])],
  ];
  for (const [[ax, az], [bx, bz], n, edge] of sides) {
    // The green back, darkening towards the table.
    for (const [x, y, z] of [[ax, 0, az], [bx, 0, bz], [bx, hb, bz], [ax, 0, az], [bx, hb, bz], [ax, hb, az]]) {
      vertex([x, y, z], n, y ? BACK_HIGH : BACK_LOW);
    }
    // The ivory layer above: fans from its lower corners to the points of
    // its upper edge, the left half from a, the right half from b, and the
    // triangle between them.
    const lowA = [ax, hb, az];
    const lowB = [bx, hb, bz];
    const half = (edge.length - 1) >> 1;
    for (let j = 0; j < edge.length - 1; j++) {
      vertex(j < half ? lowA : lowB, n, IVORY);
      vertex([edge[j + 1][0], h, edge[j + 1][1]], n, IVORY);
      vertex([edge[j][0], h, edge[j][1]], n, IVORY);
    }
    vertex(lowA, n, IVORY);
    vertex(lowB, n, IVORY);
    vertex([edge[half][0], h, edge[half][1]], n, IVORY);
  }
  const bodyCount = position.length / 3;
  // The face, its texture coordinates 0..1 across (v grows away from the viewer).
  const [x0, x1, z0, z1] = face;
  for (const [x, z, t] of [[x0, z1, [0, 0]], [x1, z1, [1, 0]], [x1, z0, [1, 1]], [x0, z1, [0, 0]], [x1, z0, [1, 1]], [x0, z0, [0, 1]]]) {
    vertex([x, h, z], up, IVORY, t);
  }
  const geometry = new BufferGeometry();
  geometry.setAttribute("position", new BufferAttribute(new Float32Array(position), 3));
  geometry.setAttribute("normal", new BufferAttribute(new Float32Array(normal), 3));
  geometry.setAttribute("color", new BufferAttribute(new Float32Array(color), 3));
  geometry.setAttribute("uv", new BufferAttribute(new Float32Array(uv), 2));
  geometry.addGroup(0, bodyCount, 0);
  geometry.addGroup(bodyCount, 6, 1);
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
