// A server that goes silent (its host's network cut: no close frame ever
// comes) is noticed by the page within SILENT_MS of a request it awaits,
// and the page reconnects with `since`; the same, sooner, after the device
// slept or the network changed. A server restarting (close 1012) is
// replaced at once.
import assert from "node:assert/strict";
import { beforeEach, afterEach, mock, test } from "node:test";

import { RoomConnection } from "../rooms/connection.js";

const sockets = [];
class FakeSocket {
  static OPEN = 1;
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    this.closed = false;
    sockets.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.closed = true; // a dead peer never answers: no onclose follows
  }
  open() {
    this.readyState = 1;
    this.onopen();
  }
  reply(message) {
    this.onmessage({ data: JSON.stringify(message) });
  }
}

const listeners = {};
globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: "https:", host: "tiles.test" };
globalThis.addEventListener = (name, fn) => (listeners[name] = fn);
globalThis.removeEventListener = () => {};

// Node's mock clock runs every timer due within one tick() at the tick's
// end time: small steps keep each timer's own time.
function advance(ms) {
  for (let t = 0; t < ms; t += 50) mock.timers.tick(Math.min(50, ms - t));
}

let statuses;
function online() {
  statuses = [];
  const conn = new RoomConnection("K7QXM", {
    onChange() {},
    onStatus: (s) => statuses.push(s),
  });
  conn.connect();
  const ws = sockets.at(-1);
  ws.open();
  ws.reply({ type: "state", version: 7, room: {}, members: [], round: null });
  return { conn, ws };
}

beforeEach(() => {
  sockets.length = 0;
  mock.timers.enable({ apis: ["setTimeout", "setInterval", "Date"], now: 1e6 });
});
afterEach(() => mock.timers.reset());

test("a server that answers every ping keeps the socket", () => {
  const { ws } = online();
  for (let n = 0; n < 10; n++) {
    advance(5000);
    const ping = ws.sent.at(-1);
    assert.equal(ping.type, "ping");
    advance(200);
    ws.reply({ type: "pong", ref: ping.ref, v: 7 });
  }
  assert.equal(ws.closed, false);
  assert.equal(sockets.length, 1);
});

test("a pair never acked: the server is left 10 s after its last word", async () => {
  const { conn, ws } = online();
  advance(1000);
  const reply = conn.send("take", { a: 1, b: 2, move: 0 });
  advance(8900);
  assert.equal(ws.closed, false, "not before the deadline");
  advance(200);
  assert.equal(ws.closed, true);
  assert.deepEqual(statuses.slice(-1), ["offline"]); // "reconnecting…"
  assert.equal((await reply).code, "offline", "the page learns the pair failed");
  advance(600);
  assert.equal(sockets.length, 2, "at once");
  assert.equal(sockets[1].url, "wss://tiles.test/ws/rooms/K7QXM/?since=7");
});

test("pings alone find a silent server: 10 s after its last word", () => {
  const { ws } = online();
  advance(9900);
  assert.equal(ws.closed, false);
  advance(200);
  assert.equal(ws.closed, true);
});

test("events keep a socket alive only while nothing is awaited", () => {
  const { conn, ws } = online();
  conn.send("take", { a: 1, b: 2, move: 0 });
  for (let n = 0; n < 4; n++) {
    advance(4000);
    ws.reply({ type: "events", events: [] }); // the server still talks
  }
  assert.equal(ws.closed, false);
});

test("after the laptop sleeps, a probe gets 3 s", () => {
  const { ws } = online();
  mock.timers.setTime(Date.now() + 3600_000); // an hour asleep: no tick ran
  advance(5000);
  assert.equal(ws.sent.at(-1).type, "ping");
  advance(3100);
  assert.equal(ws.closed, true);
});

test("a network change probes the socket, and keeps one that answers", () => {
  const { ws } = online();
  advance(1000);
  listeners.online();
  const ping = ws.sent.at(-1);
  assert.equal(ping.type, "ping");
  advance(2000);
  ws.reply({ type: "pong", ref: ping.ref, v: 7 });
  advance(2000);
  assert.equal(ws.closed, false);
  listeners.online();
  advance(3100);
  assert.equal(ws.closed, true);
});

test("a network change ends a reconnect's back-off wait", () => {
  online();
  for (const code of [1006, 1006, 1006]) {
    sockets.at(-1).onclose({ code });
    advance(10000);
  }
  const before = sockets.length;
  sockets.at(-1).onclose({ code: 1006 }); // now 8 s to wait
  advance(100);
  listeners.online();
  assert.equal(sockets.length, before + 1);
});

test("a restarting server (1012) is replaced at once", () => {
  const { ws } = online();
  ws.onclose({ code: 1012 });
  advance(250);
  assert.equal(sockets.length, 2);
});
