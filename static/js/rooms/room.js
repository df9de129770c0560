// The room page: lobby, the host's choices, the race (own board, players'
// strip, clock, standings) or Together (rooms/together.js). Everything shown
// comes from the state the connection keeps; every action is a message to
// the server.

import { keepRotateFirst, keepShading, rotateFirstOn, shadingOn } from "../board/prefs.js";
import { prepareScene } from "../board/scene.js";
import { digits, fill, gettext, ngettext } from "../i18n.js";
import { fitCards, flatSize, racerCard } from "./board.js";
import { RoomConnection } from "./connection.js";
import { listenManners, renderManners } from "./manners.js";
import { RaceView } from "./race.js";
import { clockText, matchesText, ownMs, standingOf } from "./state.js";
import { TogetherView } from "./together.js";

/** @type {(id: string) => any} the page's elements: buttons, dialogs, forms */
const $ = (id) => document.getElementById(id);
const root = $("room");
const CHOICES_KEY = "tiles.rooms.choices";
const bestKey = (pile) => `tiles.rooms.best.${pile}`;
const STATUS_TEXT = {
  connecting: gettext("connecting…"),
  online: gettext("online"),
  offline: gettext("reconnecting…"),
  unavailable: gettext("the server is busy: trying again…"),
  left: gettext("you left"),
  not_member: gettext("not in this room"),
};
const RACER_STATUS = {
  playing: "",
  cleared: gettext("cleared"),
  stopped: gettext("stopped"),
  timed_out: gettext("out of time"),
  left: gettext("left"),
};

const view = {
  number: null, // the round the strip was built for
  minis: new Map(),
  host: null, // the host's seat and everyone's names, to tell who left
  shaded: new WeakSet(), // scenes given the player's shading choice
};

