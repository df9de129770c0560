// A thin fetch wrapper for the solo play API (docs/api.md). Requests go out
// one at a time, in order, so every `move` count the page sends matches what
// the server has already seen.

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/**
 * What a request came back with: `data` is the parsed JSON body, or null.
 * @typedef {{ok: boolean, status: number, data: any}} ApiResult
 */

export class Api {
  /** @param {string} base the API's URL, with or without its last slash */
  constructor(base) {
    this.base = base.replace(/\/$/, "");
    /** @type {Promise<unknown>} the last request's, each waits for the one before */
    this.queue = Promise.resolve();
    this.pending = 0;
  }

  /**
   * POST `body` (or GET) to base + path. Resolves to {ok, status, data}; a
   * network failure resolves with status 0. `pending` already counts this
   * request out when the caller's handler runs, so a handler that sees 0 is
   * handling the last answer.
   * @param {string} path
   * @param {unknown} [body]
   * @param {"POST" | "GET"} [method]
   * @returns {Promise<ApiResult>}
   */
  send(path, body = {}, method = "POST") {
    this.pending++;
    const run = async () => {
      try {
        const response = await fetch(this.base + path, {
          method,
          credentials: "same-origin",
          headers: method === "POST" ? { "Content-Type": "application/json", "X-CSRFToken": csrfToken() } : {},
          body: method === "POST" ? JSON.stringify(body) : undefined,
          // A pause sent as the tab closes must still reach the server, or
          // the clock would run on while the player is gone.
          keepalive: method === "POST",
        });
        let data = null;
        try {
          data = await response.json();
        } catch {
          data = null;
        }
        return { ok: response.ok, status: response.status, data };
      } catch (error) {
        return { ok: false, status: 0, data: { error: "network", message: String(error) } };
      } finally {
        this.pending--;
      }
    };
    const result = this.queue.then(run);
    this.queue = result;
    return result;
  }
}
