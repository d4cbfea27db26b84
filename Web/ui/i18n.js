// The page's strings: a small JSON catalog per language (Web/i18n/), chosen from the browser's.
let catalog = {};
let fallback = {};

/** Loads the catalog of the first preferred language lifelog has (English otherwise). */
export async function loadStrings(languages = navigator.languages ?? [navigator.language]) {
  const load = async (code) => (await fetch(`/i18n/${code}.json`)).json();
  fallback = await load('en');
  const wanted = languages.map((language) => String(language).slice(0, 2).toLowerCase()).find((code) => code === 'pl' || code === 'en');
  catalog = wanted && wanted !== 'en' ? await load(wanted) : fallback;
  document.documentElement.lang = wanted ?? 'en';
}

/** The string `key` with `{name}` placeholders filled in. */
export function t(key, values = {}) {
  const template = catalog[key] ?? fallback[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
}
