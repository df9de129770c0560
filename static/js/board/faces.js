// The 42 tile faces, drawn once into one canvas (a texture atlas) with plain
// 2D canvas paths: no downloaded art, no font beyond the system sans-serif.
// Each face is drawn in a 100 x 100 square (the square the tile's top shows,
// see tile.js), by the tile set the player chose (looks.js): the classic set
// here, the large-print and traditional sets in their own modules.
//
// The classic set: faces are read at about 30 CSS px on a phone, so suit
// tiles carry their number large (almost half the face's height) at the top
// left, and what is beside it keeps 8 and 9 apart too: dots and bamboo by the
// pattern's shape (8 is two columns of four or four of two, 9 three rows of
// three), characters by their Chinese numeral (八, 九) drawn in strokes.
// Every number on a tile is written in the page's own digits (the atlas
// takes the numeral set: a Nepali page prints ५ and ९ on every suit), and a
// wind carries the page's letter for it (पू on a Nepali page) beside its arrow.

import { DIGITS } from "../i18n.js";
import { drawLarge } from "./faces-large.js";
import { drawTraditional } from "./faces-traditional.js";
import { INK, PICTURES, WINDS, arrow, chineseNumeral, disc, ink, numeral, roundRect, shrunk, wan } from "./ink.js";
import { TILE_SETS, tileSet } from "./looks.js";
import { looks } from "./prefs.js";
import { FACES } from "./rules.js";

const COLS = 8;
const ROWS = 6;
const UNIT = 1.28; // canvas pixels per drawing unit
const CELL = 100 * UNIT;
const RANK_FONT = "bold 64px sans-serif";

/** A suit tile's number (the text of it) at the top left, large. */
function rank(ctx, n, digits) {
  ctx.fillStyle = INK.navy;
  ctx.font = RANK_FONT;
  return ink(ctx, numeral(n, digits), 3, 50, "left");
}

// --- characters: the number, its Chinese numeral, and a red "wan" ---------
function characters(ctx, n, digits) {
  const box = rank(ctx, n, digits);
  ctx.strokeStyle = INK.red;
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  ctx.lineWidth = 7;
  chineseNumeral(ctx, n, 48, 8, 46, 40);
  ctx.save();
  ctx.translate(50, 58);
  ctx.scale(0.9, 0.9);
  ctx.translate(-50, -84);
  ctx.lineWidth = 6;
  wan(ctx, 84);
  ctx.restore();
  return box;
}

// --- dots: rings -------------------------------------------------------------
// [x, y, radius] of each ring, to the right of the number.
const DOT_LAYOUTS = {
  1: [[70, 56, 25]],
  2: [
    [71, 28, 16],
    [71, 74, 16],
  ],
  3: [
    [53, 20, 12],
    [71, 50, 12],
    [89, 80, 12],
  ],
  4: [
    [57, 30, 12],
    [85, 30, 12],
    [57, 72, 12],
    [85, 72, 12],
  ],
  5: [
    [56, 22, 10.5],
    [86, 22, 10.5],
    [71, 50, 10.5],
    [56, 78, 10.5],
    [86, 78, 10.5],
  ],
  6: [
    [57, 18, 10.5],
    [85, 18, 10.5],
    [57, 50, 10.5],
    [85, 50, 10.5],
    [57, 82, 10.5],
    [85, 82, 10.5],
  ],
  7: [
    [51, 12, 7.5],
    [71, 24, 7.5],
    [91, 36, 7.5],
    [58, 63, 9.5],
    [84, 63, 9.5],
    [58, 87, 9.5],
    [84, 87, 9.5],
  ],
  8: [
    [58, 13, 10],
    [84, 13, 10],
    [58, 38, 10],
    [84, 38, 10],
    [58, 63, 10],
    [84, 63, 10],
    [58, 88, 10],
    [84, 88, 10],
  ],
  9: [
    [52, 19, 9],
    [71, 19, 9],
    [90, 19, 9],
    [52, 50, 9],
    [71, 50, 9],
    [90, 50, 9],
    [52, 81, 9],
    [71, 81, 9],
    [90, 81, 9],
  ],
};

