// The traditional tile set (looks.js): fuller art that fills the face, as
// printed tiles have it, with the number small in the top left corner (in
// the page's digits). Dots are ornamented coins, bamboo two-tone canes with
// a bird on the one, characters a large Chinese numeral over a red "wan",
// winds a compass, flowers and seasons their picture at full size.

import {
  INK,
  PICTURES,
  WINDS,
  arrow,
  chineseNumeral,
  circle,
  disc,
  ink,
  numeral,
  roundRect,
  shrunk,
  wan,
} from "./ink.js";

const JADE = "#136b4a";
const JADE_LIGHT = "#5fb98a";
const CRIMSON = "#b0241f";
const INDIGO = "#24336e";
const GOLD = "#c98a12";

// The art's box, right of the corner numeral: x 16..98, y 3..97.
const X0 = 16;
const W = 82;
const Y0 = 3;
const H = 94;
const at = (u, v) => [X0 + u * W, Y0 + v * H];

/** The number, small, in the top left corner; its ink box. */
function corner(ctx, n, digits) {
  ctx.fillStyle = INDIGO;
  ctx.font = "bold 19px sans-serif";
  return ink(ctx, numeral(n, digits), 3, 20, "left");
}

// Coins and canes by (u, v) in the art's box; the size is in face units.
const GRID = {
  1: [[0.5, 0.5]],
  2: [
    [0.5, 0.25],
    [0.5, 0.75],
  ],
  3: [
    [0.2, 0.17],
    [0.5, 0.5],
    [0.8, 0.83],
  ],
  4: [
    [0.27, 0.25],
    [0.73, 0.25],
    [0.27, 0.75],
    [0.73, 0.75],
  ],
  5: [
    [0.22, 0.2],
    [0.78, 0.2],
    [0.5, 0.5],
    [0.22, 0.8],
    [0.78, 0.8],
  ],
  6: [
    [0.27, 0.17],
    [0.73, 0.17],
    [0.27, 0.5],
    [0.73, 0.5],
    [0.27, 0.83],
    [0.73, 0.83],
  ],
  7: [
    [0.17, 0.12],
    [0.5, 0.24],
    [0.83, 0.36],
    [0.3, 0.63],
    [0.7, 0.63],
    [0.3, 0.88],
    [0.7, 0.88],
  ],
  8: [
    [0.27, 0.12],
    [0.73, 0.12],
    [0.27, 0.37],
    [0.73, 0.37],
    [0.27, 0.63],
    [0.73, 0.63],
    [0.27, 0.88],
    [0.73, 0.88],
  ],
  9: [
    [0.17, 0.17],
    [0.5, 0.17],
    [0.83, 0.17],
    [0.17, 0.5],
    [0.5, 0.5],
    [0.83, 0.5],
    [0.17, 0.83],
    [0.5, 0.83],
    [0.83, 0.83],
  ],
};
const COIN_R = { 1: 38, 2: 20, 3: 15, 4: 17, 5: 14, 6: 13, 7: 10.5, 8: 10.5, 9: 12.5 };

function coinColour(n, k) {
  if (n === 1) return INDIGO;
  if (n === 7) return k < 3 ? JADE : CRIMSON;
  if (n === 9) return [INDIGO, CRIMSON, JADE][Math.floor(k / 3)];
  if (n === 5 && k === 2) return CRIMSON;
  return [INDIGO, JADE, CRIMSON][k % 3];
}

/** A coin: a coloured rim, a ring of petals, a gold eye. */
function coin(ctx, x, y, r, colour) {
  disc(ctx, x, y, r, colour);
  disc(ctx, x, y, r * 0.78, "#f3e4c0");
  ctx.fillStyle = colour;
  const petals = r > 20 ? 12 : 8;
  for (let k = 0; k < petals; k++) {
    const a = (k / petals) * Math.PI * 2;
    ctx.beginPath();
    ctx.ellipse(x + Math.cos(a) * r * 0.5, y + Math.sin(a) * r * 0.5, r * 0.2, r * 0.1, a, 0, Math.PI * 2);
    ctx.fill();
  }
  disc(ctx, x, y, r * 0.24, GOLD);
}

function dots(ctx, n, digits) {
  GRID[n].forEach(([u, v], k) => coin(ctx, ...at(u, v), COIN_R[n], coinColour(n, k)));
  return corner(ctx, n, digits);
}

// How long a cane is on each tile: as long as its row leaves room for.
const CANE_LEN = { 2: 42, 3: 30, 4: 42, 5: 30, 6: 28, 7: 20, 8: 21, 9: 27 };

/** A cane: a jade body with a light stripe, nodes at its ends and middle. */
function cane(ctx, x, y, len, width, colour) {
  const top = y - len / 2;
  ctx.fillStyle = colour;
  roundRect(ctx, x - width / 2, top, width, len, width / 2);
  ctx.fill();
  ctx.fillStyle = JADE_LIGHT;
  ctx.fillRect(x - width * 0.1, top + 2, width * 0.2, len - 4);
  ctx.fillStyle = colour;
  for (const f of [0.02, 0.5, 0.98]) {
    roundRect(ctx, x - width * 0.7, top + len * f - 2, width * 1.4, 4, 2);
    ctx.fill();
  }
}

