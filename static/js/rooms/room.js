// The room page: lobby, the host's choices, the race (own board, players'
// strip, clock, standings) or Together (rooms/together.js). Everything shown
// comes from the state the connection keeps; every action is a message to
// the server.

import { racerCard } from "./board.js";
import { RoomConnection } from "./connection.js";
import { listenManners, renderManners } from "./manners.js";
import { RaceView } from "./race.js";
import { clockText, ownMs, standingOf } from "./state.js";
import { TogetherView } from "./together.js";

const $ = (id) => document.getElementById(id);
const root = $("room");
const CHOICES_KEY = "tiles.rooms.choices";
const bestKey = (pile) => `tiles.rooms.best.${pile}`;
const STATUS_TEXT = {
  connecting: "connecting…",
  online: "online",
  offline: "reconnecting…",
  left: "you left",
  not_member: "not in this room",
};
const RACER_STATUS = {
  playing: "",
  cleared: "cleared",
  stopped: "stopped",
  timed_out: "out of time",
  left: "left",
};

const view = {
  number: null, // the round the strip was built for
  minis: new Map(),
};

const conn = new RoomConnection(root.dataset.code, { onChange: render, onStatus });
const together = new TogetherView(
  {
    pile: $("t-pile"),
    strip: $("t-strip"),
    turn: $("t-turn"),
    countdown: $("t-countdown"),
    hint: $("t-hint"),
    standings: $("t-standings"),
    standingsList: $("t-standings-list"),
  },
  conn,
  act,
);
const race = new RaceView(
  {
    pile: $("board"),
    list: $("free-tiles"),
    message: $("race-message"),
    fit: $("fit"),
    root,
  },
  act,
  () => mine(),
);
window.tilesRoom = { conn, together, race };

function onStatus(status) {
  root.dataset.conn = status;
  // Connecting counts as back on the game screen: a hidden tab says so.
  if (status === "online" && document.visibilityState !== "visible") {
    conn.send("visible", { visible: false });
  }
  $("conn").textContent = STATUS_TEXT[status] ?? status;
  if (status === "not_member") location.reload();
  if (status === "left") location.href = "/rooms/";
}

function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

async function act(type, fields) {
  const reply = await conn.send(type, fields);
  if (reply.type === "error") notice(reply.message);
  else notice("");
  return reply;
}

const matchesText = (n) => `${n} match${n === 1 ? "" : "es"}`;
const isHost = () => conn.state?.room.host_seat === conn.seat;
const mine = () => conn.state?.round?.racers?.find((r) => r.seat === conn.seat) ?? null;
const nameOf = (seat) =>
  conn.state.round?.racers?.find((r) => r.seat === seat)?.name ??
  conn.state.members.find((m) => m.seat === seat)?.name ??
  `seat ${seat}`;

function render(state) {
  const status = state.room.status;
  root.dataset.status = status;
  $("lobby").hidden = status !== "lobby";
  $("game").hidden = status !== "game";
  renderMembers(state);
  renderManners(state, conn.seat, act);
  $("host-lobby").hidden = !isHost();
  $("wait-start").hidden = isHost();
  if (status === "game") renderGame(state);
}

function renderMembers(state) {
  $("members").replaceChildren(
    ...state.members.map((m) => {
      const li = document.createElement("li");
      li.dataset.seat = m.seat;
      li.textContent = m.name + (m.seat === state.room.host_seat ? " (host)" : "");
      if (m.bot && isHost()) {
        const remove = document.createElement("button");
        remove.type = "button";
        remove.textContent = "Remove";
        remove.addEventListener("click", () => act("remove_bot", { seat: m.seat }));
        li.append(" ", remove);
      }
      return li;
    }),
  );
}

