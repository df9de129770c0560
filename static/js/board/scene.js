// The table and the tiles in WebGL. Every tile is one instance of one
// instanced mesh: a low block whose top shows its face from the atlas, so the
// whole pile is one draw call on a plain felt background. Frames are drawn
// only while something moves; the per-frame path creates no objects.
// bench/page.py holds the pile's frame rate against a plain three.js page of
// as many boxes: what a frame cost beyond that was the felt (a textured
// plane over the whole canvas), a transparent shadow quad per tile, a second
// instanced mesh for the faces, rounded blocks of 216 triangles a tile, and
// instances drawn back to front (see tile.js and #sortInstances), the
// blocks' lighting and painting done a pixel at a time, and on the phone
// the vertices shaded, each triangle its own three (tile.js).

import * as THREE from "three";

import { FIT_TILT, ViewControl } from "./camera.js";
import { DIGITS } from "../i18n.js";
import { drawAtlas } from "./faces.js";
import { TABLES, TILE_SETS } from "./looks.js";
import { nearestTarget } from "./picking.js";
import { calmMotion, looks, rotateFirstOn } from "./prefs.js";
import { ART, HALF_D, HALF_W, TILE_D, TILE_H, TILE_W, tileGeometry, tileMaterial } from "./tile.js";

const MAX_TILES = 144;

const LIFT = 0.32; // how far a picked tile rises
const LIFT_RATE = 18; // per second, exponential approach
const SHAKE_MS = 380;
const HINT_BOB = 0.14;
const FLY_MS = 520;
const DROP_MS = 420;
const LEVEL_MS = 260; // a new pile builds one level after another
const TAP_SLOP = 8; // CSS pixels a tap may wander
// Every tier in view: each level stands this share of a tile up and to the
// left of the one under it, so the lower levels' edges show beside the
// upper ones, as a printed pile draws them (world units per level).
const LEVEL_SHIFT_X = 0.09;
const LEVEL_SHIFT_Z = 0.1;
// A tall pile (its tiles on average this many levels up: Pagoda, Pyramid,
// Column, Tower; not the Turtles, whose upper levels are few tiles) is
// looked at more from the side, so the levels' sides show one above
// another. The Turtles keep the flatter view their faces read best in.
const TALL_MEAN_LEVEL = 0.75;
const TALL_TILT = 0.55;
// The fitted view frames at least this much table (world units), so the
// last tiles never fill a phone's screen.
const MIN_FRAME_W = 6 * TILE_W;
const MIN_FRAME_D = 4 * TILE_D;
const TAP_MS = 600;
// The view follows the shrinking pile once the taps pause this long: a
// quick player's next finger is already on its way to where a tile was
// drawn, and a view that moved under it (10 px and more on a phone) took
// the neighbour instead.
const FOLLOW_AFTER_MS = 400;
// How far from a free tile's drawn top (CSS pixels) a tap still picks it, so
// a free tile's target reaches 44 px where its neighbours leave room, while a
// tap on the middle of a blocked neighbour still says why that one is held.
const TOUCH_RADIUS = 14;

const WHITE = new THREE.Color(1, 1, 1);
const SHADE = new THREE.Color(0.5, 0.52, 0.56);
const PICKED = new THREE.Color(1.0, 0.84, 0.48);
// The keyboard's focus and the hint must stand out on a busy pile: strong
// tints, and the focused tile lifts a little (half a pick's lift).
const FOCUS = new THREE.Color(0.55, 0.78, 1.25);
const FOCUS_LIFT = 0.5;
const HINT = new THREE.Color(0.35, 1.15, 0.45);

/** True on a software WebGL (SwiftShader, llvmpipe): draw fewer pixels there. */
function softwareRendering() {
  const gl = document.createElement("canvas").getContext("webgl2");
  if (!gl) return true;
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  const name = gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
  gl.getExtension("WEBGL_lose_context")?.loseContext();
  return /swiftshader|llvmpipe|software/i.test(String(name));
}

function easeOutCubic(t) {
  return 1 - (1 - t) ** 3;
}

function easeInOut(t) {
  return t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
}

// A scene made ahead (prepareScene), for the next BoardScene to adopt.
let spare = null;
let preparing = false;
// The piles this page made (the one made ahead is none of them).
let piles = 0;
// Frames drawn ahead, a second of a pile's build at 60 a second.
const WARM_FRAMES = 60;

