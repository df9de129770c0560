// Tapping, selecting and taking, once for every board: the solo page
// (board/game.js), a racer's own pile (rooms/race.js) and the shared pile of
// Together (rooms/together.js). What differs between them comes in as hooks:
// when taps may pick (the clock runs, it is this seat's turn), who decides a
// take (the solo API, or the room's socket), and whether the pair leaves at
// once or when the server says so. A tap on a blocked tile shakes it and says
// which rule holds it, on every board.

import { FreeTileList, REASONS, faceName } from "./a11y.js";
import { matches } from "./rules.js";
import { fill, gettext } from "../i18n.js";

/** @typedef {import("./rules.js").Geometry} Geometry */
/** @typedef {import("./scene.js").BoardScene} BoardScene */
/**
 * What the 3D pile calls back with.
 * @typedef {object} SceneHooks
 * @property {(i: number) => void} onTap a tile was tapped
 * @property {() => void} onTable the table beside the pile was tapped
 * @property {(moved: boolean) => void} onMovedChange the view left or came back to its fit
 */
/** @typedef {import("./rules.js").BlockedReason} BlockedReason */

/**
 * A tile as the page draws it: its place in half-tile units and its face.
 * @typedef {object} Tile
 * @property {number} x
 * @property {number} y
 * @property {number} z
 * @property {string} face a face code, "dots-5", "wind-east"
 * @property {number} [id] the server's id of the tile (the solo API's)
 */

/** Two tile indices taken together. @typedef {[number, number]} Pair */

/**
 * What the controller reads of a board's pile, by tile index.
 * @typedef {object} Pile
 * @property {Geometry | null} geometry
 * @property {boolean[]} standing
 * @property {readonly string[]} faces
 */

/**
 * What a tap does.
 * @typedef {{kind: "ignore"}
 *   | {kind: "blocked", reason: BlockedReason}
 *   | {kind: "select", tile: number}
 *   | {kind: "deselect"}
 *   | {kind: "take", pair: Pair}} Decision
 */

/**
 * What a tap on tile `i` does, with tile `selected` held (-1: none): a
 * gone tile does nothing, a blocked one is refused with its reason, the
 * held tile is put down, its match takes the pair, any other free tile is
 * picked up instead.
 * @param {number} i
 * @param {number} selected
 * @param {Pile} pile
 * @returns {Decision}
 */
export function decide(i, selected, pile) {
  if (!pile.geometry || !pile.standing[i]) return { kind: "ignore" };
  const reason = pile.geometry.blockedReason(i, pile.standing);
  if (reason) return { kind: "blocked", reason };
  if (selected === i) return { kind: "deselect" };
  if (selected >= 0 && matches(pile.faces[selected], pile.faces[i])) {
    return { kind: "take", pair: [selected, i] };
  }
  return { kind: "select", tile: i };
}

/**
 * The board's side of a mode.
 * @typedef {object} PickHooks
 * @property {() => Pile} pile the pile as the page shows it now
 * @property {() => boolean} canPick whether taps may pick tiles now
 * @property {(a: number, b: number) => void} take a matching pair was chosen:
 *   send it (solo: the API; rooms: the socket)
 * @property {boolean} [leaveAtOnce] the pair flies off before the server
 *   answers (solo, Race); else its event moves it (Together's turns)
 * @property {(text: string) => void} say show (and read out) a short message
 * @property {HTMLElement} marker carries data-blocked, the last refusal's reason
 * @property {(moved: boolean) => void} onMovedChange the view left or
 *   came back to its fitted place
 * @property {HTMLElement} [list] the hidden list of free tiles, if the board has one
 * @property {(i: number) => void} [onSelect] the held tile changed (-1: none)
 * @property {(name: string) => void} [sound] play a sound by name
 */

export class PileController {
  /**
   * @param {(hooks: SceneHooks) => BoardScene} makeScene the 3D pile
   *   (`new BoardScene(container, hooks)`; the node tests pass a stand-in)
   * @param {PickHooks} hooks
   */
  constructor(makeScene, hooks) {
    this.hooks = hooks;
    /** The held tile's index, -1 when none. */
    this.selected = -1;
    this.scene = makeScene({
      onTap: (i) => this.tap(i),
      onTable: () => this.select(-1),
      onMovedChange: hooks.onMovedChange,
    });
    /** @type {FreeTileList | null} */
    this.list = hooks.list
      ? new FreeTileList(
          hooks.list,
          (/** @type {number} */ i) => this.tap(i),
          (/** @type {number} */ i) => this.scene.setFocus(i),
        )
      : null;
  }

  /** @param {number} i a tile index, from the canvas or the list of free tiles */
  tap(i) {
    if (!this.hooks.canPick()) return;
    const pile = this.hooks.pile();
    const decision = decide(i, this.selected, pile);
    switch (decision.kind) {
      case "blocked":
        this.hooks.sound?.("blocked");
        this.scene.shake(i);
        this.hooks.say(REASONS[decision.reason]);
        this.hooks.marker.dataset.blocked = decision.reason;
        return;
      case "select":
        return this.select(decision.tile);
      case "deselect":
        return this.select(-1);
      case "take":
        return this.take(...decision.pair);
    }
  }

  /** Hold tile `i` (-1: put the held one down). @param {number} i */
  select(i) {
    if (i === this.selected) return;
    this.selected = i;
    this.scene.select(i);
    if (i >= 0) {
      this.hooks.sound?.("select");
      const tile = faceName(this.hooks.pile().faces[i]);
      this.hooks.say(fill(gettext("%(tile)s picked up."), { tile }));
    }
    this.hooks.onSelect?.(i);
  }

  /** A new pile: nothing held, and nothing said about it. */
  reset() {
    this.selected = -1;
    this.scene.select(-1);
  }

  /**
   * Take the pair (a, b): put down what is held, and send it, after it
   * has flown off when the board does not wait for the server.
   * @param {number} a
   * @param {number} b
   */
  take(a, b) {
    this.selected = -1;
    this.scene.select(-1);
    if (this.hooks.leaveAtOnce) {
      const standing = this.hooks.pile().standing;
      standing[a] = standing[b] = false;
      this.scene.fly(a, b, true);
      this.hooks.sound?.("match");
      this.scene.followPile(standing);
      this.hooks.say("");
    }
    this.hooks.take(a, b);
  }

  /** The board goes (a deal of another mode, leaving): its GPU memory and
   * listeners go with it. */
  dispose() {
    this.scene.dispose();
  }
}
