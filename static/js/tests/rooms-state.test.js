// The room page's event reducer (static/js/rooms/state.js) against the rules
// of docs/protocol.md: versions in order, early ones kept aside, merging.
import assert from "node:assert/strict";
import { test } from "node:test";

import { applyEvents, standingOf } from "../rooms/state.js";

function fresh() {
  return {
    version: 3,
    room: { status: "game" },
    members: [],
    round: {
      status: "racing",
      paused: false,
      racers: [{ seat: 0, matches: 0, faces: ["dots-1"] }],
      standings: [],
    },
  };
}

const race = (v, racers, extra = {}) => ({
  v,
  kind: "race",
  data: { status: "racing", paused: false, standings: [], racers, ...extra },
});

test("events are applied in order and old ones ignored", () => {
  const state = fresh();
  const ok = applyEvents(state, [race(3, [{ seat: 0, matches: 9 }]), race(4, [{ seat: 0, matches: 1 }])]);
  assert.equal(ok, true);
  assert.equal(state.version, 4);
  assert.equal(state.round.racers[0].matches, 1);
  assert.deepEqual(state.round.racers[0].faces, ["dots-1"]);
});

test("an event ahead of a missing one waits for it", () => {
  const state = fresh();
  const early = new Map();
  assert.equal(applyEvents(state, [race(5, [{ seat: 0, matches: 2 }])], early), false);
  assert.equal(state.version, 3);
  assert.equal(applyEvents(state, [race(4, [{ seat: 0, matches: 1 }])], early), true);
  assert.equal(state.version, 5);
  assert.equal(state.round.racers[0].matches, 2);
});

test("a new racer is appended and race fields are copied", () => {
  const state = fresh();
  applyEvents(state, [race(4, [{ seat: 5, matches: 0 }], { paused: true })]);
  assert.deepEqual(
    state.round.racers.map((r) => r.seat),
    [0, 5],
  );
  assert.equal(state.round.paused, true);
});

test("a round event replaces the round, even with null", () => {
  const state = fresh();
  applyEvents(state, [{ v: 4, kind: "round", data: null }]);
  assert.equal(state.round, null);
});

test("the standing mask reads bit i as tile i", () => {
  assert.deepEqual(standingOf("5", 4), [true, false, true, false]);
});
