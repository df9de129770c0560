// What every tile set draws with (faces.js and its siblings): the inks,
// text placed by the box its ink covers, the Chinese numerals as strokes,
// the wind's arrow, and the flower and season pictures. Each picture is
// drawn for a 100 x 130 face; shrunk() fits one into the square a tile's
// top shows.

import { pgettext } from "../i18n.js";

export const INK = {
  ivory: "#f4ecd6", // the classic block's ivory (looks.js), so face and top are one
  edge: "#d9ceb2",
  blue: "#1f4e9a",
  green: "#1f7a4a",
  red: "#c4302b",
  navy: "#1b2a4a",
  pink: "#d9487a",
  teal: "#1d7f86",
  gold: "#e0a21b",
};

// The letter a wind tile carries, in the page's language (a Nepali page
// writes पू, द, प, उ: the first letters of पूर्व, दक्षिण, पश्चिम, उत्तर),
// and the way its arrow points (east to the right, north up).
export const WINDS = {
  "wind-east": [pgettext("wind on a tile", "E"), 0],
  "wind-south": [pgettext("wind on a tile", "S"), Math.PI / 2],
  "wind-west": [pgettext("wind on a tile", "W"), Math.PI],
  "wind-north": [pgettext("wind on a tile", "N"), -Math.PI / 2],
};

export function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

export function circle(ctx, x, y, r) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
}

/** A filled disc of `colour`. */
export function disc(ctx, x, y, r, colour) {
  ctx.fillStyle = colour;
  circle(ctx, x, y, r);
  ctx.fill();
}