const conn = new RoomConnection(root.dataset.code, { onChange: render, onStatus });
const together = new TogetherView(
  {
    pile: $("t-pile"),
    strip: $("t-strip"),
    turn: $("t-turn"),
    countdown: $("t-countdown"),
    hint: $("t-hint"),
    fit: $("t-fit"),
    message: $("t-message"),
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

const isHost = () => conn.state?.room.host_seat === conn.seat;
const mine = () => conn.state?.round?.racers?.find((r) => r.seat === conn.seat) ?? null;
const nameOf = (seat) =>
  conn.state.round?.racers?.find((r) => r.seat === seat)?.name ??
  conn.state.members.find((m) => m.seat === seat)?.name ??
  fill(gettext("seat %(seat)s"), { seat: digits(seat) });

/** When the host leaves, the game ends for everyone: say who and why. */
function announceHost(state) {
  const before = view.host;
  const names = new Map(state.members.map((m) => [m.seat, m.name]));
  const seat = state.room.host_seat;
  view.host = { seat, names, playing: Boolean(state.round) };
  if (!before || before.seat === seat || names.has(before.seat)) return;
  const gone = before.names.get(before.seat) ?? gettext("The host");
  const left = before.playing
    ? gettext("%(name)s (the host) left, so the game ended.")
    : gettext("%(name)s (the host) left.");
  let heir = "";
  if (seat === conn.seat) heir = " " + gettext("You are the host now.");
  else if (seat !== null && seat !== undefined) {
    heir = " " + fill(gettext("%(name)s is the host now."), { name: names.get(seat) });
  }
  notice(fill(left, { name: gone }) + heir);
}

function render(state) {
  const status = state.room.status;
  root.dataset.status = status;
  // The game screen is one screen high: the pile takes what is left.
  document.body.classList.toggle("in-game", status === "game");
  announceHost(state);
  $("lobby").hidden = status !== "lobby";
  $("game").hidden = status !== "game";
  renderMembers(state);
  renderManners(state, conn.seat);
  $("host-lobby").hidden = !isHost();
  $("wait-start").hidden = isHost();
  if (status === "game") renderGame(state);
  syncScenes();
  // Waiting to start, for a deal, or watching a race: the 3D view is made
  // ahead, in the race's pile laid out unseen, so the first deal shows as
  // fast as a later one.
  if (!scenes().length) prepareScene($("board"));
}

function renderMembers(state) {
  $("members").replaceChildren(
    ...state.members.map((m) => {
      const li = document.createElement("li");
      li.dataset.seat = m.seat;
      li.textContent = m.seat === state.room.host_seat ? fill(gettext("%(name)s (host)"), { name: m.name }) : m.name;
      if (m.bot && isHost()) {
        const remove = document.createElement("button");
        remove.type = "button";
        remove.textContent = gettext("Remove");
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
    ? gettext("Together game in progress: you watch this pile and play the next deal.")
    : gettext("Race in progress: you join the next deal.");
  $("race").hidden = !round || shared;
  // Before the first deal the race screen is laid out but not seen
  // (rooms.css): its style, its layout and its pile's size are done then.
  $("race").toggleAttribute("data-ahead", !round);
  $("together").hidden = !round || !shared;
  $("deal").textContent = round ? gettext("Play again") : gettext("Deal");
  if (!round) return;
  showPausesLeft(round);
  // The mode not dealt gives its pile back: GPU memory, a WebGL context.
  (shared ? race : together).dispose();
  if (shared) {
    together.render(round);
    // One who watches until the next deal cannot pause the others' game.
    $("t-pause").hidden = !inPlay || !me || round.paused;
    $("t-resume").hidden = !inPlay || !me || !round.paused;
    // Paused, the pile is covered, not dimmed: nobody studies it for free.
    $("t-pile").classList.toggle("covered", round.paused);
    $("t-paused").hidden = !round.paused;
    $("t-paused").disabled = !me;
    $("t-paused").textContent = me ? gettext("Paused: tap to go on") : gettext("Paused");
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
  let added = false; // a card added, or its text changed shape
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
      added = true;
    }
    const note = RACER_STATUS[racer.status];
    // A status note can wrap the count onto a second line: fit again.
    if (entry.li.dataset.status !== racer.status) added = true;
    entry.name.textContent =
      racer.seat === conn.seat ? fill(gettext("%(name)s (you)"), { name: racer.name }) : racer.name;
    entry.count.textContent = `${matchesText(racer.matches)}${note ? `, ${note}` : ""}`;
    entry.li.dataset.matches = racer.matches;
    entry.li.dataset.status = racer.status;
    entry.board.update(standingOf(racer.standing, round.positions.length));
  }
  if (added) fitStrip();
}

// Each card round its pile: padding, border and gap across; the name and
// the count lines, padding and gap down (CSS px, as rooms.css draws them).
const CARD_EXTRA = [22, 46];
// The narrowest card whose name and count read whole ("16 matches").
const CARD_MIN_PX = 84;

/** Every racer's card on screen: the strip's columns and pile scale. */
function fitStrip() {
  const round = conn.state?.round;
  const strip = $("strip");
  if (!round || round.mode !== "race" || !view.minis.size || strip.offsetParent === null) return;
  const side = matchMedia("(min-aspect-ratio: 1/1)").matches;
  const top = strip.getBoundingClientRect().top;
  const width = side ? Math.min(0.3 * innerWidth, 360) : strip.clientWidth;
  const height = side ? innerHeight - top - 8 : 0.22 * innerHeight;
  const size = flatSize(round.positions);
  const fit = (extra) => {
    const most = Math.floor(width / CARD_MIN_PX);
    const { cols, unit } = fitCards(view.minis.size, size, width, height, extra, 4, most);
    strip.style.gridTemplateColumns = `repeat(${cols}, minmax(0, 1fr))`;
    for (const entry of view.minis.values()) entry.board.layout(unit);
  };
  fit(CARD_EXTRA);
  // A long name or count wraps rather than being cut: where that makes a
  // card taller than reckoned, fit again with the text's real height.
  const tallest = Math.max(...[...view.minis.values()].map((e) => e.li.offsetHeight - e.board.el.offsetHeight + 6));
  if (tallest > CARD_EXTRA[1]) fit([CARD_EXTRA[0], tallest]);
}
addEventListener("resize", fitStrip);

function renderBoard(round, me) {
  $("board-wrap").hidden = !me && round.status !== "over";
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
  // One waiting for the next deal has no clock, no pile and no pause.
  $("race-bar").hidden = !me;
  // Back to safety is a run of free undos, so it is offered with undo.
  $("hint").hidden = $("undo").hidden = $("safety").hidden = !playing;
  // While paused they would do nothing, so they do not look as if they would.
  $("hint").disabled = $("undo").disabled = $("safety").disabled = round.paused;
  $("stuck").hidden = !(playing && me.stuck && !round.paused);
  $("pause").hidden = !racing || !me || round.paused;
  $("resume").hidden = !racing || !me || !round.paused;
  $("paused-cover").disabled = !me;
  $("end-now").hidden = !(racing && isHost() && me && me.status !== "playing");
}

function renderStandings(round, me) {
  const show = round.status === "over" || (me && me.status !== "playing");
  $("standings").hidden = !show;
  if (!show) return;
  $("standings-title").textContent = round.status === "over" ? gettext("Final standings") : gettext("Standings so far");
  $("standings-list").replaceChildren(
    ...round.standings.map((p) => {
      const li = document.createElement("li");
      li.dataset.seat = p.seat;
      const result = p.status === "cleared" ? clockText(p.ms) : matchesText(p.matches);
      const line =
        p.status === "playing"
          ? gettext("%(place)s. %(name)s: %(result)s (playing)")
          : gettext("%(place)s. %(name)s: %(result)s");
      li.textContent = fill(line, { place: digits(p.place), name: nameOf(p.seat), result });
      return li;
    }),
  );
  if (me?.status === "cleared") {
    const key = bestKey(round.pile);
    const best = Number(localStorage.getItem(key)) || null;
    if (best === null || me.end_ms < best) localStorage.setItem(key, String(me.end_ms));
    const shown = Math.min(best ?? me.end_ms, me.end_ms);
    $("best").textContent = fill(gettext("Your best on this pile on this device: %(time)s"), {
      time: clockText(shown),
    });
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
  // Once this racer is done (or the race is), the bar shows the result.
  const done = me.status !== "playing" || round.status !== "racing";
  $("limit").textContent = done
    ? RACER_STATUS[me.status] || gettext("race over")
    : round.limit_ms
      ? fill(gettext("%(time)s left"), { time: clockText(round.limit_ms - own) })
      : "";
}
setInterval(tick, 250);

// Pauses are counted per player and deal (the rules page): the page counts
// the ones the server accepted, kept for the deal across a reload, and
// the server's refusal when none are left sets it straight.
const PAUSES = Number(root.dataset.pauses);
const pausesKey = (round) => `tiles.rooms.pauses.${root.dataset.code}.${round.number}`;
const pausesUsed = (round) => Number(sessionStorage.getItem(pausesKey(round))) || 0;

async function pause() {
  const round = conn.state?.round;
  if (!round) return;
  const reply = await act("pause");
  const used = reply.type === "error" ? (reply.code === "no_pauses_left" ? PAUSES : null) : pausesUsed(round) + 1;
  if (used !== null) sessionStorage.setItem(pausesKey(round), String(used));
  showPausesLeft(round);
}

function showPausesLeft(round) {
  const left = Math.max(0, PAUSES - pausesUsed(round));
  const label = left
    ? fill(ngettext("Pause: %(n)s left", "Pause: %(n)s left", left), { n: digits(left) })
    : gettext("No pauses left this deal");
  for (const id of ["pause", "t-pause"]) {
    const button = $(id);
    button.disabled = left === 0;
    button.setAttribute("aria-label", label);
    button.querySelector(".pauses-left").textContent = digits(left);
  }
}

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
  const form = /** @type {any} */ (e.target);
  const choices = {
    mode: form.elements.mode.value,
    pile: form.elements.pile.value,
    limit: Number(form.elements.limit.value),
  };
  localStorage.setItem(CHOICES_KEY, JSON.stringify(choices));
  act("deal", choices);
});
$("add-bot").addEventListener("click", () => act("add_bot", { level: $("bot-level").value }));
$("start-game").addEventListener("click", () => act("start_game"));
$("hint").addEventListener("click", () => race.hint());
$("undo").addEventListener("click", () => act("undo", { move: mine().moves }));
$("safety").addEventListener("click", () => race.backToSafety());
$("stuck-safety").addEventListener("click", () => race.backToSafety());
$("shuffle").addEventListener("click", () => act("shuffle"));
$("stop").addEventListener("click", () => act("stop"));
$("pause").addEventListener("click", pause);
$("resume").addEventListener("click", () => act("resume"));
$("end-now").addEventListener("click", () => act("end_now"));
$("t-pause").addEventListener("click", pause);
$("t-resume").addEventListener("click", () => act("resume"));
$("paused-cover").addEventListener("click", () => act("resume"));
$("t-paused").addEventListener("click", () => act("resume"));
$("help-open").addEventListener("click", () => $("help").showModal());
$("settings-open").addEventListener("click", () => $("settings").showModal());

// The view's switches (in the settings dialog) act on whichever piles this
// page shows, and are kept on this device like the solo board's.
const scenes = () => [race.scene, together.scene].filter(Boolean);
function showToggles() {
  $("mode").setAttribute("aria-pressed", String(rotateFirstOn()));
  $("shading").setAttribute("aria-pressed", String(shadingOn()));
}
function syncScenes() {
  for (const scene of scenes()) {
    if (view.shaded.has(scene)) continue;
    view.shaded.add(scene);
    scene.setShading(shadingOn());
  }
  showToggles();
}
function toggleRotate() {
  // Kept even with no pile yet: the next pile's camera reads it.
  keepRotateFirst(!rotateFirstOn());
  for (const scene of scenes()) scene.setRotateFirst(rotateFirstOn());
  showToggles();
}
function toggleShading() {
  keepShading(!shadingOn());
  for (const scene of scenes()) scene.setShading(shadingOn());
  showToggles();
}
$("mode").addEventListener("click", toggleRotate);
$("shading").addEventListener("click", toggleShading);
showToggles();
// Off the game screen, a Together player's turns are skipped until back.
document.addEventListener("visibilitychange", () => {
  if (conn.state?.round?.mode === "together") {
    conn.send("visible", { visible: document.visibilityState === "visible" });
  }
});
// The x asks first: one slip of a thumb should not give up a seat.
$("leave").addEventListener("click", () => {
  $("leave-note").textContent = isHost()
    ? gettext("You are the host: the game ends for everyone and the next player hosts.")
    : gettext("You give up your seat; a race you are in stops where you are.");
  $("leave-confirm").showModal();
});
$("leave-yes").addEventListener("click", async () => {
  $("leave-confirm").close();
  // Once the server has said yes, go: whatever way the socket then closes,
  // a reconnect would only find the seat gone.
  const reply = await act("leave");
  if (reply.type !== "ack") return;
  conn.close();
  race.dispose();
  together.dispose();
  location.href = "/rooms/";
});
listenManners(act);
// The solo board's keys on the game screen: each presses the first of its
// buttons that is showing and enabled (so P pauses or resumes, and a key
// whose button is not offered now does nothing).
const KEY_BUTTONS = {
  h: ["hint", "t-hint"],
  u: ["undo"],
  k: ["safety"],
  s: ["shuffle"],
  p: ["pause", "resume", "t-pause", "t-resume"],
  escape: ["pause", "t-pause"],
  f: ["fit", "t-fit"],
  o: ["settings-open"],
  "?": ["help-open"],
};
// The view's switches live in the settings dialog; their keys act while a
// pile shows, as the buttons on the bars did.
const KEY_TOGGLES = { m: toggleRotate, b: toggleShading };
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(/** @type {Element} */ (e.target).tagName)) return;
  if (document.querySelector("dialog[open]")) return;
  const toggle = KEY_TOGGLES[e.key.toLowerCase()];
  if (toggle && scenes().some((scene) => scene.container.offsetParent !== null)) {
    e.preventDefault();
    toggle();
    return;
  }
  const button = (KEY_BUTTONS[e.key.toLowerCase()] || [])
    .map((id) => $(id))
    .find((b) => b && !b.disabled && b.offsetParent !== null);
  if (!button) return;
  e.preventDefault();
  button.click();
});
$("invite").addEventListener("focus", (e) => /** @type {HTMLInputElement} */ (e.target).select());
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
if (navigator.share) shareButton.textContent = gettext("Share link");
shareButton.addEventListener("click", async () => {
  const url = $("invite").value;
  const status = $("invite-status");
  try {
    if (navigator.share) {
      await navigator.share({ title: fill(gettext("Tiles room %(code)s"), { code: root.dataset.code }), url });
      return;
    }
    await navigator.clipboard.writeText(url);
    say(status, gettext("Link copied"));
  } catch (err) {
    if (err.name === "AbortError") return; // the share sheet was closed
    $("invite").focus();
    say(status, gettext("Copy the selected link"));
  }
});

restoreChoices();
conn.connect();