function dotColour(n, k) {
  if (n === 1) return INK.blue;
  if (n === 2) return k ? INK.blue : INK.green;
  if (n === 3) return [INK.blue, INK.red, INK.green][k];
  if (n === 5 && k === 2) return INK.red;
  if (n === 7) return k < 3 ? INK.green : INK.red;
  if (n === 9) return [INK.blue, INK.red, INK.green][Math.floor(k / 3)];
  return k % 2 ? INK.green : INK.blue;
}

function dots(ctx, n, digits) {
  DOT_LAYOUTS[n].forEach(([x, y, r], k) => {
    const colour = dotColour(n, k);
    disc(ctx, x, y, r, colour);
    disc(ctx, x, y, r * 0.68, INK.ivory);
    disc(ctx, x, y, r * 0.4, colour);
    if (n === 1) {
      ctx.strokeStyle = INK.red;
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.arc(x, y, r * 0.54, 0, Math.PI * 2);
      ctx.stroke();
    }
  });
  return rank(ctx, n, digits);
}

// --- bamboo: sticks ------------------------------------------------------------
// [x, y, length] of each stick, to the right of the number.
const STICK_LAYOUTS = {
  2: [
    [71, 28, 40],
    [71, 74, 40],
  ],
  3: [
    [71, 28, 40],
    [57, 74, 40],
    [85, 74, 40],
  ],
  4: [
    [57, 28, 40],
    [85, 28, 40],
    [57, 74, 40],
    [85, 74, 40],
  ],
  5: [
    [54, 28, 40],
    [88, 28, 40],
    [71, 51, 40],
    [54, 74, 40],
    [88, 74, 40],
  ],
  6: [
    [52, 28, 40],
    [71, 28, 40],
    [90, 28, 40],
    [52, 74, 40],
    [71, 74, 40],
    [90, 74, 40],
  ],
  7: [
    [71, 14, 22],
    [52, 46, 26],
    [71, 46, 26],
    [90, 46, 26],
    [52, 80, 26],
    [71, 80, 26],
    [90, 80, 26],
  ],
  8: [
    [50, 28, 40],
    [65, 28, 40],
    [80, 28, 40],
    [95, 28, 40],
    [50, 74, 40],
    [65, 74, 40],
    [80, 74, 40],
    [95, 74, 40],
  ],
  9: [
    [52, 18, 26],
    [71, 18, 26],
    [90, 18, 26],
    [52, 50, 26],
    [71, 50, 26],
    [90, 50, 26],
    [52, 82, 26],
    [71, 82, 26],
    [90, 82, 26],
  ],
};

function stickColour(n, k) {
  if ((n === 5 || n === 7) && (n === 5 ? k === 2 : k === 0)) return INK.red;
  if (n === 9 && k % 3 === 1) return INK.red;
  if (n === 8 && (k === 1 || k === 6)) return INK.blue;
  return INK.green;
}

function stick(ctx, x, y, len, colour, width) {
  const top = y - len / 2;
  ctx.fillStyle = colour;
  roundRect(ctx, x - width / 2, top, width, len, width / 2);
  ctx.fill();
  // Nodes of the cane: light bands at the ends and the middle.
  ctx.fillStyle = INK.ivory;
  for (const f of [0.22, 0.5, 0.78]) {
    ctx.fillRect(x - width / 2, top + len * f - 1.2, width, 2.4);
  }
}

function bamboo(ctx, n, digits) {
  if (n === 1) {
    stick(ctx, 70, 60, 72, INK.green, 16);
    ctx.fillStyle = INK.green;
    for (const side of [-1, 1]) {
      ctx.beginPath();
      ctx.ellipse(70 + side * 15, 32, 14, 5, side * -0.6, 0, Math.PI * 2);
      ctx.fill();
    }
    disc(ctx, 70, 17, 7, INK.red);
  } else {
    const width = n === 8 ? 8 : n >= 6 ? 9 : 11;
    STICK_LAYOUTS[n].forEach(([x, y, len], k) => stick(ctx, x, y, len, stickColour(n, k), width));
  }
  return rank(ctx, n, digits);
}

// --- winds: the page's letter and an arrow for the direction ---------------------
function wind(ctx, face) {
  const [letter, angle] = WINDS[face];
  ctx.fillStyle = INK.navy;
  ctx.font = "bold 62px sans-serif";
  const box = ink(ctx, letter, 50, 60, "center");
  ctx.fillStyle = INK.red;
  arrow(ctx, 50, 82, angle, 30);
  return box;
}

