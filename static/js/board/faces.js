// The 42 tile faces, drawn once into one canvas (a texture atlas) with plain
// 2D canvas paths: no downloaded art, no font beyond the system sans-serif.
// Each face is drawn in a 100 x 100 square (the square the tile's top shows,
// see tile.js). Faces are read at about 30 CSS px on a phone, so suit tiles
// carry their number large (almost half the face's height) at the top left,
// and what is beside it keeps 8 and 9 apart too: dots and bamboo by the
// pattern's shape (8 is two columns of four or four of two, 9 three rows of
// three), characters by their Chinese numeral (八, 九) drawn in strokes.
// The number on a character tile is written in the page's own digits (the
// atlas takes the numeral set: a Nepali page prints ५ and ९); dots and
// bamboo keep Western digits beside pictures that count for themselves.

import { DIGITS } from "../i18n.js";
import { FACES } from "./rules.js";

const COLS = 8;
const ROWS = 6;
const UNIT = 1.28; // canvas pixels per drawing unit
const CELL = 100 * UNIT;
const RANK_FONT = "bold 64px sans-serif";

const INK = {
  ivory: "#f4ecd6", // the block's ivory (tile.js), so face and top are one
  edge: "#d9ceb2",
  blue: "#1f4e9a",
  green: "#1f7a4a",
  red: "#c4302b",
  navy: "#1b2a4a",
  pink: "#d9487a",
  teal: "#1d7f86",
  gold: "#e0a21b",
};

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

/** Draw text with its baseline at (x, y); the box its ink covers, [x0, y0, x1, y1]. */
function ink(ctx, text, x, y, align) {
  ctx.textAlign = align;
  ctx.textBaseline = "alphabetic";
  ctx.fillText(text, x, y);
  const m = ctx.measureText(text);
  return [
    x - m.actualBoundingBoxLeft,
    y - m.actualBoundingBoxAscent,
    x + m.actualBoundingBoxRight,
    y + m.actualBoundingBoxDescent,
  ];
}

/** A suit tile's number (the text of it) at the top left, large. */
function rank(ctx, text) {
  ctx.fillStyle = INK.navy;
  ctx.font = RANK_FONT;
  return ink(ctx, String(text), 3, 50, "left");
}

// --- characters: the number, its Chinese numeral, and a red "wan" ---------
// Each numeral as strokes in a unit box (x right, y down).
const NUMERALS = {
  1: [[[0.05, 0.5], [0.95, 0.5]]],
  2: [[[0.2, 0.25], [0.8, 0.25]], [[0.05, 0.82], [0.95, 0.82]]],
  3: [[[0.15, 0.12], [0.85, 0.12]], [[0.25, 0.5], [0.75, 0.5]], [[0.05, 0.9], [0.95, 0.9]]],
  4: [
    [[0.08, 0.12], [0.08, 0.92], [0.92, 0.92], [0.92, 0.12], [0.08, 0.12]],
    [[0.38, 0.12], [0.36, 0.5], [0.22, 0.7]],
    [[0.6, 0.12], [0.6, 0.6], [0.78, 0.68]],
  ],
  5: [
    [[0.12, 0.1], [0.88, 0.1]],
    [[0.45, 0.1], [0.32, 0.9]],
    [[0.2, 0.48], [0.75, 0.48], [0.72, 0.9]],
    [[0.05, 0.9], [0.95, 0.9]],
  ],
  6: [
    [[0.48, 0.02], [0.56, 0.16]],
    [[0.05, 0.36], [0.95, 0.36]],
    [[0.38, 0.56], [0.15, 0.92]],
    [[0.62, 0.56], [0.88, 0.92]],
  ],
  7: [
    [[0.05, 0.45], [0.95, 0.32]],
    [[0.4, 0.05], [0.4, 0.8], [0.5, 0.9], [0.92, 0.9], [0.92, 0.72]],
  ],
  8: [
    [[0.42, 0.1], [0.32, 0.55], [0.08, 0.92]],
    [[0.6, 0.12], [0.7, 0.55], [0.95, 0.9]],
  ],
  9: [
    [[0.45, 0.05], [0.42, 0.5], [0.1, 0.95]],
    [[0.1, 0.32], [0.65, 0.32], [0.62, 0.85], [0.75, 0.92], [0.95, 0.88], [0.95, 0.7]],
  ],
};

