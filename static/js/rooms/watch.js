// The watch page (a TV or laptop showing a room): read-only, no seat. The
// server sends a full state whenever the room changed (at most twice a
// second, docs/protocol.md "Watchers"). Waiting: who is in the room and how
// to join (the QR code, the link, the code). Race: the pile of the
// best-placed racer still playing, in 3D and as large as the stage allows,
// beside every racer's pile from above with their matches, the race's
// clock and time left in the header. Together: the shared pile, the
// players' cards under it, whose turn it is lit. Both end with the final
// standings; paused, the pile is covered.

import { BoardScene, prepareScene } from "../board/scene.js";
import { digits, fill, gettext } from "../i18n.js";
import { fitCards, flatSize, racerCard } from "./board.js";
import { RoomConnection } from "./connection.js";
import { clockText, matchesText, raceMs, standingOf } from "./state.js";
import { renderSeats, stuckText, turnLeftMs } from "./together.js";

const $ = (id) => document.getElementById(id);
const root = $("watch");
// The piles as the host's deal form names them.
const PILE_NAMES = { big: gettext("Big (Turtle, 144)"), small: gettext("Small (32)") };
const MESSAGE_MS = 6000;
const STATUS_TEXT = {
  connecting: gettext("connecting…"),
  online: gettext("live"),
  offline: gettext("reconnecting…"),
  unavailable: gettext("the server is busy: trying again…"),
  no_room: gettext("this room has closed"),
};

const view = {
  scene: null,
  key: null, // what the 3D pile shows: "<round>/<seat or 'shared'>"
  faces: "",
  standing: null,
  moves: 0,
  minis: new Map(),
  minisFor: null,
};

const conn = new RoomConnection(root.dataset.code, {
  onChange: render,
  onStatus: (status) => {
    root.dataset.conn = status;
    $("conn").textContent = STATUS_TEXT[status] ?? status;
  },
  path: "watch",
});
window.tilesWatch = { conn, view };

function scene() {
  if (!view.scene) {
    // Framed as a player's pile is, from the front and as large as the
    // stage allows: read from a sofa, the tiles' faces matter more than
    // a turning view (which must leave room for every angle).
    view.scene = new BoardScene($("w-pile"), {
      onTap: () => {},
      onTable: () => {},
      onMovedChange: () => {},
    });
  }
  return view.scene;
}

/** Show `faces` and `standing` on the 3D pile, flying off what went. */
function showPile(key, positions, faces, standing) {
  const s = scene();
  if (view.key !== key) {
    // A new deal builds up; another racer's pile simply appears.
    const dealt = view.key?.split("/")[0] !== key.split("/")[0];
    view.key = key;
    view.faces = faces.join();
    const tiles = positions.map(([x, y, z], i) => ({ x, y, z, face: faces[i] }));
    s.setTiles(tiles, standing, dealt);
  } else {
    if (faces.join() !== view.faces) {
      view.faces = faces.join();
      s.setFaces(faces);
      s.hopAll();
    }
    const gone = view.standing.flatMap((was, i) => (was && !standing[i] ? [i] : []));
    if (gone.length === 2) s.fly(gone[0], gone[1], true);
    else s.setStanding(standing);
  }
  view.standing = standing;
}

function render(state) {
  const round = state.round;
  root.dataset.mode = round?.mode ?? "";
  root.dataset.status = round?.status ?? "";
  $("w-waiting").hidden = Boolean(round);
  $("w-stage").hidden = !round;
  renderPeople(state);
  if (!round) {
    $("w-final").hidden = true;
    $("w-title").textContent = "";
    // The 3D view made while the room waits: the first deal shows at once.
    prepareScene();
    return;
  }
  // Paused, the pile is covered: nobody studies it for free.
  $("w-paused").hidden = !round.paused;
  $("w-pile").classList.toggle("covered", round.paused);
  $("w-title").textContent = fill(
    round.mode === "together" ? gettext("Together · %(layout)s") : gettext("Race · %(layout)s"),
    { layout: PILE_NAMES[round.pile] ?? round.layout.name },
  );
  if (round.mode === "together") renderTogether(round);
  else renderRace(round);
  tick();
}

function renderTogether(round) {
  $("w-seats").hidden = false;
  $("w-racers").hidden = true;
  $("w-leader").hidden = true;
  const standing = standingOf(round.standing, round.positions.length);
  const key = `${round.number}/shared`;
  if (view.key === key && round.moves.length > view.moves) {
    const stuck = round.moves
      .slice(view.moves)
      .filter((m) => m.stuck)
      .at(-1);
    if (stuck) say(stuckText(round, stuck, round.faces.join() !== view.faces));
  }
  view.moves = round.moves.length;
  showPile(key, round.positions, round.faces, standing);
  renderSeats($("w-seats"), round);
  // The phones' standings, tie-break and all: level on points, the
  // quicker average turn is placed first.
  renderFinal(
    round,
    round.standings.map((p) => {
      const seat = round.seats.find((s) => s.seat === p.seat);
      const pace = digits((p.average_ms / 1000).toFixed(1));
      const points = fill(gettext("%(points)s points (%(pace)s s a turn)"), { points: digits(p.points), pace });
      return [p.place, seat?.name ?? seatName(p.seat), points];
    }),
  );
}

/** A line over the pile for what just happened (a stuck pile laid out again). */
function say(text) {
  const el = $("w-message");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(view.messageTimer);
  view.messageTimer = setTimeout(() => (el.hidden = true), MESSAGE_MS);
}