/**
 * Make the 3D view ahead of the pile that will need it, in an idle moment,
 * once a page and only while it has no pile: a room calls this while it
 * waits for a deal, so its first deal shows as fast as a later one (issue
 * 27: 8 s against 0.3 s on a phone). `container` is where the pile will
 * show, laid out if it can be: the view is made at its size there.
 */
export function prepareScene(container = document.createElement("div")) {
  if (preparing || piles) return;
  preparing = true;
  const later = globalThis.requestIdleCallback ?? ((fn) => setTimeout(fn, 50));
  later(() => piles || (spare = warmScene(container)), { timeout: 1500 });
}

/**
 * A scene that has drawn in `container`: besides the WebGL context and the
 * face atlas, a pile of two tiles is built unseen, frame by frame. Many GPUs, and
 * software renderers, finish a shader only at its first draw, the atlas is
 * uploaded then, and the frames run often enough for the script engine to
 * make them fast, as on a page that drew a pile already.
 */
function warmScene(container) {
  const none = () => {};
  const scene = new BoardScene(container, { onTap: none, onTable: none, onMovedChange: none });
  piles--;
  // No marks for bench/page.py: this is not the page's pile.
  scene.drewPile = scene.builtPile = true;
  scene.setTiles(
    [
      { x: 0, y: 0, z: 0, face: "dots-8" },
      { x: 0, y: 0, z: 1, face: "wind-east" },
    ],
    [true, true],
    true,
  );
  const t0 = performance.now();
  for (let k = 0; k < WARM_FRAMES; k++) scene.frame(t0 + k * 16);
  // The container may be on the page (unseen): it keeps the felt alone.
  scene.setTiles([], [], false);
  scene.frame(t0 + WARM_FRAMES * 16);
  return scene;
}

