// A cleared pile's reward on the result screen: a burst of small tiles
// thrown up behind the heading, falling away in a second and a half.
// Calm (prefers-reduced-motion), the tiles stand still round the heading
// and fade in: the same picture, nothing moves.

const PIECES = 18;
const COLOURS = ["#e0b34a", "#f4ecd6", "#5fb98a", "#d9487a", "#4f8fd8"];

export function celebrate(box, calm) {
  box.replaceChildren();
  box.hidden = false;
  box.classList.toggle("calm", calm);
  for (let k = 0; k < PIECES; k++) {
    const piece = document.createElement("span");
    piece.className = "piece";
    // Spread evenly round a half circle, with a little of each piece's own.
    const angle = Math.PI * (0.08 + (0.84 * k) / (PIECES - 1));
    const reach = 70 + ((k * 37) % 5) * 18;
    piece.style.setProperty("--dx", `${Math.round(-Math.cos(angle) * reach * 1.6)}px`);
    piece.style.setProperty("--dy", `${Math.round(-Math.sin(angle) * reach)}px`);
    piece.style.setProperty("--turn", `${((k * 53) % 7) * 40 - 120}deg`);
    piece.style.setProperty("--delay", `${(k % 6) * 30}ms`);
    piece.style.background = COLOURS[k % COLOURS.length];
    box.append(piece);
  }
}
