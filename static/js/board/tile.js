// One tile: a plain block of 10 triangles (no bottom) whose looks are painted
// by the fragment shader from the point's place on the block: an ivory layer
// on a green back that darkens towards the table (standing in for a contact
// shadow), a darker rim round the top for its chamfer, and the face in a
// square in the middle of the top, read from the atlas cell of the instance.
// On a software renderer a frame's cost is the pixels shaded and the
// triangles set up: two rounded boxes and a face quad took 216 triangles a
// tile, vertex colours and texture coordinates more work a pixel. The face
// is square so that it can be turned a quarter with the view (camera.js)
// and still fill its place.

import { BufferAttribute, BufferGeometry, Color, MeshLambertMaterial } from "three";

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

export function tileGeometry() {
  const x = HALF_W;
  const z = HALF_D;
  const h = TILE_H;
  // Corners: bottom 0-3, top 4-7, counter-clockwise seen from above.
  const c = [
    [-x, 0, z], [x, 0, z], [x, 0, -z], [-x, 0, -z],
    [-x, h, z], [x, h, z], [x, h, -z], [-x, h, -z],
  ];
  // Each face: its corners counter-clockwise seen from outside, its normal.
  const faces = [
    [[4, 5, 6, 7], [0, 1, 0]],
    [[0, 1, 5, 4], [0, 0, 1]],
    [[1, 2, 6, 5], [1, 0, 0]],
    [[2, 3, 7, 6], [0, 0, -1]],
    [[3, 0, 4, 7], [-1, 0, 0]],
  ];
  const position = [];
  const normal = [];
  for (const [[a, b, d, e], n] of faces) {
    for (const k of [a, b, d, a, d, e]) {
      position.push(...c[k]);
      normal.push(...n);
    }
  }
  const geometry = new BufferGeometry();
  geometry.setAttribute("position", new BufferAttribute(new Float32Array(position), 3));
  geometry.setAttribute("normal", new BufferAttribute(new Float32Array(normal), 3));
  return geometry;
}

const glsl = (v) => v.toFixed(6);
const rgb = (hex) => {
  const { r, g, b } = new Color(hex); // linear, as the shader works
  return `vec3(${glsl(r)}, ${glsl(g)}, ${glsl(b)})`;
};

/**
 * The tiles' material: Lambert, with the block's colours and the face
 * painted in. `faceCell` is the instanced attribute of each tile's atlas
 * cell (lower left corner), `cellSize` a cell's size in texture coordinates;
 * `faceTurn.value` set to 1 turns every face a quarter.
 */
export function tileMaterial(faceMap, cellSize) {
  const material = new MeshLambertMaterial();
  const faceTurn = { value: 0 };
  const [cw, ch] = cellSize;
  material.onBeforeCompile = (shader) => {
    shader.uniforms.faceMap = { value: faceMap };
    shader.uniforms.faceTurn = faceTurn;
    shader.vertexShader = shader.vertexShader
      .replace(
        "#include <common>",
        `#include <common>
        attribute vec2 faceCell;
        varying vec3 vLocal;
        varying vec2 vCell;`,
      )
      .replace(
        "#include <begin_vertex>",
        `#include <begin_vertex>
        vLocal = position;
        vCell = faceCell;`,
      );
    shader.fragmentShader = shader.fragmentShader
      .replace(
        "#include <common>",
        `#include <common>
        uniform sampler2D faceMap;
        uniform float faceTurn;
        varying vec3 vLocal;
        varying vec2 vCell;`,
      )
      .replace(
        "#include <map_fragment>",
        `vec3 paint = ${rgb("#f4ecd6")};
        if (vLocal.y > ${glsl(TILE_H - 0.002)}) {
          vec2 p = vLocal.xz;
          if (abs(p.x) < ${glsl(ART)} && abs(p.y) < ${glsl(ART)}) {
            vec2 uv = vec2(0.5 + p.x / ${glsl(2 * ART)}, 0.5 - p.y / ${glsl(2 * ART)});
            uv = mix(uv, vec2(uv.y, 1.0 - uv.x), faceTurn);
            paint = texture2D(faceMap, uv * vec2(${glsl(cw)}, ${glsl(ch)}) + vCell).rgb;
          }
          if (abs(p.x) > ${glsl(HALF_W - BEVEL)} || abs(p.y) > ${glsl(HALF_D - BEVEL)}) paint *= 0.84;
        } else if (vLocal.y < ${glsl(TILE_H * BACK)}) {
          paint = mix(${rgb("#15372a")}, ${rgb("#2f7a5a")}, vLocal.y / ${glsl(TILE_H * BACK)});
        }
        diffuseColor.rgb *= paint;`,
      );
  };
  return { material, faceTurn };
}
