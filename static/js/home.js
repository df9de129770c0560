// The home page: opening a layout asks first whether to play today's deal
// on it or a new one. Without scripts the card's link is a new deal.

const dialog = /** @type {HTMLDialogElement} */ (document.getElementById("choose-deal"));
/** @param {string} id */
const link = (id) => /** @type {HTMLAnchorElement} */ (document.getElementById(id));

document.querySelector(".layouts").addEventListener("click", (/** @type {MouseEvent} */ e) => {
  const card = /** @type {HTMLAnchorElement | null} */ (/** @type {Element} */ (e.target).closest("a[data-daily]"));
  if (!card || e.ctrlKey || e.metaKey || e.shiftKey) return; // a new tab: as linked
  e.preventDefault();
  document.getElementById("choose-deal-title").textContent = card.querySelector(".name").textContent;
  link("choose-daily").href = card.dataset.daily;
  link("choose-new").href = card.href;
  dialog.showModal();
});
dialog.querySelector("[data-action=close]").addEventListener("click", () => dialog.close());
