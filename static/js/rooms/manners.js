// The host's manners controls (docs/protocol.md, `remove` and `lock`): take
// a person out of the room, and lock it to new players. Shown to the host
// only, on every screen of the room.

import { fill, gettext } from "../i18n.js";

const $ = (id) => document.getElementById(id);
let removing = null; // the seat the confirmation asks about

export function renderManners(state, mySeat) {
  const box = $("host-manners");
  const hosting = state.room.host_seat === mySeat;
  box.hidden = !hosting;
  if (!hosting) return;
  /** @type {HTMLInputElement} */ ($("lock-room")).checked = Boolean(state.room.locked);
  $("lock-note").hidden = !state.room.locked;
  const people = state.members.filter((m) => !m.bot && m.seat !== mySeat);
  $("manners-people").replaceChildren(
    ...people.map((m) => {
      const li = document.createElement("li");
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = gettext("Remove");
      remove.dataset.seat = m.seat;
      // A removal cannot be taken back by the one removed: ask first.
      remove.addEventListener("click", () => {
        removing = m.seat;
        $("remove-title").textContent = fill(gettext("Remove %(name)s from the room?"), { name: m.name });
        /** @type {HTMLDialogElement} */ ($("remove-confirm")).showModal();
      });
      li.append(m.name, " ", remove);
      return li;
    }),
  );
  $("manners-none").hidden = people.length > 0;
}

export function listenManners(act) {
  $("lock-room").addEventListener("change", (e) =>
    act("lock", { locked: /** @type {HTMLInputElement} */ (e.target).checked }),
  );
  $("remove-yes").addEventListener("click", () => {
    /** @type {HTMLDialogElement} */ ($("remove-confirm")).close();
    if (removing !== null) act("remove", { seat: removing });
    removing = null;
  });
}
