// What a player chose for the view on this device, shared by the solo board
// and the room pages: shading blocked tiles (the half-dark tile), the tile
// set, the table, sound, the view from straight above, and rotate mode
// (drag turns the pile; camera.js). A signed-in player's choices are
// kept with the account too (games/views.py `preferences`): the board page
// writes them in as JSON, and this device adopts them.

import { table, tileSet } from "./looks.js";

const SHADING_KEY = "tiles.shading";
const ROTATE_KEY = "tiles.rotateFirst";
const KEYS = { set: "tiles.set", table: "tiles.table", sound: "tiles.sound", flat: "tiles.flat" };

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

export function shadingOn() {
  return read(SHADING_KEY) !== "0";
}

export function keepShading(on) {
  write(SHADING_KEY, on ? "1" : "0");
}

export function rotateFirstOn() {
  return read(ROTATE_KEY) === "1";
}

export function keepRotateFirst(on) {
  write(ROTATE_KEY, on ? "1" : "0");
}

/** The player's choices: {set, table, sound, flat}, each checked. */
export function looks() {
  return {
    set: tileSet(read(KEYS.set)),
    table: table(read(KEYS.table)),
    sound: read(KEYS.sound) !== "0",
    flat: read(KEYS.flat) === "1",
  };
}

/** Keep one choice on this device: `name` is one of looks()'s keys. */
export function keepLook(name, value) {
  if (!KEYS[name]) return;
  write(KEYS[name], typeof value === "boolean" ? (value ? "1" : "0") : String(value));
}

/** Adopt the choices kept with the account (a partial looks() object). */
export function adoptLooks(saved) {
  for (const [name, value] of Object.entries(saved || {})) keepLook(name, value);
}

/** True when the player asked the system for less motion. */
export function calmMotion() {
  return Boolean(globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches);
}
