// The large-print tile set (looks.js): for small phones and low vision.
// Each suit tile is its number, as large as the face allows, in white on a
// shape of the suit's colour, and the shape tells the suit without the
// colour: dots a disc, bamboo an upright cane, characters a diamond.
// Winds are their letter in black with a bold arrow; dragons, flowers and
// seasons are one bold picture each, flowers in a ring, seasons in a square.

import { INK, PICTURES, WINDS, arrow, circle, disc, ink, numeral, roundRect, shrunk } from "./ink.js";

const BLUE = "#0b3d91";
const GREEN = "#0d6b32";
const RED = "#b3141c";
const BLACK = "#111111";
const WHITE = "#ffffff";

function discShape(ctx) {
  disc(ctx, 50, 50, 46, BLUE);
}

function cane(ctx) {
  ctx.fillStyle = GREEN;
  roundRect(ctx, 20, 3, 60, 94, 14);
  ctx.fill();
  // Nodes of the cane, top and bottom, where the number leaves room.
  ctx.fillStyle = WHITE;
  ctx.fillRect(20, 15, 60, 4);
  ctx.fillRect(20, 81, 60, 4);
}

function diamond(ctx) {
  ctx.fillStyle = RED;
  ctx.beginPath();
  ctx.moveTo(50, 1);
  ctx.lineTo(99, 50);
  ctx.lineTo(50, 99);
  ctx.lineTo(1, 50);
  ctx.closePath();
  ctx.fill();
}

const SHAPES = { dots: discShape, bamboo: cane, characters: diamond };
const FONT = { dots: 70, bamboo: 66, characters: 56 };

function suit(ctx, kind, n, digits) {
  SHAPES[kind](ctx);
  ctx.fillStyle = WHITE;
  ctx.font = `bold ${FONT[kind]}px sans-serif`;
  // Centre the number's ink on the face, whatever its script's metrics.
  const text = numeral(n, digits);
  const m = ctx.measureText(text);
  const y = 50 + (m.actualBoundingBoxAscent - m.actualBoundingBoxDescent) / 2;
  return ink(ctx, text, 50, y, "center");
}

function wind(ctx, face) {
  const [letter, angle] = WINDS[face];
  ctx.fillStyle = BLACK;
  ctx.font = "bold 64px sans-serif";
  const box = ink(ctx, letter, 50, 58, "center");
  ctx.fillStyle = RED;
  arrow(ctx, 50, 80, angle, 40);
  return box;
}

function dragon(ctx, face) {
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  if (face === "dragon-red") {
    ctx.fillStyle = RED;
    roundRect(ctx, 10, 10, 80, 80, 10);
    ctx.fill();
    ctx.strokeStyle = WHITE;
    ctx.lineWidth = 10;
    ctx.strokeRect(28, 36, 44, 30);
    ctx.beginPath();
    ctx.moveTo(50, 18);
    ctx.lineTo(50, 84);
    ctx.stroke();
  } else if (face === "dragon-green") {
    ctx.fillStyle = GREEN;
    ctx.beginPath();
    for (let k = 0; k < 16; k++) {
      const a = -Math.PI / 2 + (k / 16) * Math.PI * 2;
      const r = k % 2 ? 30 : 47;
      ctx.lineTo(50 + Math.cos(a) * r, 50 + Math.sin(a) * r);
    }
    ctx.closePath();
    ctx.fill();
    disc(ctx, 50, 50, 14, WHITE);
  } else {
    ctx.strokeStyle = BLUE;
    ctx.lineWidth = 10;
    ctx.strokeRect(12, 12, 76, 76);
    ctx.lineWidth = 5;
    ctx.strokeRect(30, 30, 40, 40);
  }
}

function bonus(ctx, face) {
  ctx.lineWidth = 8;
  if (face.startsWith("flower-")) {
    ctx.strokeStyle = INK.pink;
    circle(ctx, 50, 50, 45);
  } else {
    ctx.strokeStyle = INK.teal;
    roundRect(ctx, 5, 5, 90, 90, 4);
  }
  ctx.stroke();
  shrunk(ctx, () => PICTURES[face](ctx), 0.72);
}

/** Draw one large-print face; the box of its number or letter, or null. */
export function drawLarge(ctx, face, digits) {
  const [kind, value] = face.split("-");
  if (SHAPES[kind]) return suit(ctx, kind, Number(value), digits);
  if (kind === "wind") return wind(ctx, face);
  if (kind === "dragon") dragon(ctx, face);
  else bonus(ctx, face);
  return null;
}
