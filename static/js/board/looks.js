// The looks a player can choose (the settings dialog, game.js): tile sets
// and tables. A tile set is a way of drawing the 42 faces (faces.js and
// its siblings) and the colours of the block under them (tile.js); a table
// is the colour of the felt the pile stands on. Everything is drawn by our
// own code: no image is downloaded.

import { gettext } from "../i18n.js";

/**
 * Each set: its name for people, the block's colours (the top, which the
 * face's own background matches, and the back's dark and light ends) and
 * the ink its faces draw with.
 */
export const TILE_SETS = {
  classic: {
    name: gettext("Classic"),
    top: "#f4ecd6",
    backLow: "#15372a",
    backHigh: "#2f7a5a",
  },
  large: {
    // Large print: the rank fills the face, white on a suit's shape, for
    // small phones and low vision.
    name: gettext("Large print"),
    top: "#ffffff",
    backLow: "#0d1b33",
    backHigh: "#2b4a7d",
  },
  traditional: {
    name: gettext("Traditional"),
    top: "#f3e4c0",
    backLow: "#4a2a0c",
    backHigh: "#b0702a",
  },
};

export const TABLES = {
  felt: { name: gettext("Green felt"), colour: "#24493e" },
  night: { name: gettext("Night blue"), colour: "#1c2d4a" },
  wood: { name: gettext("Walnut"), colour: "#4a3222" },
  slate: { name: gettext("Slate"), colour: "#3a3f44" },
};

export const DEFAULT_SET = "classic";
export const DEFAULT_TABLE = "felt";

/** The set named `name`, or the default one for an unknown name. */
export function tileSet(name) {
  return TILE_SETS[name] ? name : DEFAULT_SET;
}

export function table(name) {
  return TABLES[name] ? name : DEFAULT_TABLE;
}