/** The waiting screen's list of who is in the room. */
function renderPeople(state) {
  const host = state.room.host_seat;
  $("w-people").replaceChildren(
    ...state.members.map((m) => {
      const li = document.createElement("li");
      li.dataset.seat = m.seat;
      li.textContent = m.seat === host ? fill(gettext("%(name)s (host)"), { name: m.name }) : m.name;
      return li;
    }),
  );
}

const seatName = (seat) => fill(gettext("seat %(seat)s"), { seat: digits(seat) });
const RACER_STATUS = {
  cleared: gettext("cleared"),
  stopped: gettext("stopped"),
  timed_out: gettext("out of time"),
  left: gettext("left"),
};

/** The racer to show in 3D: the best placed still playing, else the winner. */
function featured(round) {
  const order = round.standings.map((p) => round.racers.find((r) => r.seat === p.seat));
  return order.find((r) => r?.status === "playing") ?? order[0] ?? round.racers[0];
}

function renderRace(round) {
  $("w-seats").hidden = true;
  $("w-racers").hidden = false;
  const size = round.positions.length;
  const star = featured(round);
  if (star) {
    showPile(`${round.number}/${star.seat}`, round.positions, star.faces, standingOf(star.standing, size));
    $("w-leader").hidden = false;
    $("w-leader").textContent = `${star.name} · ${matchesText(star.matches)}`;
  }
  if (view.minisFor !== round.number) {
    view.minisFor = round.number;
    view.minis.clear();
    $("w-racers").replaceChildren();
  }
  const before = view.minis.size;
  const places = new Map(round.standings.map((p) => [p.seat, p.place]));
  for (const racer of round.racers) {
    let entry = view.minis.get(racer.seat);
    if (!entry) {
      entry = racerCard($("w-racers"), racer.seat, round.positions, {
        tag: "div",
        nameClass: "seat-name",
        countClass: "seat-lead",
        unit: 8,
      });
      view.minis.set(racer.seat, entry);
    }
    entry.li.classList.toggle("turn", racer.seat === star?.seat);
    entry.li.style.order = places.get(racer.seat) ?? 99; // in standings order
    entry.li.dataset.matches = racer.matches;
    entry.name.textContent = `${digits(places.get(racer.seat) ?? "")}. ${racer.name}`;
    const note = racer.status === "playing" ? "" : ` · ${RACER_STATUS[racer.status] ?? racer.status}`;
    entry.count.textContent = `${matchesText(racer.matches)}${note}`;
    entry.board.update(standingOf(racer.standing, size));
  }
  if (view.minis.size !== before) fitRacers();
  renderFinal(
    round,
    round.standings.map((p) => {
      const racer = round.racers.find((r) => r.seat === p.seat);
      const result = p.status === "cleared" ? clockText(p.ms) : matchesText(p.matches);
      return [p.place, racer?.name ?? seatName(p.seat), result];
    }),
  );
}

// Round each racer's small pile: padding, border and gap across; the name
// and count lines down (in this page's sofa-sized text).
const CARD_EXTRA_EM = [1.4, 3.4];

/** Every racer's card in one band under the pile, each pile as large as fits. */
function fitRacers() {
  const round = conn.state?.round;
  const list = $("w-racers");
  if (!round || !view.minis.size || list.offsetParent === null) return;
  const em = parseFloat(getComputedStyle(list).fontSize);
  const extra = CARD_EXTRA_EM.map((x) => x * em);
  // Beside the pile on a screen wider than tall, else in a band under it.
  const side = matchMedia("(min-aspect-ratio: 4/3)").matches;
  const height = side ? $("w-stage").clientHeight : 0.26 * innerHeight;
  const { cols, unit } = fitCards(view.minis.size, flatSize(round.positions), list.clientWidth, height, extra, 8);
  list.style.gridTemplateColumns = `repeat(${cols}, minmax(0, 1fr))`;
  for (const entry of view.minis.values()) entry.board.layout(unit);
}
addEventListener("resize", fitRacers);

function renderFinal(round, rows) {
  const over = round.status === "over";
  $("w-final").hidden = !over;
  if (!over) return;
  $("w-final-list").replaceChildren(
    ...rows.map(([place, name, result]) => {
      const li = document.createElement("li");
      li.textContent = `${digits(place)}. ${name}: ${result}`;
      return li;
    }),
  );
}

function tick() {
  const round = conn.state?.round;
  const turn = $("w-turn");
  const countdown = $("w-countdown");
  if (round?.mode === "race") {
    // The race's clock; with a time limit, the time left, as a countdown.
    const ms = raceMs(round, conn.serverNow());
    turn.textContent = round.status === "over" ? gettext("Race over") : clockText(ms);
    const left = round.limit_ms && round.status === "racing" ? Math.max(0, round.limit_ms - ms) : null;
    countdown.textContent = left === null ? "" : fill(gettext("%(time)s left"), { time: clockText(left) });
    countdown.style.setProperty("--left", String(left === null ? 0 : left / round.limit_ms));
    countdown.classList.toggle("low", left !== null && left <= 60000);
    return;
  }
  if (!round || round.mode !== "together" || round.status !== "playing") {
    turn.textContent = round?.status === "over" ? gettext("Game over") : "";
    countdown.textContent = "";
    return;
  }
  const who = round.seats.find((s) => s.seat === round.turn_seat);
  turn.textContent = who ? fill(gettext("%(name)s's turn"), { name: who.name }) : gettext("Waiting for a player");
  const left = turnLeftMs(round, conn.serverNow());
  countdown.textContent = left === null ? "" : fill(gettext("%(n)s s"), { n: digits(Math.ceil(left / 1000)) });
  countdown.style.setProperty("--left", String(left === null ? 0 : left / 30000));
  countdown.classList.toggle("low", left !== null && left <= 10000);
}

setInterval(tick, 250);
conn.connect();
