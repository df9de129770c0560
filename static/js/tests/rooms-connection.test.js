// The room connection notices a lost notification from a pong's version
// (docs/protocol.md, "No silent gaps") and syncs; a pong at its own
// version, or events arriving in time, ask nothing.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { RoomConnection } from "../rooms/connection.js";

globalThis.WebSocket = { OPEN: 1 };
const opened = [];
afterEach(() => opened.splice(0).forEach((conn) => conn.close()));

function connected() {
  const conn = new RoomConnection("K7QXM", { onChange() {}, onStatus() {} });
  conn.sent = [];
  conn.ws = {
    readyState: 1,
    send: (text) => conn.sent.push(JSON.parse(text)),
    close() {},
  };
  opened.push(conn);
  conn.handle({ type: "state", version: 7, room: {}, members: [], round: null });
  return conn;
}

const waitGap = () => new Promise((done) => setTimeout(done, 450));

test("a pong ahead of the page's version makes it sync", async () => {
  const conn = connected();
  conn.handle({ type: "pong", ref: 1, v: 9 });
  await waitGap();
  assert.deepEqual(
    conn.sent.map((m) => [m.type, m.since]),
    [["sync", 7]],
  );
});

test("a pong at the page's version asks nothing", async () => {
  const conn = connected();
  conn.handle({ type: "pong", ref: 1, v: 7 });
  await waitGap();
  assert.deepEqual(conn.sent, []);
});

test("events that arrive before the wait is over ask nothing", async () => {
  const conn = connected();
  conn.handle({ type: "ack", ref: 2, v: 8 });
  conn.handle({ type: "events", events: [{ v: 8, kind: "room", data: {} }] });
  await waitGap();
  assert.deepEqual(conn.sent, []);
});
