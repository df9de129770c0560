// The room's websocket: keeps the state current, catches up after a drop,
// and matches replies to requests by `ref` (docs/protocol.md). It notices
// a server gone silent (a host whose network is cut sends no close, and a
// proxy in front keeps the socket open while pings flow): a reply awaited
// longer than SILENT_MS closes it and reconnects with `since`.

import { applyEvents } from "./state.js";

// Each pong carries the room's version: a notification lost on the way is
// noticed within this long even when nothing else happens in the room.
const PING_MS = 5000;
// How long an event may wait for one published before it to arrive.
const GAP_WAIT_MS = 400;
// While a reply is awaited (every ping awaits one), the server says
// something within this long of its last word, or is taken for gone.
const SILENT_MS = 10000;
// After the device slept, the tab came back or the network changed, a ping
// gets this long before the socket is taken for gone.
const PROBE_MS = 3000;
// A server restarting (1012) or going away (1001) is replaced at once.
const CLOSE_RESTART = 1012;
const CLOSE_GOING_AWAY = 1001;
const AT_ONCE_MS = 100;
const CLOSE_SILENT = "silent"; // no close frame: this page gave up waiting
const CLOSE_LEFT = 4000;
const CLOSE_NOT_MEMBER = 4403;
const CLOSE_NO_ROOM = 4404;
// The server could not reach its database or Redis (accounts/socket_outage.py):
// retried like a drop, and the page says why.
const CLOSE_TRY_AGAIN = 4503;
const STOP_CODES = { [CLOSE_LEFT]: "left", [CLOSE_NOT_MEMBER]: "not_member", [CLOSE_NO_ROOM]: "no_room" };

/**
 * The server's answer to one message: `type` is "ack", "error", "hint"...,
 * the other fields as docs/protocol.md gives them for that type.
 * @typedef {{type: string, [field: string]: any}} Reply
 */

/**
 * Sends an action to the server; resolves with its reply.
 * @typedef {(type: string, fields?: object) => Promise<Reply>} Act
 */

