// The 42 tile faces, drawn once into one canvas (a texture atlas) with plain
// 2D canvas paths: no downloaded art, no font beyond the system sans-serif.
// Each face is drawn in a 100 x 130 box; big shapes and strong colours keep
// them apart at phone size, and suit tiles carry their number in a corner.

import { FACES } from "./rules.js";

const COLS = 8;
const ROWS = 6;
const UNIT = 1.6; // canvas pixels per drawing unit
const CELL_W = 100 * UNIT;
const CELL_H = 130 * UNIT;

const INK = {
  ivory: "#f8f2e2",
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

function cornerIndex(ctx, n, colour) {
  ctx.fillStyle = colour;
  ctx.font = "bold 20px sans-serif";
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  ctx.fillText(String(n), 7, 5);
}

// --- characters: the number, big, over a red brush mark --------------------
function characters(ctx, n) {
  ctx.fillStyle = INK.navy;
  ctx.font = "bold 70px sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(String(n), 50, 48);
  // A simplified "wan" sign: grass radical, a box, and a frame below.
  ctx.strokeStyle = INK.red;
  ctx.lineWidth = 5;
  ctx.lineCap = "round";
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
}

// --- dots: rings -------------------------------------------------------------
const DOT_LAYOUTS = {
  1: [[50, 66, 34]],
  2: [[50, 38, 20], [50, 94, 20]],
  3: [[26, 30, 16], [50, 66, 16], [74, 102, 16]],
  4: [[30, 40, 17], [70, 40, 17], [30, 92, 17], [70, 92, 17]],
  5: [[28, 34, 15], [72, 34, 15], [50, 66, 15], [28, 98, 15], [72, 98, 15]],
  6: [[32, 30, 14], [68, 30, 14], [32, 66, 14], [68, 66, 14], [32, 102, 14], [68, 102, 14]],
  7: [
    [22, 24, 11], [50, 36, 11], [78, 48, 11],
    [32, 80, 12], [68, 80, 12], [32, 110, 12], [68, 110, 12],
  ],
  8: [
    [32, 24, 11], [68, 24, 11], [32, 52, 11], [68, 52, 11],
    [32, 80, 11], [68, 80, 11], [32, 108, 11], [68, 108, 11],
  ],
  9: [
    [22, 32, 12], [50, 32, 12], [78, 32, 12],
    [22, 68, 12], [50, 68, 12], [78, 68, 12],
    [22, 104, 12], [50, 104, 12], [78, 104, 12],
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
  if (n > 1) cornerIndex(ctx, n, INK.navy);
}

// --- bamboo: sticks ------------------------------------------------------------
const STICK_LAYOUTS = {
  1: [[50, 66, 64]],
  2: [[50, 40, 40], [50, 94, 40]],
  3: [[50, 40, 40], [30, 94, 40], [70, 94, 40]],
  4: [[32, 40, 40], [68, 40, 40], [32, 94, 40], [68, 94, 40]],
  5: [[28, 40, 40], [72, 40, 40], [50, 66, 40], [28, 94, 40], [72, 94, 40]],
  6: [[24, 40, 40], [50, 40, 40], [76, 40, 40], [24, 94, 40], [50, 94, 40], [76, 94, 40]],
  7: [
    [50, 26, 30], [24, 68, 30], [50, 68, 30], [76, 68, 30],
    [24, 106, 30], [50, 106, 30], [76, 106, 30],
  ],
  8: [
    [20, 42, 40], [40, 42, 40], [60, 42, 40], [80, 42, 40],
    [20, 94, 40], [40, 94, 40], [60, 94, 40], [80, 94, 40],
  ],
  9: [
    [24, 28, 30], [50, 28, 30], [76, 28, 30],
    [24, 66, 30], [50, 66, 30], [76, 66, 30],
    [24, 104, 30], [50, 104, 30], [76, 104, 30],
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
    stick(ctx, 50, 70, 96, INK.green, 20);
    ctx.fillStyle = INK.green;
    for (const side of [-1, 1]) {
      ctx.beginPath();
      ctx.ellipse(50 + side * 20, 34, 18, 6, side * -0.6, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.fillStyle = INK.red;
    ctx.beginPath();
    ctx.arc(50, 20, 7, 0, Math.PI * 2);
    ctx.fill();
    return;
  }
  const width = n >= 7 ? 10 : 12;
  STICK_LAYOUTS[n].forEach(([x, y, len], k) => stick(ctx, x, y, len, stickColour(n, k), width));
  cornerIndex(ctx, n, INK.navy);
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
  ctx.font = "bold 50px sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(letter, 50, 36);
  ctx.strokeStyle = INK.navy;
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.arc(50, 92, 28, 0, Math.PI * 2);
  ctx.stroke();
  ctx.save();
  ctx.translate(50, 92);
  ctx.rotate(angle);
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

function bonus(ctx, face) {
  const isFlower = face.startsWith("flower-");
  // The frame colour says which group a tile matches: any flower, any season.
  ctx.strokeStyle = isFlower ? INK.pink : INK.teal;
  ctx.lineWidth = 5;
  roundRect(ctx, 6, 6, 88, 118, 10);
  ctx.stroke();
  PICTURES[face](ctx);
}

function drawFace(ctx, face) {
  const [kind, value] = face.split("-");
  const n = Number(value);
  if (kind === "characters") characters(ctx, n);
  else if (kind === "dots") dots(ctx, n);
  else if (kind === "bamboo") bamboo(ctx, n);
  else if (kind === "wind") wind(ctx, face);
  else if (kind === "dragon") dragon(ctx, face);
  else bonus(ctx, face);
}

/**
 * Draw every face into one canvas. Returns the canvas, the size of one cell
 * in texture coordinates, and for each face the texture coordinate of its
 * cell's lower left corner (textures are flipped: v grows upwards).
 */
export function drawAtlas(doc = document) {
  const canvas = doc.createElement("canvas");
  canvas.width = COLS * CELL_W;
  canvas.height = ROWS * CELL_H;
  const ctx = canvas.getContext("2d");
  const cells = new Map();
  FACES.forEach((face, k) => {
    const col = k % COLS;
    const row = Math.floor(k / COLS);
    ctx.save();
    ctx.translate(col * CELL_W, row * CELL_H);
    ctx.scale(UNIT, UNIT);
    ctx.fillStyle = INK.ivory;
    ctx.fillRect(0, 0, 100, 130);
    drawFace(ctx, face);
    ctx.restore();
    cells.set(face, [col / COLS, 1 - (row + 1) / ROWS]);
  });
  return { canvas, cellSize: [1 / COLS, 1 / ROWS], cells, ivory: INK.ivory };
}
