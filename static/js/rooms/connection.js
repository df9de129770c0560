// The room's websocket: keeps the state current, catches up after a drop,
// and matches replies to requests by `ref` (docs/protocol.md).

import { applyEvents } from "./state.js";

// Each pong carries the room's version: a notification lost on the way is
// noticed within this long even when nothing else happens in the room.
const PING_MS = 5000;
// How long an event may wait for one published before it to arrive.
const GAP_WAIT_MS = 400;
const CLOSE_LEFT = 4000;
const CLOSE_NOT_MEMBER = 4403;
const CLOSE_NO_ROOM = 4404;
// The server could not reach its database or Redis (config/socket_outage.py):
// retried like a drop, and the page says why.
const CLOSE_TRY_AGAIN = 4503;
const STOP_CODES = { [CLOSE_LEFT]: "left", [CLOSE_NOT_MEMBER]: "not_member", [CLOSE_NO_ROOM]: "no_room" };

export class RoomConnection {
  /** `path`: "rooms" for a seat, "watch" for a read-only watcher. */
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
    this.closed = false;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const since = this.state && this.path === "rooms" ? `?since=${this.state.version}` : "";
    return `${scheme}://${location.host}/ws/${this.path}/${this.code}/${since}`;
  }

  connect() {
    this.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.retryMs = 500;
      this.onStatus("online");
      this.pinger = setInterval(() => this.send("ping"), PING_MS);
    };
    ws.onmessage = (e) => this.handle(JSON.parse(e.data));
    ws.onclose = (e) => {
      clearInterval(this.pinger);
      for (const resolve of this.pending.values()) {
        resolve({ type: "error", code: "offline", message: "connection lost" });
      }
      this.pending.clear();
      if (STOP_CODES[e.code] || this.closed) {
        this.onStatus(STOP_CODES[e.code] ?? "left");
        return;
      }
      this.onStatus(e.code === CLOSE_TRY_AGAIN ? "unavailable" : "offline");
      setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 8000);
    };
  }

  handle(message) {
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

  /** Send a message; resolves with its reply (an ack, an error, a hint...). */
  send(type, fields = {}) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      return Promise.resolve({ type: "error", code: "offline", message: "offline" });
    }
    const ref = this.nextRef++;
    this.ws.send(JSON.stringify({ type, ref, ...fields }));
    return new Promise((resolve) => this.pending.set(ref, resolve));
  }

  serverNow() {
    return Date.now() + this.offset;
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }
}