function characters(ctx, n, numerals) {
  const box = rank(ctx, numerals[n]);
  ctx.strokeStyle = INK.red;
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  ctx.lineWidth = 7;
  for (const stroke of NUMERALS[n]) {
    ctx.beginPath();
    stroke.forEach(([x, y]) => ctx.lineTo(48 + x * 46, 8 + y * 40));
    ctx.stroke();
  }
  // A simplified "wan" sign: grass radical, a box, and a frame below.
  ctx.save();
  ctx.translate(50, 58);
  ctx.scale(0.9, 0.9);
  ctx.translate(-50, -84);
  ctx.lineWidth = 6;
  ctx.beginPath();
  ctx.moveTo(28, 90);
  ctx.lineTo(72, 90);
  ctx.moveTo(40, 84);
  ctx.lineTo(40, 96);
  ctx.moveTo(60, 84);
  ctx.lineTo(60, 96);
  ctx.stroke();
  ctx.strokeRect(37, 98, 26, 9);
  ctx.beginPath();
  ctx.moveTo(30, 124);
  ctx.lineTo(30, 111);
  ctx.lineTo(70, 111);
  ctx.lineTo(70, 124);
  ctx.moveTo(50, 107);
  ctx.lineTo(50, 124);
  ctx.stroke();
  ctx.restore();
  return box;
}

