// The host's manners controls (docs/protocol.md, `remove` and `lock`): take
// a person out of the room, and lock it to new players. Shown to the host
// only, on every screen of the room.

import { gettext } from "../i18n.js";

const $ = (id) => document.getElementById(id);

export function renderManners(state, mySeat, act) {
  const box = $("host-manners");
  const hosting = state.room.host_seat === mySeat;
  box.hidden = !hosting;
  if (!hosting) return;
  $("lock-room").checked = Boolean(state.room.locked);
  const people = state.members.filter((m) => !m.bot && m.seat !== mySeat);
  $("manners-people").replaceChildren(
    ...people.map((m) => {
      const li = document.createElement("li");
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = gettext("Remove");
      remove.dataset.seat = m.seat;
      remove.addEventListener("click", () => act("remove", { seat: m.seat }));
      li.append(m.name, " ", remove);
      return li;
    }),
  );
  $("manners-none").hidden = people.length > 0;
}

export function listenManners(act) {
  $("lock-room").addEventListener("change", (e) =>
    act("lock", { locked: e.target.checked }),
  );
}