export class BoardScene {
  /**
   * @param {HTMLElement} container the element the canvas fills
   * @param {import("./controller.js").SceneHooks} hooks onTap(index), onTable(), onMovedChange(moved)
   */
  constructor(container, hooks) {
    // The scene made ahead, if any, is this one: a constructor may hand
    // back another object, so the pages' `new BoardScene` stays as it is.
    piles++;
    if (spare) {
      const made = spare;
      spare = null;
      return made.#adopt(container, hooks);
    }
    this.container = container;
    this.hooks = hooks;
    const software = softwareRendering();
    const renderer = new THREE.WebGLRenderer({
      antialias: !software,
      powerPreference: "high-performance",
    });
    renderer.setPixelRatio(software ? 1 : Math.min(window.devicePixelRatio || 1, 2));
    renderer.domElement.setAttribute("aria-hidden", "true");
    container.append(renderer.domElement);
    this.renderer = renderer;
    this.canvas = renderer.domElement;

    const scene = new THREE.Scene();
    // Plain felt: the renderer's clear, no surface to fill.
    scene.background = new THREE.Color();
    this.scene = scene;
    this.camera = new THREE.PerspectiveCamera(30, 1, 0.5, 200);
    this.software = software;
    // Calm motion (prefers-reduced-motion): the pile builds and pairs leave
    // by appearing and fading, nothing falls, flies or bobs.
    this.calm = calmMotion();

    // The lights are in the tiles' shaders (tile.js), worked out a vertex.
    const look = looks();
    this.look = { set: look.set, table: look.table, flat: look.flat };
    const atlas = drawAtlas(document, DIGITS, look.set);
    this.cells = atlas.cells;
    this.glyphs = atlas.glyphs;
    const geometry = tileGeometry(TILE_SETS[look.set]);
    this.faceCell = new THREE.InstancedBufferAttribute(new Float32Array(MAX_TILES * 2), 2);
    geometry.setAttribute("faceCell", this.faceCell);
    const { material, faceTurn } = tileMaterial(this.#faceMap(atlas.canvas), atlas.cellSize);
    this.material = material;
    scene.background.set(TABLES[look.table].colour);
    // 1 while the view is turned a quarter (camera.js): faces turn with it.
    this.faceTurn = faceTurn;
    this.body = new THREE.InstancedMesh(geometry, material, MAX_TILES);
    this.body.count = 0;
    // Instances move far from the mesh's bounds; culling would drop them.
    this.body.frustumCulled = false;
    this.body.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    this.body.setColorAt(0, WHITE);
    scene.add(this.body);

    // Per-tile state, by tile index.
    this.n = 0;
    this.meanLevel = 0;
    this.baseX = new Float32Array(MAX_TILES);
    this.baseY = new Float32Array(MAX_TILES);
    this.baseZ = new Float32Array(MAX_TILES);
    this.shown = new Uint8Array(MAX_TILES);
    this.lift = new Float32Array(MAX_TILES);
    this.liftTarget = new Float32Array(MAX_TILES);
    this.shakeT0 = new Float64Array(MAX_TILES).fill(-1);
    this.flyT0 = new Float64Array(MAX_TILES).fill(-1);
    this.flyDir = new Int8Array(MAX_TILES);
    this.partner = new Int16Array(MAX_TILES);
    this.dropT0 = new Float64Array(MAX_TILES).fill(-1);
    this.dropH = new Float32Array(MAX_TILES);
    this.blocked = new Uint8Array(MAX_TILES);
    // Instance slot of each tile, and tile of each slot (see #sortInstances).
    this.slot = new Int16Array(MAX_TILES);
    this.order = new Int16Array(MAX_TILES);
    this.sorted = false;
    this.shakes = 0;
    this.shading = true;
    this.selected = -1;
    this.focused = -1;
    this.hintA = -1;
    this.hintB = -1;
    this.hintUntil = 0;
    this.box = { minX: -1, maxX: 1, minZ: -1, maxZ: 1, top: TILE_H };

    // Scratch objects for the frame loop.
    this.m = new THREE.Matrix4();
    this.pos = new THREE.Vector3();
    this.quat = new THREE.Quaternion();
    this.scl = new THREE.Vector3();
    this.up = new THREE.Vector3(0, 1, 0);
    this.tint = new THREE.Color();
    this.ndc = new THREE.Vector2();
    this.raycaster = new THREE.Raycaster();
    this.hits = [];
    this.pv = new THREE.Vector3();
    this.quads = new Float64Array(MAX_TILES * 8);
    this.quadTile = new Int16Array(MAX_TILES);
    this.glyphCorners = new Float64Array(8);
    this.faceOf = [];

    this.view = new ViewControl(this.camera, this.canvas, () => this.requestRender(), hooks.onMovedChange);
    this.framePending = false;
    this.disposed = false;
    /** @type {boolean[] | Uint8Array | null} the pile the view is to follow */
    this.following = null;
    this.followTimer = 0;
    this.drewPile = false;
    this.builtPile = false;
    this.drawn = 0;
    this.lastFrame = 0;
    this.frameCount = 0;
    this.frameMs = 0; // main-thread time spent in frames, for bench/page.py
    this.frame = this.frame.bind(this);
    this.#listen();
    this.resize();
    this.resizer = new ResizeObserver(() => this.resize());
    this.resizer.observe(container);
  }

  /** The scene made ahead takes its place in `container`, as a new one would. */
  #adopt(container, hooks) {
    this.container = container;
    this.hooks = hooks;
    this.view.onMovedChange = hooks.onMovedChange;
    // The player's choices as they are now, not as when it was made.
    this.view.setRotateFirst(rotateFirstOn());
    this.calm = calmMotion();
    this.setTiles([], [], false);
    this.setLook(looks());
    this.drewPile = this.builtPile = false;
    this.frameCount = 0;
    this.frameMs = 0;
    container.append(this.canvas);
    this.resizer.disconnect();
    this.resizer.observe(container);
    this.resize();
    return this;
  }

