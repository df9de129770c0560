// The tile sets (board/faces.js and its siblings): what each draws on every
// face, read from a recording 2D context, since node has no canvas.
// Run: node --test static/js/tests/
import assert from "node:assert/strict";
import { test } from "node:test";

import { drawAtlas } from "../board/faces.js";
import { drawLarge } from "../board/faces-large.js";
import { TILE_SETS, table, tileSet } from "../board/looks.js";
import { FACES } from "../board/rules.js";

const DEVANAGARI = "०१२३४५६७८९";

/** A document whose canvas records every text drawn, by the face being drawn. */
function recorder() {
  const texts = [];
  const ctx = new Proxy(
    {},
    {
      get(target, name) {
        if (name === "fillText") return (text) => texts.push(String(text));
        if (name === "measureText") {
          return () => ({
            actualBoundingBoxLeft: 0,
            actualBoundingBoxRight: 10,
            actualBoundingBoxAscent: 10,
            actualBoundingBoxDescent: 0,
          });
        }
        if (name in target) return target[name];
        return () => undefined;
      },
      set(target, name, value) {
        target[name] = value;
        return true;
      },
    },
  );
  const doc = { createElement: () => ({ getContext: () => ctx }) };
  return { doc, texts };
}

for (const set of Object.keys(TILE_SETS)) {
  test(`${set}: a Nepali page's tiles carry no Western digit`, () => {
    const { doc, texts } = recorder();
    drawAtlas(doc, DEVANAGARI, set);
    const all = texts.join("");
    assert.doesNotMatch(all, /[0-9]/);
    // Every suit tile (27 of them) writes its number in Devanagari.
    const numbers = texts.filter((t) => /^[०-९]$/.test(t));
    assert.ok(numbers.length >= 27, `${numbers.length} numbers`);
    for (const n of "१२३४५६७८९") assert.ok(numbers.includes(n), n);
  });

  test(`${set}: an English page's tiles write 1 to 9 and the winds' letters`, () => {
    const { doc, texts } = recorder();
    const atlas = drawAtlas(doc, "0123456789", set);
    for (const n of "123456789") assert.ok(texts.includes(n), n);
    for (const letter of "ESWN") assert.ok(texts.includes(letter), letter);
    assert.equal(atlas.cells.size, FACES.length);
  });
}

test("an unknown set or table falls back to the default", () => {
  assert.equal(tileSet("neon"), "classic");
  assert.equal(tileSet("large"), "large");
  assert.equal(table(null), "felt");
});

test("the large-print set tells the suits apart by shape, not colour alone", () => {
  const shapes = {};
  for (const face of ["dots-5", "bamboo-5", "characters-5"]) {
    const used = new Set();
    const ctx = new Proxy(
      {},
      {
        get(target, name) {
          if (name === "measureText") {
            return () => ({
              actualBoundingBoxLeft: 0,
              actualBoundingBoxRight: 1,
              actualBoundingBoxAscent: 1,
              actualBoundingBoxDescent: 0,
            });
          }
          if (name in target) return target[name];
          return () => used.add(name);
        },
        set(target, name, value) {
          target[name] = value;
          return true;
        },
      },
    );
    drawLarge(ctx, face, "0123456789");
    shapes[face] = ["arc", "roundRect", "lineTo"].filter((call) => used.has(call)).join();
  }
  // A disc, an upright cane, a diamond: three different outlines.
  assert.deepEqual(shapes, { "dots-5": "arc", "bamboo-5": "roundRect", "characters-5": "lineTo" });
});
