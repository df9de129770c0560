// Tapping, selecting and taking (static/js/board/controller.js), as every
// board does it: on a pile of three tiles side by side and one on top.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PileController, decide } from "../board/controller.js";
import { Geometry } from "../board/rules.js";

// Tiles 0, 1, 2 in a row on the table, tile 3 on top of tile 2; tile 4 alone.
const TILES = [
  { x: 0, y: 0, z: 0, face: "dots-1" },
  { x: 2, y: 0, z: 0, face: "bamboo-7" },
  { x: 4, y: 0, z: 0, face: "wind-east" },
  { x: 4, y: 0, z: 1, face: "dots-1" },
  { x: 10, y: 0, z: 0, face: "flower-plum" },
];

function pile() {
  return {
    geometry: new Geometry(TILES),
    standing: TILES.map(() => true),
    faces: TILES.map((t) => t.face),
  };
}

/** A board over a stand-in scene, with what it did written down. */
function board({ canPick = true, leaveAtOnce = true } = {}) {
  const seen = { said: [], taken: [], shaken: [], flown: [], lifted: [], sounds: [] };
  const scene = {
    select: (i) => seen.lifted.push(i),
    shake: (i) => seen.shaken.push(i),
    fly: (a, b) => seen.flown.push([a, b]),
    followPile: () => {},
    setFocus: () => {},
  };
  const marker = { dataset: {} };
  const state = pile();
  const controller = new PileController(() => /** @type {any} */ (scene), {
    pile: () => state,
    canPick: () => canPick,
    leaveAtOnce,
    take: (a, b) => seen.taken.push([a, b]),
    say: (text) => seen.said.push(text),
    marker: /** @type {any} */ (marker),
    onMovedChange: () => {},
    sound: (name) => seen.sounds.push(name),
  });
  return { controller, seen, marker, state };
}

test("a free tile is picked up, and put down by a second tap", () => {
  const p = pile();
  assert.deepEqual(decide(0, -1, p), { kind: "select", tile: 0 });
  assert.deepEqual(decide(0, 0, p), { kind: "deselect" });
});

test("a matching free tile takes the pair; another face is picked up instead", () => {
  const p = pile();
  assert.deepEqual(decide(3, 0, p), { kind: "take", pair: [0, 3] });
  assert.deepEqual(decide(4, 0, p), { kind: "select", tile: 4 });
});

test("a blocked tile is refused with its reason; a gone one is ignored", () => {
  const p = pile();
  assert.deepEqual(decide(2, -1, p), { kind: "blocked", reason: "covered" });
  assert.deepEqual(decide(1, 0, p), { kind: "blocked", reason: "sides" });
  p.standing[4] = false;
  assert.deepEqual(decide(4, -1, p), { kind: "ignore" });
});

test("picking up says which tile, and the scene lifts it", () => {
  const { controller, seen } = board();
  controller.tap(0);
  assert.equal(controller.selected, 0);
  assert.deepEqual(seen.lifted, [0]);
  assert.deepEqual(seen.said, ["Dots 1 picked up."]);
  assert.deepEqual(seen.sounds, ["select"]);
  controller.tap(0);
  assert.equal(controller.selected, -1);
  assert.deepEqual(seen.lifted, [0, -1]);
});

test("a blocked tile shakes and says why, on every board", () => {
  const { controller, seen, marker } = board({ leaveAtOnce: false });
  controller.tap(0);
  controller.tap(2);
  assert.deepEqual(seen.shaken, [2]);
  assert.match(seen.said.at(-1), /covered/);
  assert.equal(marker.dataset.blocked, "covered");
  controller.tap(1);
  assert.match(seen.said.at(-1), /held on both sides/);
  assert.equal(marker.dataset.blocked, "sides");
  // The held tile stays held.
  assert.equal(controller.selected, 0);
  assert.deepEqual(seen.sounds, ["select", "blocked", "blocked"]);
});

test("a pair taken at once leaves the page's pile, then goes to the judge", () => {
  const { controller, seen, state } = board();
  controller.tap(0);
  controller.tap(3);
  assert.deepEqual(seen.taken, [[0, 3]]);
  assert.deepEqual(seen.flown, [[0, 3]]);
  assert.equal(state.standing[0], false);
  assert.equal(state.standing[3], false);
  assert.equal(controller.selected, -1);
  // Tile 2 is free now.
  controller.tap(2);
  assert.equal(controller.selected, 2);
});

test("where the server moves the pair (Together), the pile waits for it", () => {
  const { controller, seen, state } = board({ leaveAtOnce: false });
  controller.tap(0);
  controller.tap(3);
  assert.deepEqual(seen.taken, [[0, 3]]);
  assert.deepEqual(seen.flown, []);
  assert.equal(state.standing[0], true);
  assert.equal(controller.selected, -1);
});

test("while taps may not pick (not this seat's turn), nothing happens", () => {
  const { controller, seen } = board({ canPick: false });
  controller.tap(0);
  controller.tap(2);
  assert.equal(controller.selected, -1);
  assert.deepEqual(seen, { said: [], taken: [], shaken: [], flown: [], lifted: [], sounds: [] });
});
