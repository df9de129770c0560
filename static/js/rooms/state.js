// A room's state on the client, kept up to date by the server's events
// exactly as docs/protocol.md ("Events and applying them") describes: every
// event carries new values, so applying is plain replacing and merging.

import { digits, fill, ngettext } from "../i18n.js";

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

/** The "standing" hex bitmask as an array of booleans, one per tile. */
export function standingOf(hex, size) {
  let bits = BigInt(`0x${hex || "0"}`);
  const out = new Array(size).fill(false);
  for (let i = 0; i < size; i++) {
    out[i] = (bits & 1n) === 1n;
    bits >>= 1n;
  }
  return out;
}

/** A racer's own clock in ms at server time `now` (epoch ms). */
export function ownMs(round, racer, now) {
  if (racer.end_ms !== null && racer.end_ms !== undefined) return racer.end_ms;
  return raceMs(round, now) + racer.penalty_ms;
}

export function raceMs(round, now) {
  if (round.running_since === null) return round.banked_ms;
  return round.banked_ms + Math.max(0, now - round.running_since);
}

/** Milliseconds as a clock shows them: m:ss. */
export function clockText(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  return digits(`${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`);
}

/** "1 match", "5 matches", in the page's language. */
export const matchesText = (n) => fill(ngettext("%(n)s match", "%(n)s matches", n), { n: digits(n) });