  // --- setup -----------------------------------------------------------
  #faceMap(canvas) {
    const faceMap = new THREE.CanvasTexture(canvas);
    // The atlas's sRGB values are read as they are and shaded in sRGB terms
    // (tile.js): decoding every texel read to linear values is dear on a
    // software renderer.
    faceMap.colorSpace = THREE.NoColorSpace;
    // One mipmap level a pixel, not a blend of two: half the texture reads,
    // and the faces are seen at one size most of the time.
    faceMap.minFilter = THREE.LinearMipmapNearestFilter;
    // Faces seen at a slant stay sharp; software renderers pay dearly for it.
    faceMap.anisotropy = this.software ? 1 : Math.min(8, this.renderer.capabilities.getMaxAnisotropy());
    return faceMap;
  }

  /**
   * Dress the pile in another tile set or table, or look at it from
   * straight above (`flat`): {set, table, flat}, any of them.
   */
  setLook({ set = this.look.set, table = this.look.table, flat = this.look.flat }) {
    if (set !== this.look.set) {
      const atlas = drawAtlas(document, DIGITS, set);
      this.cells = atlas.cells;
      this.glyphs = atlas.glyphs;
      const face = this.material[1].uniforms.faceMap;
      face.value.dispose();
      face.value = this.#faceMap(atlas.canvas);
      const old = this.body.geometry;
      const geometry = tileGeometry(TILE_SETS[set]);
      geometry.setAttribute("faceCell", this.faceCell);
      this.body.geometry = geometry;
      old.dispose();
    }
    /** @type {THREE.Color} */ (this.scene.background).set(TABLES[table].colour);
    const reframe = flat !== this.look.flat;
    this.look = { set, table, flat };
    if (reframe) {
      this.view.tilt = this.#tilt();
      this.fit(this.standingNow(), true);
    }
    this.requestRender();
  }

  /** How far the fitted view leans back from straight down (camera.js). */
  #tilt() {
    // Not quite 0: the camera's up stays defined, so the view can turn.
    if (this.look.flat) return 0.02;
    return this.meanLevel >= TALL_MEAN_LEVEL ? TALL_TILT : FIT_TILT;
  }

  /** Which tiles stand now (for a fit outside a game's own calls). */
  standingNow() {
    return Array.from({ length: this.n }, (_, i) => Boolean(this.shown[i]) && this.flyT0[i] < 0);
  }

  /**
   * Lay out a new set of tiles ({x, y, z, face} in half-tile units) with
   * `standing` flags. `build` drops the pile in, one level after another.
   */
  setTiles(tiles, standing, build) {
    const n = tiles.length;
    this.n = n;
    this.body.count = n;
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (const t of tiles) {
      minX = Math.min(minX, t.x);
      maxX = Math.max(maxX, t.x);
      minY = Math.min(minY, t.y);
      maxY = Math.max(maxY, t.y);
    }
    // Centre the layout on the origin.
    const cx = (minX + maxX) / 2;
    const cy = (minY + maxY) / 2;
    const now = performance.now();
    this.meanLevel = n ? tiles.reduce((sum, t) => sum + t.z, 0) / n : 0;
    this.view.tilt = this.#tilt();
    tiles.forEach((t, i) => {
      this.baseX[i] = ((t.x - cx) / 2) * TILE_W - t.z * LEVEL_SHIFT_X;
      this.baseZ[i] = ((t.y - cy) / 2) * TILE_D - t.z * LEVEL_SHIFT_Z;
      this.baseY[i] = t.z * TILE_H;
      this.shown[i] = standing[i] ? 1 : 0;
      this.lift[i] = this.liftTarget[i] = 0;
      this.shakeT0[i] = this.flyT0[i] = -1;
      // A new pile builds one level after another; calm, each level
      // appears where it stands instead of dropping onto the one below.
      this.dropT0[i] = build ? now + 120 + t.z * LEVEL_MS + (this.calm ? 0 : ((i * 37) % 11) * 14) : -1;
      this.dropH[i] = this.calm ? 0 : 2.2 + t.z * 0.3;
    });
    this.selected = this.focused = this.hintA = this.hintB = -1;
    this.faceOf = tiles.map((t) => t.face);
    this.sorted = false;
    this.#fitView(this.fitBox(standing), false, true);
    this.requestRender();
  }

  /**
   * Give each tile its instance slot, nearest the fitted camera first: the
   * top level first, and on each level the end towards the camera. One
   * instanced mesh is drawn in slot order, and drawn front to back the
   * hidden parts of lower tiles fail the depth test before they are shaded
   * (three.js sorts separate meshes so; it cannot sort instances).
   */
  #sortInstances() {
    const turned = this.view.turned;
    const order = Array.from({ length: this.n }, (_, i) => i);
    const near = (i) => (turned ? this.baseX[i] : this.baseZ[i]);
    order.sort((a, b) => this.baseY[b] - this.baseY[a] || near(b) - near(a));
    order.forEach((tile, slot) => {
      this.order[slot] = tile;
      this.slot[tile] = slot;
    });
    this.setFaces(this.faceOf);
    this.#refreshTints();
    this.#writeAll(performance.now());
  }

  /** Set the face shown on every tile (after a shuffle, or at setup). */
  setFaces(faces) {
    const arr = this.faceCell.array;
    this.faceOf = faces;
    faces.forEach((face, i) => {
      const [u, v] = this.cells.get(face);
      arr[this.slot[i] * 2] = u;
      arr[this.slot[i] * 2 + 1] = v;
    });
    this.faceCell.needsUpdate = true;
    this.requestRender();
  }

  /** A little hop of every standing tile, so a shuffle is seen to happen. */
  hopAll() {
    if (this.calm) return;
    const now = performance.now();
    for (let i = 0; i < this.n; i++) {
      if (!this.shown[i]) continue;
      this.dropT0[i] = now + ((i * 53) % 17) * 12;
      this.dropH[i] = 0.9;
    }
    this.requestRender();
  }

  // --- tile state ------------------------------------------------------
  setBlocked(blocked) {
    for (let i = 0; i < this.n; i++) this.blocked[i] = blocked[i] ? 1 : 0;
    this.#refreshTints();
  }

  setShading(on) {
    this.shading = on;
    this.#refreshTints();
  }

  select(i) {
    if (this.selected >= 0) this.liftTarget[this.selected] = this.selected === this.focused ? FOCUS_LIFT : 0;
    this.selected = i;
    if (i >= 0) this.liftTarget[i] = 1;
    this.#refreshTints();
  }

  setFocus(i) {
    if (this.focused >= 0 && this.focused !== this.selected) this.liftTarget[this.focused] = 0;
    this.focused = i;
    if (i >= 0 && i !== this.selected) this.liftTarget[i] = FOCUS_LIFT;
    this.#refreshTints();
  }

  shake(i) {
    this.shakes++;
    this.shakeT0[i] = performance.now();
    this.requestRender();
  }

  showHint(a, b) {
    this.hintA = a;
    this.hintB = b;
    this.hintUntil = performance.now() + 2600;
    this.requestRender();
  }

  /** The pair flies off the pile (leaving) or back onto it (undo). */
  fly(a, b, leaving) {
    const now = performance.now();
    for (const [i, j] of [
      [a, b],
      [b, a],
    ]) {
      this.flyT0[i] = now;
      this.flyDir[i] = leaving ? 1 : -1;
      this.partner[i] = j;
      this.shown[i] = 1;
      this.liftTarget[i] = 0;
      if (this.selected === i) this.selected = -1;
    }
    if (this.hintA === a || this.hintA === b) this.hintUntil = 0;
    this.#refreshTints();
  }

  /** Show or hide tiles at once (a resync after the server disagreed). */
  setStanding(standing) {
    for (let i = 0; i < this.n; i++) {
      this.shown[i] = standing[i] ? 1 : 0;
      this.flyT0[i] = -1;
    }
    this.#writeAll(performance.now());
    this.requestRender();
  }

  /** Frame the standing tiles (world box) for the next fit. */
  fitBox(standing = null) {
    const box = this.box;
    box.minX = box.minZ = Infinity;
    box.maxX = box.maxZ = -Infinity;
    box.top = TILE_H;
    for (let i = 0; i < this.n; i++) {
      if (standing ? !standing[i] : false) continue;
      box.minX = Math.min(box.minX, this.baseX[i] - TILE_W / 2);
      box.maxX = Math.max(box.maxX, this.baseX[i] + TILE_W / 2);
      box.minZ = Math.min(box.minZ, this.baseZ[i] - TILE_D / 2);
      box.maxZ = Math.max(box.maxZ, this.baseZ[i] + TILE_D / 2);
      box.top = Math.max(box.top, this.baseY[i] + TILE_H);
    }
    if (box.minX === Infinity) {
      box.minX = box.minZ = -1;
      box.maxX = box.maxZ = 1;
    }
    // A few tiles left are framed with the table round them, not filling the screen.
    /** @type {[string, string, number][]} */
    const sides = [
      ["minX", "maxX", MIN_FRAME_W],
      ["minZ", "maxZ", MIN_FRAME_D],
    ];
    for (const [lo, hi, least] of sides) {
      const grow = (least - (box[hi] - box[lo])) / 2;
      if (grow > 0) {
        box[lo] -= grow;
        box[hi] += grow;
      }
    }
    return box;
  }

  /** Fly the camera back to the view from above, framing `standing`. */
  fit(standing, animate = true) {
    this.#fitView(this.fitBox(standing), animate, false);
  }

  #fitView(box, animate, orient) {
    const turned = this.view.turned;
    this.view.fit(box, animate, orient);
    this.faceTurn.value = this.view.turned ? 1 : 0;
    if (orient && (this.view.turned !== turned || !this.sorted)) {
      this.sorted = true;
      this.#sortInstances();
    }
  }

  followPile(standing) {
    this.following = standing;
    this.#followLater();
  }

  #followLater() {
    clearTimeout(this.followTimer);
    this.followTimer = setTimeout(() => {
      const standing = this.following;
      this.following = null;
      if (standing && !this.disposed && !this.view.moved) this.fit(standing, true);
      this.requestRender();
    }, FOLLOW_AFTER_MS);
  }

  // --- input -----------------------------------------------------------
  #listen() {
    const taps = new Map();
    const el = this.canvas;
    el.addEventListener("pointerdown", (e) => {
      // Each finger is judged on its own: quick play puts the next finger
      // down before the last is up, and both are taps. A pinch or a turn
      // moves its fingers, and a finger that moves is no tap.
      taps.set(e.pointerId, { x: e.clientX, y: e.clientY, t: e.timeStamp, ok: true });
      if (this.following) this.#followLater();
    });
    el.addEventListener("pointermove", (e) => {
      const tap = taps.get(e.pointerId);
      if (tap && Math.hypot(e.clientX - tap.x, e.clientY - tap.y) > TAP_SLOP) tap.ok = false;
    });
    const finish = (e) => {
      const tap = taps.get(e.pointerId);
      taps.delete(e.pointerId);
      if (e.type !== "pointerup" || !tap || !tap.ok || e.timeStamp - tap.t > TAP_MS) return;
      if (e.button !== 0) return;
      const i = this.pick(e.clientX, e.clientY);
      if (i >= 0) this.hooks.onTap(i);
      else this.hooks.onTable();
    };
    el.addEventListener("pointerup", finish);
    el.addEventListener("pointercancel", finish);
  }

  /**
   * The tile a tap at a screen point means: the free tile under the finger,
   * else the free tile nearest to it within the touch radius, else the
   * (blocked) tile under it, for the page to say why, else -1.
   */
  pick(clientX, clientY) {
    const under = this.#tileUnder(clientX, clientY);
    if (under >= 0 && !this.blocked[under]) return under;
    const rect = this.canvas.getBoundingClientRect();
    let count = 0;
    for (let i = 0; i < this.n; i++) {
      if (!this.shown[i] || this.blocked[i] || this.flyT0[i] >= 0) continue;
      // The top as it stands, not lifted: a target does not move away
      // while its lift animates.
      const y = this.baseY[i] + TILE_H;
      for (let k = 0; k < 4; k++) {
        const x = this.baseX[i] + (k === 1 || k === 2 ? HALF_W : -HALF_W);
        const z = this.baseZ[i] + (k >= 2 ? HALF_D : -HALF_D);
        this.#project(x, y, z, rect, this.quads, count * 8 + k * 2);
      }
      this.quadTile[count++] = i;
    }
    const near = nearestTarget(clientX, clientY, this.quads, this.quadTile, count, TOUCH_RADIUS);
    return near >= 0 ? near : under;
  }

  /** The standing tile drawn under a screen point, or -1. */
  #tileUnder(clientX, clientY) {
    const rect = this.canvas.getBoundingClientRect();
    this.ndc.set(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(this.ndc, this.camera);
    this.hits.length = 0;
    this.body.computeBoundingSphere();
    this.raycaster.intersectObject(this.body, false, this.hits);
    for (const hit of this.hits) {
      const i = this.order[hit.instanceId];
      if (i < this.n && this.shown[i] && this.flyT0[i] < 0) return i;
    }
    return -1;
  }

  /** Write where world point (x, y, z) is on the page (CSS pixels) into out[at], out[at + 1]. */
  #project(x, y, z, rect, out, at) {
    const p = this.pv.set(x, y, z).project(this.camera);
    out[at] = rect.left + ((p.x + 1) / 2) * rect.width;
    out[at + 1] = rect.top + ((1 - p.y) / 2) * rect.height;
  }

  /** The box round every standing block as drawn, in CSS pixels: {left, top, right, bottom}. */
  pileBounds() {
    const rect = this.canvas.getBoundingClientRect();
    const out = this.glyphCorners;
    const b = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    for (let i = 0; i < this.n; i++) {
      if (!this.shown[i]) continue;
      for (let k = 0; k < 8; k++) {
        const x = this.baseX[i] + (k & 1 ? HALF_W : -HALF_W);
        const y = this.baseY[i] + (k & 2 ? TILE_H : 0);
        const z = this.baseZ[i] + (k & 4 ? HALF_D : -HALF_D);
        this.#project(x, y, z, rect, out, 0);
        b.left = Math.min(b.left, out[0]);
        b.right = Math.max(b.right, out[0]);
        b.top = Math.min(b.top, out[1]);
        b.bottom = Math.max(b.bottom, out[1]);
      }
    }
    return b;
  }

  /**
   * The size on the page (CSS pixels, the box round it) of tile i's rank
   * glyph (its number or letter), or null for faces without one.
   */
  glyphSize(i) {
    const box = this.glyphs.get(this.faceOf[i]);
    if (!box) return null;
    const rect = this.canvas.getBoundingClientRect();
    const out = this.glyphCorners;
    const turned = this.faceTurn.value > 0.5;
    for (let k = 0; k < 4; k++) {
      // The glyph's box in texture coordinates, then where on the top the
      // (possibly turned) face shows that point.
      const tu = (k === 1 || k === 2 ? box[2] : box[0]) / 100;
      const tv = 1 - (k >= 2 ? box[3] : box[1]) / 100;
      const u = turned ? 1 - tv : tu;
      const v = turned ? tu : tv;
      const x = this.baseX[i] - ART + u * 2 * ART;
      const z = this.baseZ[i] + ART - v * 2 * ART;
      this.#project(x, this.baseY[i] + TILE_H, z, rect, out, k * 2);
    }
    const xs = [out[0], out[2], out[4], out[6]];
    const ys = [out[1], out[3], out[5], out[7]];
    return { w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys) };
  }

  /** Where tile i's top face, at (u, v) across it (-1..1), is on the page, in CSS pixels. */
  screenPoint(i, u = 0, v = 0) {
    const rect = this.canvas.getBoundingClientRect();
    const p = new THREE.Vector3(
      this.baseX[i] + u * TILE_W * 0.4,
      this.baseY[i] + TILE_H + this.lift[i] * LIFT,
      this.baseZ[i] + v * TILE_D * 0.4,
    );
    p.project(this.camera);
    return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height };
  }

  /** A point of tile i's top face that a tap would reach, or null if none shows. */
  tappablePoint(i) {
    for (const v of [0, -0.8, 0.8, -0.4, 0.4]) {
      for (const u of [0, -0.8, 0.8, -0.4, 0.4]) {
        const p = this.screenPoint(i, u, v);
        if (this.pick(p.x, p.y) === i) return p;
      }
    }
    return null;
  }

  setRotateFirst(on) {
    this.view.setRotateFirst(on);
  }

  /** The pile goes: its GPU memory, WebGL context, canvas and listeners. */
  dispose() {
    this.disposed = true;
    clearTimeout(this.followTimer);
    this.resizer.disconnect();
    this.view.controls.dispose();
    this.body.geometry.dispose();
    this.material[1].uniforms.faceMap.value.dispose();
    for (const material of this.material) material.dispose();
    this.renderer.dispose();
    // Browsers keep a handful of contexts a page: give this one back now.
    this.renderer.forceContextLoss();
    this.canvas.remove();
  }

  // --- drawing -----------------------------------------------------------
  resize() {
    const w = this.container.clientWidth;
    const h = this.container.clientHeight;
    if (!w || !h) return;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    if (!this.view.moved && this.n) this.#fitView(this.box, false, true);
    this.requestRender();
  }

  requestRender() {
    if (this.framePending || this.disposed) return;
    this.framePending = true;
    requestAnimationFrame(this.frame);
  }

  /** True while no tile or camera animation is running or waiting to (tests wait for it). */
  get idle() {
    return !this.framePending && !this.following;
  }

  frame(now) {
    const started = performance.now();
    this.framePending = false;
    if (this.disposed) return;
    const dt = Math.min(0.05, this.lastFrame ? (now - this.lastFrame) / 1000 : 0.016);
    this.lastFrame = now;
    let moving = this.#writeAll(now, dt);
    if (this.view.update(now)) moving = true;
    if (this.hintUntil > now) {
      moving = true;
      this.#refreshTints(now);
    } else if (this.hintA >= 0) {
      this.hintA = this.hintB = -1;
      this.#refreshTints(now);
    }
    this.renderer.render(this.scene, this.camera);
    this.frameCount++;
    this.frameMs += performance.now() - started;
    // For bench/page.py: when tiles first showed, and when the pile stood.
    if (this.drawn && !this.drewPile) {
      this.drewPile = true;
      performance.mark("tiles:first-board");
    }
    if (this.drewPile && !moving && !this.builtPile) {
      this.builtPile = true;
      performance.mark("tiles:pile-built");
    }
    if (moving) this.requestRender();
    else this.lastFrame = 0;
  }

  /** Write every tile's matrix for time `now`; true if any is still moving. */
  #writeAll(now, dt = 0) {
    let moving = false;
    let drawn = 0;
    const { m, pos, quat, scl, up } = this;
    for (let i = 0; i < this.n; i++) {
      let x = this.baseX[i];
      let y = this.baseY[i];
      let z = this.baseZ[i];
      let s = this.shown[i] ? 1 : 0;
      let turn = 0;
      if (this.dropT0[i] >= 0) {
        const t = (now - this.dropT0[i]) / DROP_MS;
        moving = true;
        if (t < 0) s = 0;
        else if (t < 1) y += this.dropH[i] * (1 - easeOutCubic(t));
        else this.dropT0[i] = -1;
      }
      const goal = this.liftTarget[i];
      if (this.lift[i] !== goal) {
        const next = this.lift[i] + (goal - this.lift[i]) * Math.min(1, dt * LIFT_RATE);
        this.lift[i] = Math.abs(goal - next) < 0.004 ? goal : next;
        moving = true;
      }
      y += this.lift[i] * LIFT;
      if ((i === this.hintA || i === this.hintB) && this.hintUntil > now && !this.calm) {
        // Hinted tiles bob gently while the hint lasts.
        y += HINT_BOB * (0.5 + 0.5 * Math.sin(now / 140));
        moving = true;
      }
      if (this.shakeT0[i] >= 0) {
        const t = (now - this.shakeT0[i]) / SHAKE_MS;
        if (t < 1) {
          x += Math.sin(t * Math.PI * 7) * 0.08 * (1 - t);
          moving = true;
        } else this.shakeT0[i] = -1;
      }
      if (this.flyT0[i] >= 0) {
        const t = Math.min(1, (now - this.flyT0[i]) / FLY_MS);
        const leaving = this.flyDir[i] > 0;
        const e = easeInOut(leaving ? t : 1 - t);
        const j = this.partner[i];
        if (this.calm) {
          // Calm: the pair shrinks where it lies, nothing flies.
          s = 1 - e;
        } else {
          // The pair lifts, draws together, rises and shrinks away.
          const lift = Math.min(1, e * 3);
          const away = Math.max(0, (e - 0.2) / 0.8);
          x += ((this.baseX[i] + this.baseX[j]) / 2 - this.baseX[i]) * away * 0.7;
          z += ((this.baseZ[i] + this.baseZ[j]) / 2 - this.baseZ[i]) * away * 0.7;
          y += lift * LIFT + away * 2.6;
          turn = away * (i < j ? 0.9 : -0.9);
          s = 1 - away;
        }
        if (t >= 1) {
          this.flyT0[i] = -1;
          this.shown[i] = leaving ? 0 : 1;
          s = leaving ? 0 : 1;
        } else moving = true;
      }
      if (s > 0) drawn++;
      pos.set(x, y, z);
      quat.setFromAxisAngle(up, turn);
      scl.set(s, s, s);
      m.compose(pos, quat, scl);
      this.body.setMatrixAt(this.slot[i], m);
    }
    this.body.instanceMatrix.needsUpdate = true;
    this.drawn = drawn;
    return moving;
  }

  #refreshTints(now = performance.now()) {
    const pulse = 0.5 + 0.5 * Math.sin(now / 140);
    for (let i = 0; i < this.n; i++) {
      const c = this.tint;
      if (i === this.selected) c.copy(PICKED);
      else if (i === this.hintA || i === this.hintB) c.copy(WHITE).lerp(HINT, this.calm ? 1 : 0.6 + 0.4 * pulse);
      else if (i === this.focused) c.copy(FOCUS);
      else if (this.shading && this.blocked[i]) c.copy(SHADE);
      else c.copy(WHITE);
      this.body.setColorAt(this.slot[i], c);
    }
    this.body.instanceColor.needsUpdate = true;
    this.requestRender();
  }
}