// --- dots: rings -------------------------------------------------------------
// [x, y, radius] of each ring, to the right of the number.
const DOT_LAYOUTS = {
  1: [[70, 56, 25]],
  2: [[71, 28, 16], [71, 74, 16]],
  3: [[53, 20, 12], [71, 50, 12], [89, 80, 12]],
  4: [[57, 30, 12], [85, 30, 12], [57, 72, 12], [85, 72, 12]],
  5: [[56, 22, 10.5], [86, 22, 10.5], [71, 50, 10.5], [56, 78, 10.5], [86, 78, 10.5]],
  6: [[57, 18, 10.5], [85, 18, 10.5], [57, 50, 10.5], [85, 50, 10.5], [57, 82, 10.5], [85, 82, 10.5]],
  7: [
    [51, 12, 7.5], [71, 24, 7.5], [91, 36, 7.5],
    [58, 63, 9.5], [84, 63, 9.5], [58, 87, 9.5], [84, 87, 9.5],
  ],
  8: [
    [58, 13, 10], [84, 13, 10], [58, 38, 10], [84, 38, 10],
    [58, 63, 10], [84, 63, 10], [58, 88, 10], [84, 88, 10],
  ],
  9: [
    [52, 19, 9], [71, 19, 9], [90, 19, 9],
    [52, 50, 9], [71, 50, 9], [90, 50, 9],
    [52, 81, 9], [71, 81, 9], [90, 81, 9],
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

function dots(ctx, n) {
  DOT_LAYOUTS[n].forEach(([x, y, r], k) => {
    const colour = dotColour(n, k);
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = INK.ivory;
    ctx.beginPath();
    ctx.arc(x, y, r * 0.68, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(x, y, r * 0.4, 0, Math.PI * 2);
    ctx.fill();
    if (n === 1) {
      ctx.strokeStyle = INK.red;
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.arc(x, y, r * 0.54, 0, Math.PI * 2);
      ctx.stroke();
    }
  });
  return rank(ctx, n);
}

// --- bamboo: sticks ------------------------------------------------------------
// [x, y, length] of each stick, to the right of the number.
const STICK_LAYOUTS = {
  2: [[71, 28, 40], [71, 74, 40]],
  3: [[71, 28, 40], [57, 74, 40], [85, 74, 40]],
  4: [[57, 28, 40], [85, 28, 40], [57, 74, 40], [85, 74, 40]],
  5: [[54, 28, 40], [88, 28, 40], [71, 51, 40], [54, 74, 40], [88, 74, 40]],
  6: [[52, 28, 40], [71, 28, 40], [90, 28, 40], [52, 74, 40], [71, 74, 40], [90, 74, 40]],
  7: [
    [71, 14, 22], [52, 46, 26], [71, 46, 26], [90, 46, 26],
    [52, 80, 26], [71, 80, 26], [90, 80, 26],
  ],
  8: [
    [50, 28, 40], [65, 28, 40], [80, 28, 40], [95, 28, 40],
    [50, 74, 40], [65, 74, 40], [80, 74, 40], [95, 74, 40],
  ],
  9: [
    [52, 18, 26], [71, 18, 26], [90, 18, 26],
    [52, 50, 26], [71, 50, 26], [90, 50, 26],
    [52, 82, 26], [71, 82, 26], [90, 82, 26],
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

function bamboo(ctx, n) {
  if (n === 1) {
    stick(ctx, 70, 60, 72, INK.green, 16);
    ctx.fillStyle = INK.green;
    for (const side of [-1, 1]) {
      ctx.beginPath();
      ctx.ellipse(70 + side * 15, 32, 14, 5, side * -0.6, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.fillStyle = INK.red;
    ctx.beginPath();
    ctx.arc(70, 17, 7, 0, Math.PI * 2);
    ctx.fill();
  } else {
    const width = n === 8 ? 8 : n >= 6 ? 9 : 11;
    STICK_LAYOUTS[n].forEach(([x, y, len], k) => stick(ctx, x, y, len, stickColour(n, k), width));
  }
  return rank(ctx, n);
}

// --- winds: letter and an arrow for the direction -------------------------------
const WIND = {
  "wind-east": ["E", 0],
  "wind-south": ["S", Math.PI / 2],
  "wind-west": ["W", Math.PI],
  "wind-north": ["N", -Math.PI / 2],
};

function wind(ctx, face) {
  const [letter, angle] = WIND[face];
  ctx.fillStyle = INK.navy;
  ctx.font = "bold 66px sans-serif";
  const box = ink(ctx, letter, 50, 60, "center");
  ctx.save();
  ctx.translate(50, 82);
  ctx.rotate(angle);
  ctx.scale(0.62, 0.62);
  ctx.fillStyle = INK.red;
  ctx.beginPath();
  ctx.moveTo(26, 0);
  ctx.lineTo(4, -14);
  ctx.lineTo(4, -6);
  ctx.lineTo(-22, -6);
  ctx.lineTo(-22, 6);
  ctx.lineTo(4, 6);
  ctx.lineTo(4, 14);
  ctx.closePath();
  ctx.fill();
  ctx.restore();
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
    ctx.fillStyle = INK.green;
    ctx.beginPath();
    ctx.arc(50, 65, 38, 0, Math.PI * 2);
    ctx.fill();
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
function petals(ctx, cx, cy, count, length, width, colour, turn = 0) {
  ctx.fillStyle = colour;
  for (let k = 0; k < count; k++) {
    const a = turn + (k / count) * Math.PI * 2;
    ctx.beginPath();
    ctx.ellipse(
      cx + Math.cos(a) * length * 0.55,
      cy + Math.sin(a) * length * 0.55,
      length * 0.55,
      width,
      a,
      0,
      Math.PI * 2,
    );
    ctx.fill();
  }
}

function stem(ctx, x0, y0, x1, y1, colour = INK.green, width = 4) {
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.lineCap = "round";
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.quadraticCurveTo((x0 + x1) / 2 + 8, (y0 + y1) / 2, x1, y1);
  ctx.stroke();
}

function leaf(ctx, x, y, length, angle, colour = INK.green) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(angle);
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.moveTo(0, 0);
  ctx.quadraticCurveTo(length / 2, -length / 4, length, 0);
  ctx.quadraticCurveTo(length / 2, length / 4, 0, 0);
  ctx.fill();
  ctx.restore();
}

const PICTURES = {
  "flower-plum"(ctx) {
    stem(ctx, 22, 122, 60, 70, "#6b4a2f", 6);
    petals(ctx, 54, 58, 5, 34, 14, "#e77fa6", -Math.PI / 2);
    ctx.fillStyle = INK.gold;
    ctx.beginPath();
    ctx.arc(54, 58, 8, 0, Math.PI * 2);
    ctx.fill();
  },
  "flower-orchid"(ctx) {
    stem(ctx, 50, 124, 50, 70);
    leaf(ctx, 50, 118, 40, -2.4);
    leaf(ctx, 50, 118, 40, -0.7);
    petals(ctx, 50, 52, 3, 40, 10, "#8e4fc1", -Math.PI / 2);
    petals(ctx, 50, 52, 3, 24, 7, "#c9a2ee", Math.PI / 2);
    ctx.fillStyle = INK.gold;
    ctx.beginPath();
    ctx.arc(50, 52, 6, 0, Math.PI * 2);
    ctx.fill();
  },
  "flower-chrysanthemum"(ctx) {
    stem(ctx, 50, 124, 50, 80);
    petals(ctx, 50, 56, 18, 40, 5, "#e58a12");
    petals(ctx, 50, 56, 12, 24, 5, INK.gold, 0.2);
    ctx.fillStyle = "#8a4b0b";
    ctx.beginPath();
    ctx.arc(50, 56, 7, 0, Math.PI * 2);
    ctx.fill();
  },
  "flower-bamboo"(ctx) {
    stem(ctx, 40, 124, 44, 14, INK.green, 7);
    for (const [y, a] of [[32, -0.5], [56, -2.6], [80, -0.4], [98, -2.8]]) {
      leaf(ctx, 44, y, 42, a, "#2f9a5a");
    }
  },
  "season-spring"(ctx) {
    ctx.fillStyle = "#7a5532";
    roundRect(ctx, 20, 108, 60, 12, 6);
    ctx.fill();
    stem(ctx, 50, 110, 50, 50);
    leaf(ctx, 50, 64, 36, -0.4, "#58b35a");
    leaf(ctx, 50, 76, 36, -2.7, "#58b35a");
    ctx.fillStyle = "#f2c94c";
    ctx.beginPath();
    ctx.arc(50, 44, 10, 0, Math.PI * 2);
    ctx.fill();
  },
  "season-summer"(ctx) {
    ctx.strokeStyle = "#f08a1c";
    ctx.lineWidth = 6;
    ctx.lineCap = "round";
    for (let k = 0; k < 12; k++) {
      const a = (k / 12) * Math.PI * 2;
      ctx.beginPath();
      ctx.moveTo(50 + Math.cos(a) * 28, 66 + Math.sin(a) * 28);
      ctx.lineTo(50 + Math.cos(a) * 40, 66 + Math.sin(a) * 40);
      ctx.stroke();
    }
    ctx.fillStyle = "#f5b51d";
    ctx.beginPath();
    ctx.arc(50, 66, 22, 0, Math.PI * 2);
    ctx.fill();
  },
  "season-autumn"(ctx) {
    // A maple leaf: a star of uneven points on a short stalk.
    stem(ctx, 50, 120, 50, 86, "#7a3b12", 5);
    ctx.fillStyle = "#d2541b";
    ctx.beginPath();
    // Lobe lengths from the top point round; the stalk sits in the gap
    // between the two shortest, at the bottom.
    const lobes = [46, 40, 30, 18, 18, 30, 40];
    for (let k = 0; k < 14; k++) {
      const a = -Math.PI / 2 + (k / 14) * Math.PI * 2;
      const r = k % 2 ? 14 : lobes[k / 2];
      const x = 50 + Math.cos(a) * r;
      const y = 64 + Math.sin(a) * r;
      if (k === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.closePath();
    ctx.fill();
  },
  "season-winter"(ctx) {
    ctx.strokeStyle = "#2b78c2";
    ctx.lineWidth = 5;
    ctx.lineCap = "round";
    for (let k = 0; k < 6; k++) {
      ctx.save();
      ctx.translate(50, 66);
      ctx.rotate((k / 6) * Math.PI * 2);
      ctx.beginPath();
      ctx.moveTo(0, 0);
      ctx.lineTo(0, -40);
      for (const d of [16, 28]) {
        ctx.moveTo(0, -d);
        ctx.lineTo(-9, -d - 9);
        ctx.moveTo(0, -d);
        ctx.lineTo(9, -d - 9);
      }
      ctx.stroke();
      ctx.restore();
    }
  },
};

/** Draw a picture made for a 100 x 130 face into the middle of the square. */
function shrunk(ctx, draw, scale) {
  ctx.save();
  ctx.translate(50, 50);
  ctx.scale(scale, scale);
  ctx.translate(-50, -65);
  draw();
  ctx.restore();
}

function bonus(ctx, face) {
  const isFlower = face.startsWith("flower-");
  // The frame colour says which group a tile matches: any flower, any season.
  ctx.strokeStyle = isFlower ? INK.pink : INK.teal;
  ctx.lineWidth = 5;
  roundRect(ctx, 5, 5, 90, 90, 9);
  ctx.stroke();
  shrunk(ctx, () => PICTURES[face](ctx), 0.66);
}

/** Draw one face; the box of its rank glyph (number or letter), or null. */
function drawFace(ctx, face, numerals) {
  const [kind, value] = face.split("-");
  const n = Number(value);
  if (kind === "characters") return characters(ctx, n, numerals);
  if (kind === "dots") return dots(ctx, n);
  if (kind === "bamboo") return bamboo(ctx, n);
  if (kind === "wind") return wind(ctx, face);
  if (kind === "dragon") shrunk(ctx, () => dragon(ctx, face), 0.76);
  else bonus(ctx, face);
  return null;
}

/**
 * Draw every face into one canvas. Returns the canvas, the size of one cell
 * in texture coordinates, for each face the texture coordinate of its cell's
 * lower left corner (textures are flipped: v grows upwards) and the box of
 * its rank glyph in face units (0..100, y down). `numerals`: the ten digits
 * character tiles print (the page's own by default).
 */
export function drawAtlas(doc = document, numerals = DIGITS) {
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
    ctx.fillStyle = INK.ivory;
    ctx.fillRect(0, 0, 100, 100);
    const box = drawFace(ctx, face, numerals);
    ctx.restore();
    cells.set(face, [col / COLS, 1 - (row + 1) / ROWS]);
    if (box) glyphs.set(face, box);
  });
  return { canvas, cellSize: [1 / COLS, 1 / ROWS], cells, glyphs };
}
