// How the player moves the view: drag pans like a map, the other gesture
// turns the pile in 3D, pinch or wheel zooms; "fit" flies back to the view
// from above framing the standing tiles. Until the player moves the view it
// keeps following the pile as it shrinks.
//
// A wide pile on a tall screen (the Big pile on a phone held upright) is
// seen turned a quarter, its long side down the screen: framed by its short
// side, its tiles show about a third larger (docs/ARCHITECTURE.md, "The
// board on a phone"). The faces turn with the view, so they stay upright.

import { MOUSE, TOUCH, Vector3 } from "three";
import { MapControls } from "three/addons/controls/MapControls.js";
import { keepRotateFirst, rotateFirstOn } from "./prefs.js";

// The fitted view leans back a little from straight down so the blocks read
// as 3D while every face stays upright and readable (the scene leans it
// further for a tall pile, and not at all for the view from above).
export const FIT_TILT = 0.36;
const FIT_MS = 450;
// A little air round the pile.
const FIT_MARGIN = 1.06;
// A gesture that shifts the view by less than this share of the viewing
// distance (a finger's jitter during a tap) leaves it counted as untouched.
const MOVED_SHARE = 0.02;
// Turn the view only for a clear gain: tiles at least this much larger.
const TURN_GAIN = 1.1;

/**
 * The least distance from which a sphere of `radius` shows whole, with the
 * fit's margin, in a view of vertical field `fovDeg` and `aspect`: a pile
 * framed by its bounding sphere stays in frame however it is turned.
 */
export function sphereDistance(radius, fovDeg, aspect) {
  const tanV = Math.tan((fovDeg * Math.PI) / 360);
  const half = Math.atan(Math.min(tanV, tanV * aspect));
  return (FIT_MARGIN * radius) / Math.sin(half);
}

function easeInOut(t) {
  return t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
}

export class ViewControl {
  /**
   * @param camera a PerspectiveCamera
   * @param dom the canvas
   * @param requestRender asks the page for one more frame
   * @param onMovedChange called with true when the view leaves the fit, false on fit
   */
  constructor(camera, dom, requestRender, onMovedChange) {
    this.camera = camera;
    this.requestRender = requestRender;
    this.onMovedChange = onMovedChange;
    this.moved = false;
    // Frame the pile's bounding sphere, not its box (a pile that turns).
    this.sphere = false;
    this.controls = new MapControls(camera, dom);
    const c = this.controls;
    c.enableDamping = true;
    c.dampingFactor = 0.14;
    c.zoomToCursor = true;
    c.minDistance = 4;
    c.maxDistance = 60;
    // Never look from under the table.
    c.maxPolarAngle = 1.3;
    c.addEventListener("change", requestRender);
    c.addEventListener("start", () => this.#gestureStart());
    c.addEventListener("end", () => this.#gestureEnd());
    // Tween state, preallocated: nothing is created while a frame runs.
    this.fromTarget = new Vector3();
    this.fromPos = new Vector3();
    this.toTarget = new Vector3();
    this.toPos = new Vector3();
    this.startTarget = new Vector3();
    this.startPos = new Vector3();
    this.tweenT0 = -1;
    this.turned = false;
    this.tilt = FIT_TILT;
    this.setRotateFirst(rotateFirstOn());
  }

  /** With rotateFirst, one finger (left button) turns and two fingers (right) pan. */
  setRotateFirst(on) {
    this.rotateFirst = on;
    const c = this.controls;
    if (on) {
      c.mouseButtons = { LEFT: MOUSE.ROTATE, MIDDLE: MOUSE.DOLLY, RIGHT: MOUSE.PAN };
      c.touches = { ONE: TOUCH.ROTATE, TWO: TOUCH.DOLLY_PAN };
    } else {
      c.mouseButtons = { LEFT: MOUSE.PAN, MIDDLE: MOUSE.DOLLY, RIGHT: MOUSE.ROTATE };
      c.touches = { ONE: TOUCH.PAN, TWO: TOUCH.DOLLY_ROTATE };
    }
    keepRotateFirst(on);
  }

  #gestureStart() {
    this.tweenT0 = -1;
    this.startTarget.copy(this.controls.target);
    this.startPos.copy(this.camera.position);
  }

  #gestureEnd() {
    const eps = MOVED_SHARE * this.camera.position.distanceTo(this.controls.target);
    const moved =
      this.startTarget.distanceTo(this.controls.target) > eps || this.startPos.distanceTo(this.camera.position) > eps;
    if (moved && !this.moved) {
      this.moved = true;
      this.onMovedChange(true);
    }
  }

