// The page's language for scripts. Django's JavaScript catalog (a static
// file per language, sitewide/js_catalog.py, loaded by base.html before any
// module) defines `django.gettext` and friends with this page's
// translations; where it is absent (node's tests) every string stays as
// written. makemessages finds the strings by the names exported here
// (gettext, ngettext, pgettext).

const catalog = globalThis.django;

export function gettext(text) {
  return catalog ? catalog.gettext(text) : text;
}

export function ngettext(one, many, n) {
  return catalog ? catalog.ngettext(one, many, n) : n === 1 ? one : many;
}

export function pgettext(context, text) {
  return catalog ? catalog.pgettext(context, text) : text;
}

/** `text` with each %(name)s replaced by values[name]. */
export function fill(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
}

// The ten digits as this page's language writes them (the same catalogue
// string the server uses: sitewide/numerals.py).
const WESTERN = "0123456789";
const LOCAL = pgettext("digits", "0123456789");
export const DIGITS = LOCAL.length === 10 ? LOCAL : WESTERN;

/** A number (or any text) with its Western digits in the page's own. */
export function digits(value) {
  const text = String(value);
  if (DIGITS === WESTERN) return text;
  return text.replace(/[0-9]/g, (d) => DIGITS[Number(d)]);
}

// The built-in layouts' names in this page's language, written into the
// page by the server ({% layout_names %}, a JSON block the CSP allows): the
// names live in the server's catalogue, and the room state names layouts in
// English.
let layoutNames = null;

/** A layout's name as this page says it (a staff-made layout keeps its own). */
export function layoutName(name) {
  if (layoutNames === null) {
    const block = globalThis.document?.getElementById("layout-names");
    layoutNames = block ? JSON.parse(block.textContent) : {};
  }
  return layoutNames[name] ?? name;
}
