// A room's state on the client, kept up to date by the server's events
// exactly as docs/protocol.md ("Events and applying them") describes: every
// event carries new values, so applying is plain replacing and merging.

import { digits, fill, ngettext } from "../i18n.js";

// The room's state as docs/protocol.md ("The state") gives it; only what
// the page reads is typed here.

/**
 * A racer's pile in a race round.
 * @typedef {object} Racer
 * @property {number} seat
 * @property {string} name
 * @property {"playing" | "cleared" | "stopped" | "timed_out" | "left"} status
 * @property {number} matches pairs taken
 * @property {number} moves entries in the undo log (pairs and shuffles)
 * @property {string} standing hex bitmask: bit i set = tile i stands
 * @property {boolean} stuck
 * @property {number} penalty_ms
 * @property {number | null} end_ms own clock when done
 * @property {string[]} faces current faces (after shuffles)
 */

/**
 * A player at a Together table.
 * @typedef {object} Seat
 * @property {number} seat
 * @property {string} name
 * @property {string} bot "" for a person, else the bot's level
 * @property {number} points
 * @property {number} lead points above the lowest score at the table
 * @property {boolean} away
 * @property {boolean} left
 * @property {[string, string][]} taken faces of the pairs taken
 * @property {string[]} sets groups of which they took both pairs
 */

/**
 * A pair taken at a Together table.
 * @typedef {object} Move
 * @property {number} seat
 * @property {[number, number]} pair tile indices
 * @property {boolean} stuck it left no pair: the pile was laid out again
 * @property {number} penalty points lost for that
 */

/**
 * A deal: a race (`racers`) or Together (one shared pile, `seats`, `moves`).
 * @typedef {object} Round
 * @property {number} number
 * @property {"race" | "together"} mode
 * @property {string} pile
 * @property {[number, number, number][]} positions tile i stands at positions[i]
 * @property {string[]} faces as dealt (race), or the current faces (Together)
 * @property {string} status racing | playing | over
 * @property {boolean} paused
 * @property {number} banked_ms
 * @property {number | null} running_since
 * @property {number | null} limit_ms
 * @property {any[]} standings
 * @property {Racer[]} [racers] race only
 * @property {string} [standing] Together: the shared pile's bitmask
 * @property {number | null} [turn_seat] Together: whose turn
 * @property {number | null} [deadline_ms] Together: when the turn runs out
 * @property {Seat[]} [seats] Together: in turn order
 * @property {Move[]} [moves] Together: the pairs taken
 */

/**
 * Apply `events` to `state` in place, in version order. Events published
 * by different server processes can arrive out of order: one that comes
 * before its predecessor waits in `early` (a Map by version). Returns true
 * when nothing is missing; false while some version has not arrived (the
 * caller waits a moment, then asks for what it missed).
 */
export function applyEvents(state, events, early = new Map()) {
  for (const event of events) {
    if (event.v > state.version) early.set(event.v, event);
  }
  while (early.has(state.version + 1)) {
    const event = early.get(state.version + 1);
    early.delete(event.v);
    applyEvent(state, event);
  }
  for (const v of early.keys()) {
    if (v <= state.version) early.delete(v);
  }
  return early.size === 0;
}

function applyEvent(state, { v, kind, data }) {
  if (kind === "room" || kind === "members" || kind === "round") {
    state[kind] = data;
  } else if (kind === "race" && state.round) {
    const round = state.round;
    for (const patch of data.racers) {
      const racer = round.racers.find((r) => r.seat === patch.seat);
      if (racer) Object.assign(racer, patch);
      else round.racers.push(patch);
    }
    for (const [key, value] of Object.entries(data)) {
      if (key !== "racers") round[key] = value;
    }
  } else if (kind === "together" && state.round) {
    Object.assign(state.round, data);
  }
  state.version = v;
}

/**
 * The "standing" hex bitmask as an array of booleans, one per tile.
 * @param {string} hex
 * @param {number} size
 * @returns {boolean[]}
 */
export function standingOf(hex, size) {
  let bits = BigInt(`0x${hex || "0"}`);
  const out = new Array(size).fill(false);
  for (let i = 0; i < size; i++) {
    out[i] = (bits & 1n) === 1n;
    bits >>= 1n;
  }
  return out;
}

/**
 * A racer's own clock in ms at server time `now` (epoch ms).
 * @param {Clock} round
 * @param {{end_ms?: number | null, penalty_ms: number}} racer
 * @param {number} now
 * @returns {number}
 */
export function ownMs(round, racer, now) {
  if (racer.end_ms !== null && racer.end_ms !== undefined) return racer.end_ms;
  return raceMs(round, now) + racer.penalty_ms;
}

/**
 * A round's shared clock: the time banked before its last pause, and since.
 * @typedef {{running_since: number | null, banked_ms: number}} Clock
 */

/**
 * The round's clock in ms at server time `now` (epoch ms).
 * @param {Clock} round
 * @param {number} now
 */
export function raceMs(round, now) {
  if (round.running_since === null) return round.banked_ms;
  return round.banked_ms + Math.max(0, now - round.running_since);
}

/** Milliseconds as a clock shows them: m:ss. @param {number} ms */
export function clockText(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  return digits(`${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`);
}

/** "1 match", "5 matches", in the page's language. */
export const matchesText = (/** @type {number} */ n) =>
  fill(ngettext("%(n)s match", "%(n)s matches", n), { n: digits(n) });
