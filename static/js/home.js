// The home page: opening a layout asks first whether to play today's deal
// on it or a new one. Without scripts the card's link is a new deal.

const dialog = document.getElementById("choose-deal");

document.querySelector(".layouts").addEventListener("click", (e) => {
  const card = e.target.closest("a[data-daily]");
  if (!card || e.ctrlKey || e.metaKey || e.shiftKey) return; // a new tab: as linked
  e.preventDefault();
  document.getElementById("choose-deal-title").textContent = card.querySelector(".name").textContent;
  document.getElementById("choose-daily").href = card.dataset.daily;
  document.getElementById("choose-new").href = card.href;
  dialog.showModal();
});
dialog.querySelector("[data-action=close]").addEventListener("click", () => dialog.close());