/** Draw text with its baseline at (x, y); the box its ink covers, [x0, y0, x1, y1]. */
export function ink(ctx, text, x, y, align) {
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

/** A suit tile's number in the page's digits: "5" or "५". */
export function numeral(n, digits) {
  return String(n).replace(/[0-9]/g, (d) => digits[Number(d)]);
}

/** Stroke Chinese numeral n into the box (x, y, w, h). */
export function chineseNumeral(ctx, n, x, y, w, h) {
  for (const stroke of NUMERALS[n]) {
    ctx.beginPath();
    stroke.forEach(([u, v]) => ctx.lineTo(x + u * w, y + v * h));
    ctx.stroke();
  }
}

/** A simplified "wan" sign (grass radical, a box, a frame below) in the 100 x 40 band from y. */
export function wan(ctx, y) {
  ctx.beginPath();
  ctx.moveTo(28, y + 6);
  ctx.lineTo(72, y + 6);
  ctx.moveTo(40, y);
  ctx.lineTo(40, y + 12);
  ctx.moveTo(60, y);
  ctx.lineTo(60, y + 12);
  ctx.stroke();
  ctx.strokeRect(37, y + 14, 26, 9);
  ctx.beginPath();
  ctx.moveTo(30, y + 40);
  ctx.lineTo(30, y + 27);
  ctx.lineTo(70, y + 27);
  ctx.lineTo(70, y + 40);
  ctx.moveTo(50, y + 23);
  ctx.lineTo(50, y + 40);
  ctx.stroke();
}

/** An arrow centred on (x, y), `size` long, turned by `angle` (0 points right). */
export function arrow(ctx, x, y, angle, size) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(angle);
  ctx.scale(size / 48, size / 48);
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

// Each numeral as strokes in a unit box (x right, y down).
export const NUMERALS = {
  1: [
    [
      [0.05, 0.5],
      [0.95, 0.5],
    ],
  ],
  2: [
    [
      [0.2, 0.25],
      [0.8, 0.25],
    ],
    [
      [0.05, 0.82],
      [0.95, 0.82],
    ],
  ],
  3: [
    [
      [0.15, 0.12],
      [0.85, 0.12],
    ],
    [
      [0.25, 0.5],
      [0.75, 0.5],
    ],
    [
      [0.05, 0.9],
      [0.95, 0.9],
    ],
  ],
  4: [
    [
      [0.08, 0.12],
      [0.08, 0.92],
      [0.92, 0.92],
      [0.92, 0.12],
      [0.08, 0.12],
    ],
    [
      [0.38, 0.12],
      [0.36, 0.5],
      [0.22, 0.7],
    ],
    [
      [0.6, 0.12],
      [0.6, 0.6],
      [0.78, 0.68],
    ],
  ],
  5: [
    [
      [0.12, 0.1],
      [0.88, 0.1],
    ],
    [
      [0.45, 0.1],
      [0.32, 0.9],
    ],
    [
      [0.2, 0.48],
      [0.75, 0.48],
      [0.72, 0.9],
    ],
    [
      [0.05, 0.9],
      [0.95, 0.9],
    ],
  ],
  6: [
    [
      [0.48, 0.02],
      [0.56, 0.16],
    ],
    [
      [0.05, 0.36],
      [0.95, 0.36],
    ],
    [
      [0.38, 0.56],
      [0.15, 0.92],
    ],
    [
      [0.62, 0.56],
      [0.88, 0.92],
    ],
  ],
  7: [
    [
      [0.05, 0.45],
      [0.95, 0.32],
    ],
    [
      [0.4, 0.05],
      [0.4, 0.8],
      [0.5, 0.9],
      [0.92, 0.9],
      [0.92, 0.72],
    ],
  ],
  8: [
    [
      [0.42, 0.1],
      [0.32, 0.55],
      [0.08, 0.92],
    ],
    [
      [0.6, 0.12],
      [0.7, 0.55],
      [0.95, 0.9],
    ],
  ],
  9: [
    [
      [0.45, 0.05],
      [0.42, 0.5],
      [0.1, 0.95],
    ],
    [
      [0.1, 0.32],
      [0.65, 0.32],
      [0.62, 0.85],
      [0.75, 0.92],
      [0.95, 0.88],
      [0.95, 0.7],
    ],
  ],
};

export function petals(ctx, cx, cy, count, length, width, colour, turn = 0) {
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

export function stem(ctx, x0, y0, x1, y1, colour = INK.green, width = 4) {
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.lineCap = "round";
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.quadraticCurveTo((x0 + x1) / 2 + 8, (y0 + y1) / 2, x1, y1);
  ctx.stroke();
}

export function leaf(ctx, x, y, length, angle, colour = INK.green) {
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

export const PICTURES = {
  "flower-plum"(ctx) {
    stem(ctx, 22, 122, 60, 70, "#6b4a2f", 6);
    petals(ctx, 54, 58, 5, 34, 14, "#e77fa6", -Math.PI / 2);
    disc(ctx, 54, 58, 8, INK.gold);
  },
  "flower-orchid"(ctx) {
    stem(ctx, 50, 124, 50, 70);
    leaf(ctx, 50, 118, 40, -2.4);
    leaf(ctx, 50, 118, 40, -0.7);
    petals(ctx, 50, 52, 3, 40, 10, "#8e4fc1", -Math.PI / 2);
    petals(ctx, 50, 52, 3, 24, 7, "#c9a2ee", Math.PI / 2);
    disc(ctx, 50, 52, 6, INK.gold);
  },
  "flower-chrysanthemum"(ctx) {
    stem(ctx, 50, 124, 50, 80);
    petals(ctx, 50, 56, 18, 40, 5, "#e58a12");
    petals(ctx, 50, 56, 12, 24, 5, INK.gold, 0.2);
    disc(ctx, 50, 56, 7, "#8a4b0b");
  },
  "flower-bamboo"(ctx) {
    stem(ctx, 40, 124, 44, 14, INK.green, 7);
    for (const [y, a] of [
      [32, -0.5],
      [56, -2.6],
      [80, -0.4],
      [98, -2.8],
    ]) {
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
    disc(ctx, 50, 44, 10, "#f2c94c");
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
    disc(ctx, 50, 66, 22, "#f5b51d");
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
export function shrunk(ctx, draw, scale) {
  ctx.save();
  ctx.translate(50, 50);
  ctx.scale(scale, scale);
  ctx.translate(-50, -65);
  draw();
  ctx.restore();
}