/** The one of bamboo: a bird on a cane. */
function bird(ctx) {
  cane(ctx, 70, 62, 66, 8, JADE);
  ctx.fillStyle = CRIMSON;
  for (let k = 0; k < 5; k++) {
    const a = 2.2 + k * 0.32;
    ctx.beginPath();
    ctx.ellipse(52 + Math.cos(a) * 20, 62 + Math.sin(a) * 20, 13, 4.5, a, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.fillStyle = JADE;
  ctx.beginPath();
  ctx.ellipse(54, 52, 16, 10, -0.5, 0, Math.PI * 2);
  ctx.fill();
  disc(ctx, 66, 36, 7, INDIGO);
  ctx.fillStyle = GOLD;
  ctx.beginPath();
  ctx.moveTo(72, 34);
  ctx.lineTo(82, 37);
  ctx.lineTo(72, 40);
  ctx.fill();
  disc(ctx, 67, 35, 1.8, "#f3e4c0");
}

function bamboo(ctx, n, digits) {
  if (n === 1) bird(ctx);
  else {
    GRID[n].forEach(([u, v], k) => {
      const colour = (n === 5 && k === 2) || (n === 9 && k % 3 === 1) || (n === 7 && k === 1) ? CRIMSON : JADE;
      cane(ctx, ...at(u, v), CANE_LEN[n], n >= 7 ? 9 : 11, colour);
    });
  }
  return corner(ctx, n, digits);
}

function characters(ctx, n, digits) {
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  ctx.strokeStyle = INDIGO;
  ctx.lineWidth = 8;
  chineseNumeral(ctx, n, 26, 6, 58, 40);
  ctx.strokeStyle = CRIMSON;
  ctx.lineWidth = 7;
  ctx.save();
  ctx.translate(54, 0);
  ctx.scale(1.05, 1.05);
  ctx.translate(-50, 0);
  wan(ctx, 52);
  ctx.restore();
  return corner(ctx, n, digits);
}

function wind(ctx, face) {
  const [letter, angle] = WINDS[face];
  ctx.strokeStyle = INDIGO;
  ctx.lineWidth = 3;
  circle(ctx, 56, 56, 36);
  ctx.stroke();
  ctx.fillStyle = INDIGO;
  for (let k = 0; k < 8; k++) {
    const a = (k / 8) * Math.PI * 2;
    const r = k % 2 ? 4 : 6;
    ctx.beginPath();
    ctx.arc(56 + Math.cos(a) * 36, 56 + Math.sin(a) * 36, r / 2, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.fillStyle = CRIMSON;
  arrow(ctx, 56, 56, angle, 58);
  ctx.fillStyle = INDIGO;
  ctx.font = "bold 26px sans-serif";
  return ink(ctx, letter, 3, 26, "left");
}

function dragon(ctx, face) {
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  if (face === "dragon-red") {
    ctx.strokeStyle = CRIMSON;
    ctx.lineWidth = 9;
    roundRect(ctx, 20, 30, 60, 40, 6);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(50, 8);
    ctx.lineTo(50, 94);
    ctx.stroke();
  } else if (face === "dragon-green") {
    // Leaves whirling round a jade eye.
    ctx.fillStyle = JADE;
    for (let k = 0; k < 6; k++) {
      const a = (k / 6) * Math.PI * 2;
      ctx.beginPath();
      ctx.ellipse(50 + Math.cos(a) * 24, 50 + Math.sin(a) * 24, 22, 8, a + 0.6, 0, Math.PI * 2);
      ctx.fill();
    }
    disc(ctx, 50, 50, 9, GOLD);
  } else {
    ctx.strokeStyle = INDIGO;
    ctx.lineWidth = 5;
    ctx.strokeRect(12, 8, 76, 84);
    ctx.lineWidth = 2;
    ctx.strokeRect(20, 16, 60, 68);
    ctx.fillStyle = INDIGO;
    for (const [x, y] of [
      [12, 8],
      [88, 8],
      [12, 92],
      [88, 92],
    ])
      ctx.fillRect(x - 5, y - 5, 10, 10);
  }
}

// Flowers and seasons count one to four, in the order of the faces.
const BONUS_NUMBER = {
  "flower-plum": 1,
  "flower-orchid": 2,
  "flower-chrysanthemum": 3,
  "flower-bamboo": 4,
  "season-spring": 1,
  "season-summer": 2,
  "season-autumn": 3,
  "season-winter": 4,
};

function bonus(ctx, face, digits) {
  ctx.strokeStyle = face.startsWith("flower-") ? INK.pink : INK.teal;
  ctx.lineWidth = 2.5;
  roundRect(ctx, 4, 4, 92, 92, 6);
  ctx.stroke();
  shrunk(ctx, () => PICTURES[face](ctx), 0.8);
  ctx.fillStyle = face.startsWith("flower-") ? INK.pink : INK.teal;
  ctx.font = "bold 17px sans-serif";
  ink(ctx, numeral(BONUS_NUMBER[face], digits), 90, 22, "right");
}

/** Draw one traditional face; the box of its corner number or letter, or null. */
export function drawTraditional(ctx, face, digits) {
  const [kind, value] = face.split("-");
  const n = Number(value);
  if (kind === "characters") return characters(ctx, n, digits);
  if (kind === "dots") return dots(ctx, n, digits);
  if (kind === "bamboo") return bamboo(ctx, n, digits);
  if (kind === "wind") return wind(ctx, face);
  if (kind === "dragon") dragon(ctx, face);
  else bonus(ctx, face, digits);
  return null;
}
