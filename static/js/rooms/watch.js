// The watch page (a TV or laptop showing a room): read-only, no seat. The
// server sends a full state whenever the room changed (at most twice a
// second, docs/protocol.md "Watchers"). Race: the pile of the best-placed
// racer still playing, in 3D and turning slowly, above every racer's pile
// from above with their matches. Together: the shared pile turning slowly,
// the players' cards under it, whose turn it is lit. Both end with the
// final standings.

import { BoardScene } from "../board/scene.js";
import { digits, fill, gettext, layoutName } from "../i18n.js";
import { fitCards, flatSize, racerCard } from "./board.js";
import { RoomConnection } from "./connection.js";
import { clockText, matchesText, standingOf } from "./state.js";
import { renderSeats, turnLeftMs } from "./together.js";

const $ = (id) => document.getElementById(id);
const root = $("watch");
// The pile turns once round in about a minute and a half.
const TURN_RADIANS_PER_S = (2 * Math.PI) / 90;
const TURN_EVERY_MS = 100;
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
    view.scene = new BoardScene($("w-pile"), {
      onTap: () => {},
      onTable: () => {},
      onMovedChange: () => {},
    });
    // The pile turns all the time: frame it whole at every angle.
    view.scene.view.sphere = true;
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
  if (!round) {
    $("w-final").hidden = true;
    $("w-title").textContent = "";
    return;
  }
  $("w-paused").hidden = !round.paused;
  if (round.mode === "together") renderTogether(round);
  else renderRace(round);
  tick();
}

function renderTogether(round) {
  $("w-seats").hidden = false;
  $("w-racers").hidden = true;
  $("w-leader").hidden = true;
  $("w-title").textContent = fill(gettext("Together · %(layout)s"), { layout: layoutName(round.layout.name) });
  const standing = standingOf(round.standing, round.positions.length);
  showPile(`${round.number}/shared`, round.positions, round.faces, standing);
  renderSeats($("w-seats"), round);
  renderFinal(
    round,
    round.standings.map((p) => {
      const seat = round.seats.find((s) => s.seat === p.seat);
      const points = fill(gettext("%(n)s points"), { n: digits(p.points) });
      return [p.place, seat?.name ?? seatName(p.seat), points];
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
  $("w-title").textContent = fill(gettext("Race · %(layout)s"), { layout: layoutName(round.layout.name) });
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
  if (!round || !view.minis.size) return;
  const em = parseFloat(getComputedStyle(list).fontSize);
  const extra = CARD_EXTRA_EM.map((x) => x * em);
  const { cols, unit } = fitCards(
    view.minis.size,
    flatSize(round.positions),
    list.clientWidth,
    0.28 * innerHeight,
    extra,
    8,
  );
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
  if (!round || round.mode !== "together" || round.status !== "playing") {
    turn.textContent = round?.status === "over" ? gettext("Game over") : "";
    countdown.textContent = "";
    return;
  }
  const who = round.seats.find((s) => s.seat === round.turn_seat);
  turn.textContent = who ? fill(gettext("%(name)s's turn"), { name: who.name }) : gettext("Waiting for a player");
  const left = turnLeftMs(round, conn.serverNow());
  countdown.textContent = left === null ? "" : fill(gettext("%(n)s s"), { n: digits(Math.ceil(left / 1000)) });
  countdown.style.setProperty("--left", left === null ? 0 : left / 30000);
  countdown.classList.toggle("low", left !== null && left <= 10000);
}

setInterval(tick, 250);
setInterval(() => {
  if (view.scene && conn.state?.round) {
    view.scene.view.turn((TURN_RADIANS_PER_S * TURN_EVERY_MS) / 1000);
  }
}, TURN_EVERY_MS);
conn.connect();
