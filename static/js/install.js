// Registers the service worker (static/js/service-worker.js) that keeps the
// hashed static files, so the site installed to a home screen opens fast.
// Its address and the static prefix come from this script's data attributes.
// A block, not the top level: this classic script leaves no globals.
{
  const script = document.currentScript;
  if (script && "serviceWorker" in navigator) {
    const worker = `${script.dataset.worker}?static=${encodeURIComponent(script.dataset.static)}`;
    navigator.serviceWorker.register(worker).catch((error) => console.warn("service worker:", error));
  }
}
