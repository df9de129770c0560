// How the companion words what the server found (static/js/board/companion.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { ordinal, safetyWords, tileWords, turnedWords } from "../board/companion.js";

test("ordinals read as English does", () => {
  const got = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal);
  assert.deepEqual(got, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]);
});

test("a suit tile is named by its number and suit", () => {
  assert.equal(tileWords("dots-5"), "the 5 of Dots");
  assert.equal(tileWords("wind-east"), "the East wind");
});

test("where it turned names the pair and the tile", () => {
  const turned = { exact: true, clearable_now: false, turned_at: 23, face: "dots-5" };
  assert.match(turnedWords(turned), /^It turned on your 23rd pair, the 5 of Dots: /);
  assert.match(turnedWords({ ...turned, exact: false }), /ran out of time/);
  const why = { rule: "no-pairing", group: [1, 2] };
  assert.match(turnedWords({ ...turned, why }), /The last two 5 of Dots lie one on the other\.$/);
});

test("a lost pile's reason names the kinds its certificate names", () => {
  const turned = { exact: true, clearable_now: false, turned_at: 23, face: "dots-5" };
  const tiles = [1, 2, 3, 4, 5, 6].map((id) => ({ id, face: id < 3 ? "bamboo-4" : "wind-east" }));
  const pairs = {
    rule: "no-order",
    groups: [
      [1, 2],
      [3, 4, 5, 6],
    ],
    cases: [],
  };
  assert.match(
    turnedWords({ ...turned, why: pairs }, tiles),
    /Whichever way the 4 of Bamboo and the East wind are paired, their pairs block each other: no order of play takes them all\.$/,
  );
  const two = { rule: "no-order", groups: [[1, 2]], cases: [] };
  assert.match(
    turnedWords({ ...turned, why: two }, tiles),
    /The last two 4 of Bamboo can never both be free at once\.$/,
  );
  const stacked = { rule: "no-pairing", group: [1, 2] };
  assert.match(turnedWords({ ...turned, why: stacked }, tiles), /The last two 4 of Bamboo lie one/);
});

test("back to safety says how many pairs, or that it could not tell", () => {
  const found = { exact: true, clearable_now: false, pairs_back: 3 };
  assert.match(safetyWords(found), /^3 pairs back the pile could still be cleared/);
  assert.match(safetyWords({ ...found, pairs_back: 1 }), /^1 pair back/);
  assert.match(safetyWords({ ...found, clearable_now: true, pairs_back: 0 }), /no need/);
  assert.match(safetyWords({ exact: false }), /nothing was undone/);
});