function renderGame(state) {
  const round = state.round;
  const shared = round?.mode === "together";
  const racing = round?.status === "racing";
  const inPlay = racing || round?.status === "playing";
  const me = shared ? round.seats.find((s) => s.seat === conn.seat && !s.left) : mine();
  $("deal-form").hidden = !isHost() || inPlay;
  $("wait-deal").hidden = isHost() || inPlay;
  $("in-progress").hidden = !(inPlay && !me);
  $("in-progress").textContent = shared
    ? "Together game in progress: you watch this pile and play the next deal."
    : "Race in progress: you join the next deal.";
  $("race").hidden = !round || shared;
  $("together").hidden = !round || !shared;
  $("deal").textContent = round ? "Play again" : "Deal";
  if (!round) return;
  if (shared) {
    together.render(round);
    $("t-pause").hidden = !inPlay || round.paused;
    $("t-resume").hidden = !inPlay || !round.paused;
    $("t-paused").hidden = !round.paused;
    return;
  }
  if (view.number !== round.number) buildRound(round);
  renderStrip(round);
  renderBoard(round, me);
  renderControls(round, me, racing);
  renderStandings(round, me);
  tick();
}

function buildRound(round) {
  view.number = round.number;
  view.minis.clear();
  $("strip").replaceChildren();
}

function renderStrip(round) {
  for (const racer of round.racers) {
    let entry = view.minis.get(racer.seat);
    if (!entry) {
      entry = racerCard($("strip"), racer.seat, round.positions, {
        tag: "span",
        nameClass: "strip-name",
        countClass: "strip-matches",
        unit: 4,
      });
      view.minis.set(racer.seat, entry);
    }
    const note = RACER_STATUS[racer.status];
    entry.name.textContent = racer.name + (racer.seat === conn.seat ? " (you)" : "");
    entry.count.textContent = `${matchesText(racer.matches)}${note ? `, ${note}` : ""}`;
    entry.li.dataset.matches = racer.matches;
    entry.li.dataset.status = racer.status;
    entry.board.update(standingOf(racer.standing, round.positions.length));
  }
}

function renderBoard(round, me) {
  $("board-wrap").hidden = !me;
  $("paused-cover").hidden = !round.paused;
  $("board").classList.toggle("covered", round.paused);
  if (me) race.render(round, me, canPlay(round, me));
}

// Tiles can be taken once the pile has built and while the clock runs.
const canPlay = (round, me) =>
  me.status === "playing" &&
  round.status === "racing" &&
  !round.paused &&
  conn.serverNow() >= (round.running_since ?? Infinity);

function renderControls(round, me, racing) {
  const playing = racing && me?.status === "playing";
  $("hint").hidden = $("undo").hidden = !playing;
  $("shuffle").hidden = $("stop").hidden = !(playing && me.stuck);
  $("pause").hidden = !racing || round.paused;
  $("resume").hidden = !racing || !round.paused;
  $("end-now").hidden = !(racing && isHost() && me && me.status !== "playing");
}

function renderStandings(round, me) {
  const show = round.status === "over" || (me && me.status !== "playing");
  $("standings").hidden = !show;
  if (!show) return;
  $("standings-title").textContent =
    round.status === "over" ? "Final standings" : "Standings so far";
  $("standings-list").replaceChildren(
    ...round.standings.map((p) => {
      const li = document.createElement("li");
      li.dataset.seat = p.seat;
      const result =
        p.status === "cleared" ? clockText(p.ms) : matchesText(p.matches);
      const note = p.status === "playing" ? " (playing)" : "";
      li.textContent = `${p.place}. ${nameOf(p.seat)}: ${result}${note}`;
      return li;
    }),
  );
  if (me?.status === "cleared") {
    const key = bestKey(round.pile);
    const best = Number(localStorage.getItem(key)) || null;
    if (best === null || me.end_ms < best) localStorage.setItem(key, String(me.end_ms));
    const shown = Math.min(best ?? me.end_ms, me.end_ms);
    $("best").textContent = `Your best on this pile on this device: ${clockText(shown)}`;
  } else {
    $("best").textContent = "";
  }
}