// --- dragons ---------------------------------------------------------------------
function dragon(ctx, face) {
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  if (face === "dragon-red") {
    // A bold "centre" sign: a box pierced by a stroke.
    ctx.strokeStyle = INK.red;
    ctx.lineWidth = 11;
    ctx.strokeRect(22, 42, 56, 40);
    ctx.beginPath();
    ctx.moveTo(50, 18);
    ctx.lineTo(50, 116);
    ctx.stroke();
  } else if (face === "dragon-green") {
    // A green medallion with a four-pointed star cut out of it.
    disc(ctx, 50, 65, 38, INK.green);
    ctx.fillStyle = INK.ivory;
    ctx.beginPath();
    for (let k = 0; k < 8; k++) {
      const a = -Math.PI / 2 + (k / 8) * Math.PI * 2;
      const r = k % 2 ? 9 : 30;
      ctx.lineTo(50 + Math.cos(a) * r, 65 + Math.sin(a) * r);
    }
    ctx.closePath();
    ctx.fill();
  } else {
    // The white dragon: an empty double frame.
    ctx.strokeStyle = INK.blue;
    ctx.lineWidth = 7;
    ctx.strokeRect(18, 18, 64, 94);
    ctx.lineWidth = 3;
    ctx.strokeRect(30, 30, 40, 70);
  }
}

// --- flowers and seasons: a picture each, in a coloured frame -----------------------
function bonus(ctx, face) {
  const isFlower = face.startsWith("flower-");
  // The frame colour says which group a tile matches: any flower, any season.
  ctx.strokeStyle = isFlower ? INK.pink : INK.teal;
  ctx.lineWidth = 5;
  roundRect(ctx, 5, 5, 90, 90, 9);
  ctx.stroke();
  shrunk(ctx, () => PICTURES[face](ctx), 0.66);
}

/** Draw one classic face; the box of its rank glyph (number or letter), or null. */
function drawClassic(ctx, face, digits) {
  const [kind, value] = face.split("-");
  const n = Number(value);
  // A hairline inside the edge: the face reads as inlaid in the block.
  ctx.strokeStyle = INK.edge;
  ctx.lineWidth = 1.5;
  roundRect(ctx, 2.5, 2.5, 95, 95, 8);
  ctx.stroke();
  if (kind === "characters") return characters(ctx, n, digits);
  if (kind === "dots") return dots(ctx, n, digits);
  if (kind === "bamboo") return bamboo(ctx, n, digits);
  if (kind === "wind") return wind(ctx, face);
  if (kind === "dragon") shrunk(ctx, () => dragon(ctx, face), 0.76);
  else bonus(ctx, face);
  return null;
}

const DRAWERS = { classic: drawClassic, large: drawLarge, traditional: drawTraditional };

/**
 * Draw every face into one canvas. Returns the canvas, the size of one cell
 * in texture coordinates, for each face the texture coordinate of its cell's
 * lower left corner (textures are flipped: v grows upwards) and the box of
 * its rank glyph in face units (0..100, y down). `digits`: the ten digits
 * the tiles print (the page's own by default); `set`: the tile set
 * (looks.js; the player's choice by default).
 */
export function drawAtlas(doc = document, digits = DIGITS, set = looks().set) {
  const name = tileSet(set);
  const draw = DRAWERS[name];
  const canvas = doc.createElement("canvas");
  canvas.width = COLS * CELL;
  canvas.height = ROWS * CELL;
  const ctx = canvas.getContext("2d");
  const cells = new Map();
  const glyphs = new Map();
  FACES.forEach((face, k) => {
    const col = k % COLS;
    const row = Math.floor(k / COLS);
    ctx.save();
    ctx.translate(col * CELL, row * CELL);
    ctx.scale(UNIT, UNIT);
    ctx.fillStyle = TILE_SETS[name].top;
    ctx.fillRect(0, 0, 100, 100);
    const box = draw(ctx, face, digits);
    ctx.restore();
    cells.set(face, [col / COLS, 1 - (row + 1) / ROWS]);
    if (box) glyphs.set(face, box);
  });
  return { canvas, cellSize: [1 / COLS, 1 / ROWS], cells, glyphs };
}