export class RoomConnection {
  /**
   * @param {string} code the room's code
   * @param {object} hooks
   * @param {(state: any) => void} hooks.onChange the state changed
   * @param {(status: string) => void} [hooks.onStatus] "online", "offline", "left"...
   * @param {"rooms" | "watch"} [hooks.path] "rooms" for a seat, "watch" for a read-only watcher
   */
  constructor(code, { onChange, onStatus, path = "rooms" }) {
    this.code = code;
    this.path = path;
    this.onChange = onChange;
    this.onStatus = onStatus;
    this.state = null;
    this.seat = null;
    this.offset = 0; // server clock minus this device's clock
    this.pending = new Map();
    this.early = new Map(); // events that came before their predecessors
    this.gapTimer = null;
    this.versionTimer = null;
    this.nextRef = 1;
    this.retryMs = 500;
    this.retryTimer = null;
    this.silentTimer = null;
    this.silentAt = Infinity; // when the awaited reply is overdue
    this.lastTick = Date.now();
    this.lastHeard = Date.now();
    this.closed = false;
    this.onWake = () => this.wake();
    globalThis.addEventListener?.("online", this.onWake);
    globalThis.document?.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.wake();
    });
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const since = this.state && this.path === "rooms" ? `?since=${this.state.version}` : "";
    return `${scheme}://${location.host}/ws/${this.path}/${this.code}/${since}`;
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.retryMs = 500;
      this.onStatus("online");
      this.lastTick = this.lastHeard = Date.now();
      this.pinger = setInterval(() => this.tick(), PING_MS);
    };
    ws.onmessage = (e) => this.handle(JSON.parse(e.data));
    ws.onclose = (e) => this.dropped(e.code);
  }

  /** The socket is gone (closed, or silent too long): fail what waited,
   * and reconnect unless the server said to stop. */
  dropped(code) {
    clearInterval(this.pinger);
    this.unwatch();
    if (this.ws) this.ws.onclose = this.ws.onmessage = this.ws.onopen = null;
    for (const resolve of this.pending.values()) {
      resolve({ type: "error", code: "offline", message: "connection lost" });
    }
    this.pending.clear();
    if (STOP_CODES[code] || this.closed) {
      this.onStatus(STOP_CODES[code] ?? "left");
      return;
    }
    this.onStatus(code === CLOSE_TRY_AGAIN ? "unavailable" : "offline");
    const soon = [CLOSE_RESTART, CLOSE_GOING_AWAY, CLOSE_SILENT].includes(code);
    const delay = soon ? AT_ONCE_MS * (1 + Math.random()) : this.retryMs;
    this.retryTimer = setTimeout(() => this.connect(), delay);
    if (!soon) this.retryMs = Math.min(this.retryMs * 2, 8000);
  }

  /** The server went silent: close without waiting for its close frame
   * (none will come) and reconnect at once (the wait is already over). */
  silent() {
    const ws = this.ws;
    this.dropped(CLOSE_SILENT);
    ws?.close();
  }

  tick() {
    // A gap much longer than the interval means the device slept: the
    // socket may be long dead, so it gets a short probe.
    const now = Date.now();
    const slept = now - this.lastTick > 2 * PING_MS;
    this.lastTick = now;
    this.send("ping");
    if (slept) this.watch(PROBE_MS);
  }

  /** The tab came back, the device woke or the network changed: a socket
   * waiting to reconnect does so now; an open one proves itself quickly. */
  wake() {
    if (this.closed) return;
    if (this.retryTimer) {
      this.retryMs = 500;
      this.connect();
    } else if (this.ws?.readyState === WebSocket.OPEN) {
      this.send("ping");
      this.watch(PROBE_MS);
    }
  }

  /** Expect the server to say something within `ms` of its last word, and
   * no sooner than a probe's time from now (an earlier expectation stands). */
  watch(ms) {
    const at = Math.max(this.lastHeard + ms, Date.now() + PROBE_MS);
    if (at >= this.silentAt) return;
    clearTimeout(this.silentTimer);
    this.silentAt = at;
    this.silentTimer = setTimeout(() => this.silent(), at - Date.now());
  }

  unwatch() {
    clearTimeout(this.silentTimer);
    this.silentTimer = null;
    this.silentAt = Infinity;
  }

  handle(message) {
    // The server is alive: a new wait starts for what is still awaited.
    this.lastHeard = Date.now();
    this.unwatch();
    if (message.t) this.offset = message.t - Date.now();
    if (message.type === "hello") {
      this.seat = message.seat;
    } else if (message.type === "state") {
      const { version, room, members, round } = message;
      this.state = { version, room, members, round };
      applyEvents(this.state, [], this.early);
      this.onChange(this.state);
    } else if (message.type === "events" && this.state) {
      if (!applyEvents(this.state, message.events, this.early)) this.awaitGap();
      this.onChange(this.state);
    } else if ((message.type === "pong" || message.type === "ack") && this.state) {
      this.checkVersion(message.v);
    }
    if (message.ref !== undefined && message.ref !== null) {
      const resolve = this.pending.get(message.ref);
      this.pending.delete(message.ref);
      if (resolve) resolve(message);
    }
    if (this.pending.size) this.watch(SILENT_MS);
  }

  /** Wait a moment for missing events, then ask for them. */
  awaitGap() {
    if (this.gapTimer) return;
    this.gapTimer = setTimeout(() => {
      this.gapTimer = null;
      if (this.early.size) this.send("sync", { since: this.state.version });
    }, GAP_WAIT_MS);
  }

  /** The server is at version `v` (a pong's or an ack's): if this page is
   * still behind once its notification had time to arrive, it missed one. */
  checkVersion(v) {
    if (!Number.isInteger(v) || v <= this.state.version || this.versionTimer) return;
    this.versionTimer = setTimeout(() => {
      this.versionTimer = null;
      if (this.state.version < v) this.send("sync", { since: this.state.version });
    }, GAP_WAIT_MS);
  }

  /**
   * Send a message; resolves with its reply (an ack, an error, a hint...).
   * @type {Act}
   */
  send(type, fields = {}) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      return Promise.resolve({ type: "error", code: "offline", message: "offline" });
    }
    const ref = this.nextRef++;
    this.ws.send(JSON.stringify({ type, ref, ...fields }));
    this.watch(SILENT_MS);
    return new Promise((resolve) => this.pending.set(ref, resolve));
  }

  /** The server's clock now, in epoch ms. */
  serverNow() {
    return Date.now() + this.offset;
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.unwatch();
    globalThis.removeEventListener?.("online", this.onWake);
    this.ws?.close();
  }
}