  /**
   * Frame the box (world units: minX, maxX, minZ, maxZ, top) from above.
   * `animate` flies there; otherwise the view jumps. `orient` chooses
   * afresh whether the view is turned (a new pile, a new screen shape);
   * else the view keeps its orientation as the pile shrinks.
   */
  fit(box, animate, orient = false, now = performance.now()) {
    const cam = this.camera;
    const cx = (box.minX + box.maxX) / 2;
    const cz = (box.minZ + box.maxZ) / 2;
    if (orient) {
      this.turned = this.#distance(box, cx, cz, false) > TURN_GAIN * this.#distance(box, cx, cz, true);
    }
    const sinT = Math.sin(this.tilt);
    const cosT = Math.cos(this.tilt);
    // The TV's pile turns: framed by its bounding sphere, never clipped.
    const cy = this.sphere ? box.top / 2 : 0;
    const dist = this.sphere
      ? sphereDistance(Math.hypot(box.maxX - box.minX, box.maxZ - box.minZ, box.top) / 2, cam.fov, cam.aspect)
      : this.#distance(box, cx, cz, this.turned);
    this.toTarget.set(cx, cy, cz);
    // Turned, the camera stands off the pile's right end instead of its front.
    if (this.turned) this.toPos.set(cx + sinT * dist, cy + cosT * dist, cz);
    else this.toPos.set(cx, cy + cosT * dist, cz + sinT * dist);
    if (this.moved) {
      this.moved = false;
      this.onMovedChange(false);
    }
    if (animate) {
      this.fromTarget.copy(this.controls.target);
      this.fromPos.copy(cam.position);
      this.tweenT0 = now;
    } else {
      this.tweenT0 = -1;
      this.controls.target.copy(this.toTarget);
      cam.position.copy(this.toPos);
      this.controls.update();
    }
    this.requestRender();
  }

  /** The least viewing distance that shows the whole box, turned or not. */
  #distance(box, cx, cz, turned) {
    // Camera basis for the fitted view: `back` points from the target to
    // the camera, `up` is the screen's up. A corner p (relative to the
    // target) is on screen when |p.right| and |p.up| stay within the
    // frustum at depth d - p.back, which gives the least distance d.
    const cam = this.camera;
    const sinT = Math.sin(this.tilt);
    const cosT = Math.cos(this.tilt);
    const tanV = Math.tan((cam.fov * Math.PI) / 360) / FIT_MARGIN;
    const tanH = tanV * cam.aspect;
    let dist = 0;
    for (const x of [box.minX - cx, box.maxX - cx]) {
      for (const y of [0, box.top]) {
        for (const z of [box.minZ - cz, box.maxZ - cz]) {
          // Towards the camera along the table, and to the screen's right.
          const along = turned ? x : z;
          const right = turned ? -z : x;
          const back = y * cosT + along * sinT;
          const up = y * sinT - along * cosT;
          dist = Math.max(dist, back + Math.abs(right) / tanH, back + Math.abs(up) / tanV);
        }
      }
    }
    return dist;
  }

  /** Turn the view round the pile by `radians` (keys and bench/page.py). */
  turn(radians) {
    const p = this.camera.position;
    const t = this.controls.target;
    const x = p.x - t.x;
    const z = p.z - t.z;
    const cos = Math.cos(radians);
    const sin = Math.sin(radians);
    p.x = t.x + x * cos + z * sin;
    p.z = t.z - x * sin + z * cos;
    this.controls.update();
    this.requestRender();
  }

  /** Advance the fit flight and the controls' damping; true while still moving. */
  update(now) {
    if (this.tweenT0 >= 0) {
      const t = Math.min(1, (now - this.tweenT0) / FIT_MS);
      const e = easeInOut(t);
      this.controls.target.lerpVectors(this.fromTarget, this.toTarget, e);
      this.camera.position.lerpVectors(this.fromPos, this.toPos, e);
      if (t >= 1) this.tweenT0 = -1;
      this.controls.update();
      return true;
    }
    return this.controls.update();
  }
}