function tick() {
  together.tick();
  const round = conn.state?.round;
  const me = mine();
  if (!round || !me) return;
  // The clock starts with no event: the pile opens to taps then.
  if (round.mode === "race" && canPlay(round, me) !== race.canPlay) renderBoard(round, me);
  const own = ownMs(round, me, conn.serverNow());
  $("clock").textContent = clockText(own);
  $("limit").textContent = round.limit_ms
    ? `${clockText(round.limit_ms - own)} left`
    : "";
}
setInterval(tick, 250);

function restoreChoices() {
  const form = $("deal-form");
  try {
    const saved = JSON.parse(localStorage.getItem(CHOICES_KEY) || "{}");
    if (saved.mode) form.elements.mode.value = saved.mode;
    if (saved.pile) form.elements.pile.value = saved.pile;
    if (saved.limit !== undefined) form.elements.limit.value = String(saved.limit);
  } catch {
    localStorage.removeItem(CHOICES_KEY);
  }
  showLimit();
}

// Together has no time limit.
function showLimit() {
  $("limit-choice").hidden = $("deal-form").elements.mode.value === "together";
}
$("deal-form").addEventListener("change", showLimit);

$("deal-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const form = e.target;
  const choices = {
    mode: form.elements.mode.value,
    pile: form.elements.pile.value,
    limit: Number(form.elements.limit.value),
  };
  localStorage.setItem(CHOICES_KEY, JSON.stringify(choices));
  act("deal", choices);
});
$("add-bot").addEventListener("click", () =>
  act("add_bot", { level: $("bot-level").value }),
);
$("start-game").addEventListener("click", () => act("start_game"));
$("hint").addEventListener("click", () => race.hint());
$("undo").addEventListener("click", () => act("undo", { move: mine().moves }));
$("shuffle").addEventListener("click", () => act("shuffle"));
$("stop").addEventListener("click", () => act("stop"));
$("pause").addEventListener("click", () => act("pause"));
$("resume").addEventListener("click", () => act("resume"));
$("end-now").addEventListener("click", () => act("end_now"));
$("t-pause").addEventListener("click", () => act("pause"));
$("t-resume").addEventListener("click", () => act("resume"));
// Off the game screen, a Together player's turns are skipped until back.
document.addEventListener("visibilitychange", () => {
  if (conn.state?.round?.mode === "together") {
    conn.send("visible", { visible: document.visibilityState === "visible" });
  }
});
$("leave").addEventListener("click", () => act("leave"));
listenManners(act);
// The solo board's keys on the game screen: each presses the first of its
// buttons that is showing and enabled (so P pauses or resumes, and a key
// whose button is not offered now does nothing).
const KEY_BUTTONS = {
  h: ["hint", "t-hint"],
  u: ["undo"],
  s: ["shuffle"],
  p: ["pause", "resume", "t-pause", "t-resume"],
  escape: ["pause", "t-pause"],
  f: ["fit"],
};
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName)) return;
  const button = (KEY_BUTTONS[e.key.toLowerCase()] || [])
    .map((id) => $(id))
    .find((b) => b && !b.disabled && b.offsetParent !== null);
  if (!button) return;
  e.preventDefault();
  button.click();
});
$("invite").addEventListener("focus", (e) => e.target.select());
// Phones open their share sheet (to a chat app, say); elsewhere the link
// goes to the clipboard. Without either, the link is left selected to copy.
const shareButton = $("share-invite");
// A status line that says what just happened, then clears, so an old
// "Link copied" is not read as news later.
let sayTimer = 0;
function say(status, text) {
  status.textContent = text;
  clearTimeout(sayTimer);
  sayTimer = setTimeout(() => (status.textContent = ""), 4000);
}
if (navigator.share) shareButton.textContent = "Share link";
shareButton.addEventListener("click", async () => {
  const url = $("invite").value;
  const status = $("invite-status");
  try {
    if (navigator.share) {
      await navigator.share({ title: `Tiles room ${root.dataset.code}`, url });
      return;
    }
    await navigator.clipboard.writeText(url);
    say(status, "Link copied");
  } catch (err) {
    if (err.name === "AbortError") return; // the share sheet was closed
    $("invite").focus();
    say(status, "Copy the selected link");
  }
});

restoreChoices();
conn.connect();
