// The page's free rule and matching (board/rules.js) must agree with the
// engine on every position in tests/fixtures/rules-cases.json, which the
// engine itself wrote. Run: node --test static/js/tests/
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { FACES, Geometry, groupOf, matches } from "../board/rules.js";

const fixture = JSON.parse(readFileSync(new URL("../../../tests/fixtures/rules-cases.json", import.meta.url)));

test("the page knows exactly the engine's 42 faces and their groups", () => {
  assert.deepEqual([...FACES].sort(), Object.keys(fixture.groups).sort());
  for (const [face, group] of Object.entries(fixture.groups)) {
    assert.equal(groupOf(face), group, face);
  }
  assert.throws(() => groupOf("dots-10"));
});

test("two faces match exactly when the engine puts them in one group", () => {
  for (const a of FACES) {
    for (const b of FACES) {
      assert.equal(matches(a, b), fixture.groups[a] === fixture.groups[b], `${a} ${b}`);
    }
  }
});

/** The case's standing flags and faces by tile index, and index -> id. */
function load(c) {
  const ids = c.tiles.map((t) => t.id);
  const standingIds = new Set(c.standing);
  return {
    ids,
    geometry: new Geometry(c.tiles),
    standing: c.tiles.map((t) => standingIds.has(t.id)),
    faces: c.tiles.map((t) => t.face),
  };
}

for (const c of fixture.cases) {
  test(`free tiles, blocked reasons and pairs agree: ${c.name}`, () => {
    const { ids, geometry, standing, faces } = load(c);
    assert.deepEqual(
      geometry
        .freeTiles(standing)
        .map((i) => ids[i])
        .sort((a, b) => a - b),
      [...c.free].sort((a, b) => a - b),
    );
    const blocked = {};
    ids.forEach((id, i) => {
      if (!standing[i]) return;
      const reason = geometry.blockedReason(i, standing);
      assert.equal(geometry.isFree(i, standing), reason === null);
      if (reason) blocked[String(id)] = reason;
    });
    assert.deepEqual(blocked, c.blocked);
    const pairs = geometry
      .freePairs(standing, faces)
      .map(([a, b]) => [ids[a], ids[b]].sort((x, y) => x - y))
      .sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    const expected = c.pairs.map((p) => [...p].sort((x, y) => x - y)).sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    assert.deepEqual(pairs, expected);
    assert.equal(geometry.hasMove(standing, faces), c.has_move);
  });
}

test("the fixture holds deals part way through and the spec's edge cases", () => {
  assert.ok(fixture.cases.length >= 10);
  assert.ok(fixture.cases.some((c) => Object.values(c.blocked).includes("sides")));
  assert.ok(fixture.cases.some((c) => Object.values(c.blocked).includes("covered")));
  assert.ok(fixture.cases.some((c) => !c.has_move));
});
