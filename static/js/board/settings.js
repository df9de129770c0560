// The settings dialog's choices of look (templates/games/board.html): a
// radio group of tile sets and one of tables, built from looks.js so the
// names live in one place. Each tile set shows a few of its own faces.

import { DIGITS } from "../i18n.js";
import { drawAtlas } from "./faces.js";
import { TABLES, TILE_SETS } from "./looks.js";

// The faces a tile set's sample shows: one of each suit and a wind.
const SAMPLE = ["characters-5", "dots-8", "bamboo-3", "wind-east"];

/** A strip of a set's faces, drawn from its atlas, as an image. */
function sample(set) {
  const atlas = drawAtlas(document, DIGITS, set);
  const cell = atlas.canvas.width * atlas.cellSize[0];
  const strip = document.createElement("canvas");
  strip.width = cell * SAMPLE.length;
  strip.height = cell;
  const ctx = strip.getContext("2d");
  SAMPLE.forEach((face, k) => {
    const [u, v] = atlas.cells.get(face);
    const y = atlas.canvas.height * (1 - v) - cell;
    ctx.drawImage(atlas.canvas, u * atlas.canvas.width, y, cell, cell, k * cell, 0, cell, cell);
  });
  const img = document.createElement("img");
  img.src = strip.toDataURL();
  img.alt = "";
  img.className = "set-sample";
  return img;
}

function radio(group, value, label, checked, extra) {
  const wrap = document.createElement("label");
  wrap.className = "choice";
  const input = document.createElement("input");
  input.type = "radio";
  input.name = group;
  input.value = value;
  input.checked = checked;
  const text = document.createElement("span");
  text.textContent = label;
  wrap.append(input, text);
  if (extra) wrap.append(extra);
  return wrap;
}

export class LookChoices {
  /** `current`: looks() now; `onChoose(name, value)` when the player picks one. */
  constructor(current, onChoose) {
    const sets = document.getElementById("tile-sets");
    const tables = document.getElementById("tables");
    if (!sets || !tables) return;
    for (const [name, set] of Object.entries(TILE_SETS)) {
      sets.append(radio("tile-set", name, set.name, name === current.set, sample(name)));
    }
    for (const [name, table] of Object.entries(TABLES)) {
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.dataset.table = name;
      tables.append(radio("table", name, table.name, name === current.table, swatch));
    }
    sets.addEventListener("change", (e) => onChoose("set", /** @type {HTMLInputElement} */ (e.target).value));
    tables.addEventListener("change", (e) => onChoose("table", /** @type {HTMLInputElement} */ (e.target).value));
  }
}
