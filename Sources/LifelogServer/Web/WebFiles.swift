// swift-format-ignore-file
// Written by scripts/web-embed.sh from Web/; do not edit (make lint checks it).

/// The files of the web app by path (docs/web.md).
enum WebFiles {
  static let files: [String: WebFile] = [
    "/app.css": WebFile(
      type: "text/css; charset=utf-8",
      text: ####"""
:root { --accent: #2f6f4f; --line: #8884; font-family: system-ui, sans-serif; }
body { margin: 0 auto; max-width: 40rem; padding: 0 0.75rem 2rem; line-height: 1.4; }
header { display: flex; align-items: center; justify-content: space-between; gap: 0.5rem; }
h1 { font-size: 1.3rem; margin: 0.6rem 0; color: var(--accent); }
h2 { font-size: 1.15rem; } h3 { font-size: 1rem; margin: 1rem 0 0.4rem; }
button, input { font: inherit; min-height: 2.75rem; }
button { border: 1px solid var(--accent); border-radius: 0.5rem; background: transparent; color: inherit; padding: 0 0.8rem; }
button[aria-pressed="true"], #meal-buttons button { background: var(--accent); color: #fff; }
button:focus-visible, input:focus-visible { outline: 3px solid #e9a23b; outline-offset: 2px; }
button:disabled { opacity: 0.5; }
.buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
#meal-buttons button { flex: 1 1 40%; font-size: 1.1rem; min-height: 3.2rem; }
.fields { display: grid; grid-template-columns: auto 1fr; gap: 0.5rem; align-items: center; margin-top: 0.75rem; }
.fields .buttons { grid-column: 1 / -1; }
nav { display: flex; gap: 0.4rem; margin: 0.4rem 0; }
nav button { flex: 1; }
#sync-status { font-size: 0.9rem; margin: 0.2rem 0; min-height: 1.2em; }
#next-due { font-size: 1.2rem; font-weight: 600; }
.entries { list-style: none; padding: 0; margin: 0; }
.entries li { border-bottom: 1px solid var(--line); padding: 0.4rem 0; display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
.entries .activity { font-weight: 600; }
.entries .note { flex: 1 1 100%; color: #777; }
.entries .note:empty { display: none; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (prefers-color-scheme: dark) { body { background: #111; color: #eee; } .entries .note { color: #aaa; } }

"""####),
    "/app.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// The page: a thin view on the sync core (docs/web.md). Today, history, activities; logging with
// one tap; the replica in IndexedDB; sync on open, on reconnect, every few minutes and on a button.
import { mealDue } from './core/due.js';
import { SyncClient, SyncFailure } from './core/client.js';
import { openEnvelope } from './core/envelope-loader.js';
import { pair } from './core/pairing.js';
import { LogIndex } from './core/log-index.js';
import { activities, addEntry, editEntry, entries } from './core/replica.js';
import { sync } from './core/sync.js';
import { isoTime, localISO, localOffset, parseTime } from './core/time.js';
import { loadStrings, t } from './ui/i18n.js';
import { clearState, loadState, saveState } from './ui/store.js';
import { clock, day, el, entryItem, span } from './ui/view.js';

const SYNC_EVERY_MS = 3 * 60_000;
const $ = (id) => document.getElementById(id);

let state = null;
/** The today view's index over `state` (rebuilt when rows arrive from a sync). */
let index = null;
let syncing = null;
let earlierMinutes = 0;
/** The last change, to undo: `{id, before}` (before: the entry's fields, or null for an add). */
let lastChange = null;
let view = 'today';
let message = '';

function translateStatic() {
  const labels = {
    'sync-button': 'sync', 'pair-title': 'pairTitle', 'today-title': 'today', 'log-title': 'logNow',
    'note-label': 'note', 'time-label': 'time', 'earlier-title': 'earlier', 'duration-label': 'duration',
    'quantity-label': 'quantity',
    'exercise-title': 'logExercise', 'entries-title': 'todayEntries', 'undo-button': 'undo',
    'history-title': 'history', 'activities-title': 'activities', 'pair-replace': 'pairReplace', 'pair-keep': 'pairKeep',
  };
  for (const [id, key] of Object.entries(labels)) $(id).textContent = t(key);
  for (const button of $('tabs').querySelectorAll('button')) button.textContent = t(button.dataset.view);
  const earlier = $('earlier').querySelectorAll('button');
  ['minus15', 'minus30', 'minus60'].forEach((key, index) => { earlier[index].textContent = t(key); });
}

async function persist() {
  await saveState(state);
}

// MARK: - Logging

/** The time a tap logs: the Time field, else now less the chosen "earlier". */
function chosenTime() {
  const now = Date.now();
  const field = $('time-field').value;
  if (/^\d{2}:\d{2}$/.test(field)) {
    const [hours, minutes] = field.split(':').map(Number);
    const at = new Date(now);
    at.setHours(hours, minutes, 0, 0);
    if (at.getTime() > now + 60_000) at.setDate(at.getDate() - 1);
    return isoTime(at.getTime(), localOffset(at.getTime()));
  }
  return localISO(now - earlierMinutes * 60_000);
}

async function log(activity) {
  const note = $('note-field').value.trim();
  const minutes = Number($('duration-field').value);
  const duration = activity.kind === 'exercise' && minutes > 0 ? Math.round(minutes * 60) : null;
  const id = addEntry(state, {
    activity: activity.name, at: chosenTime(), note: note || null, duration, quantity: exerciseQuantity(activity),
  }, Date.now());
  index.entryChanged(id);
  await persist();
  lastChange = { id, before: null };
  message = t('logged', { activity: activity.name, time: clock(state.rows.entry[id].values[1]) });
  $('note-field').value = '';
  $('time-field').value = '';
  $('duration-field').value = '';
  $('quantity-field').value = '';
  setEarlier(0);
  render();
  scheduleSync(2000);
}

/**
 * The Quantity field for an exercise (in its activity's unit, as `lifelog add --quantity`): a
 * number from 0 to 1,000,000,000 (`EntryFields.maximumQuantity`), else none.
 */
function exerciseQuantity(activity) {
  const text = $('quantity-field').value.trim();
  const value = Number(text);
  if (activity.kind !== 'exercise' || text === '' || !Number.isFinite(value)) return null;
  return value >= 0 && value <= 1_000_000_000 ? value : null;
}

function setEarlier(minutes) {
  earlierMinutes = earlierMinutes === minutes ? 0 : minutes;
  for (const button of $('earlier').querySelectorAll('button')) {
    button.setAttribute('aria-pressed', String(Number(button.dataset.minutes) === earlierMinutes));
  }
}

async function change(entry, fields) {
  const row = state.rows.entry[entry.id];
  lastChange = { id: entry.id, before: { note: row.values[3], at: row.values[1], deleted: row.values[7] } };
  editEntry(state, entry.id, fields, Date.now());
  index.entryChanged(entry.id);
  await persist();
  render();
  scheduleSync(2000);
}

async function undo() {
  if (!lastChange) return;
  const { id, before } = lastChange;
  lastChange = null;
  editEntry(state, id, before ?? { deleted: true }, Date.now());
  index.entryChanged(id);
  await persist();
  message = t('undone');
  render();
  scheduleSync(2000);
}

function editForm(entry, item) {
  const note = el('input', { type: 'text', value: entry.note ?? '', 'aria-label': t('newNote') });
  const time = el('input', { type: 'time', value: clock(entry.at), 'aria-label': t('newTime') });
  const save = el('button', { type: 'button', text: t('save') });
  const cancel = el('button', { type: 'button', text: t('cancel') });
  save.addEventListener('click', () => {
    const fields = { note: note.value.trim() || null };
    const parsed = parseTime(entry.at);
    if (parsed && /^\d{2}:\d{2}$/.test(time.value) && time.value !== clock(entry.at)) {
      const [hours, minutes] = time.value.split(':').map(Number);
      const local = new Date(parsed.ms + parsed.offset * 60_000);
      local.setUTCHours(hours, minutes, 0, 0);
      fields.at = isoTime(local.getTime() - parsed.offset * 60_000, parsed.offset);
    }
    change(entry, fields);
  });
  cancel.addEventListener('click', render);
  item.replaceChildren(el('span', { class: 'activity', text: entry.activity }), time, note, save, cancel);
  note.focus();
}

// MARK: - Rendering

function renderStatus() {
  const waiting = state.pending.length + state.outbox.length;
  const parts = [waiting ? t('pending', { count: waiting }) : t('pendingNone')];
  parts.push(state.lastSync ? t('lastSync', { time: clock(localISO(state.lastSync)) }) : t('neverSynced'));
  if (!navigator.onLine) parts.push(t('offline'));
  if (state.lastError) parts.push(t('syncFailed', { message: state.lastError }));
  if (message) parts.unshift(message);
  $('sync-status').textContent = parts.join(' · ');
  $('sync-button').textContent = syncing ? t('syncing') : t('sync');
}

function renderDue() {
  const due = mealDue(state, Date.now(), { lastMeal: (_, now) => index.lastMealBefore(now) });
  if (!due.lastMeal) {
    $('last-meal').textContent = t('noMeal');
    $('next-due').textContent = '';
    return;
  }
  $('last-meal').textContent = t('lastMeal', {
    activity: due.lastMeal.activity, time: clock(due.lastMeal.at), ago: span(due.sinceMinutes * 60),
  });
  const when = clock(localISO(due.dueAt));
  const left = due.secondsUntilDue > 0 ? t('dueIn', { left: span(due.secondsUntilDue) }) : t('overdue', { left: span(-due.secondsUntilDue) });
  $('next-due').textContent = `${t('nextDue', { time: when })} (${left})`;
}

/** Activities of a kind, most used first (then by name). */
function activitiesByUse(kind, uses) {
  return activities(state).filter((a) => a.kind === kind && !a.archived)
    .sort((a, b) => (uses.get(b.id) ?? 0) - (uses.get(a.id) ?? 0) || a.name.localeCompare(b.name));
}

function renderToday() {
  renderDue();
  const { uses } = index;
  const buttons = (kind) => activitiesByUse(kind, uses).map((activity) => {
    const button = el('button', { type: 'button', text: activity.name });
    button.addEventListener('click', () => log(activity));
    return button;
  });
  $('meal-buttons').replaceChildren(...buttons('meal'));
  $('exercise-buttons').replaceChildren(...buttons('exercise'));
  const today = localISO(Date.now()).slice(0, 10);
  const list = index.entriesOn(today).reverse();
  $('today-list').replaceChildren(...(list.length ? list.map((entry) => entryItem(entry, {
    onEdit: editForm, onDelete: (e) => change(e, { deleted: true }),
  })) : [el('li', { text: t('noEntries') })]));
  $('undo-button').disabled = !lastChange;
}

function renderHistory() {
  const byDay = new Map();
  for (const entry of entries(state).reverse()) {
    const key = day(entry.at);
    if (!byDay.has(key)) byDay.set(key, []);
    byDay.get(key).push(entry);
  }
  const sections = [...byDay.entries()].slice(0, 60).map(([key, list]) => el('section', {},
    el('h3', { text: `${key} · ${t('entriesCount', { count: list.length })}` }),
    el('ul', { class: 'entries' }, ...list.map((entry) => entryItem(entry)))));
  $('history-days').replaceChildren(...sections);
}

function renderActivities() {
  $('activity-list').replaceChildren(...activities(state).sort((a, b) => a.name.localeCompare(b.name)).map((a) =>
    el('li', { text: `${a.name} — ${t(`kind.${a.kind}`)}${a.archived ? ` (${t('archived')})` : ''}` })));
}

function render() {
  for (const name of ['today', 'history', 'activities']) $(`${name}-view`).hidden = name !== view;
  for (const button of $('tabs').querySelectorAll('button')) button.setAttribute('aria-pressed', String(button.dataset.view === view));
  if (view === 'today') renderToday();
  if (view === 'history') renderHistory();
  if (view === 'activities') renderActivities();
  renderStatus();
}

// MARK: - Sync

let timer = null;
function scheduleSync(delay) {
  clearTimeout(timer);
  timer = setTimeout(() => runSync(), delay);
}

async function runSync() {
  if (syncing || !state) return syncing;
  syncing = (async () => {
    renderStatus();
    try {
      const { merged } = await sync(state, new SyncClient(state.server, state.token), {
        makeEnvelope: (remoteId) => openEnvelope(state, remoteId), save: saveState,
      });
      if (merged > 0) index.rebuild();
      message = '';
    } catch (error) {
      if (error instanceof SyncFailure && error.status === 401) {
        await clearState();
        state = null;
        showPairing(t('revoked'));
        return;
      }
      state.lastError = error.message;
      await persist();
    } finally {
      syncing = null;
    }
    render();
  })();
  await syncing;
  scheduleSync(SYNC_EVERY_MS);
}

// MARK: - Start

function showPairing(text) {
  $('pair-view').hidden = false;
  $('tabs').hidden = true;
  $('sync-button').hidden = true;
  for (const name of ['today', 'history', 'activities']) $(`${name}-view`).hidden = true;
  $('pair-message').textContent = text;
}

function showApp() {
  $('pair-view').hidden = true;
  $('tabs').hidden = false;
  $('sync-button').hidden = false;
  render();
}

/**
 * Asks whether to replace this browser's pairing with a link's: a link from someone else's account
 * must not take over silently. While changes wait to sync it only says so (they would be lost).
 * Resolves true to replace.
 */
function replacePairing(current) {
  const waiting = current.pending.length + current.outbox.length;
  const where = { server: current.server, name: current.name };
  showPairing(waiting > 0 ? t('pairWaiting', { ...where, count: waiting }) : t('pairReplaceAsk', where));
  $('pair-replace').hidden = waiting > 0;
  $('pair-choice').hidden = false;
  return new Promise((resolve) => {
    const choose = (replace) => () => {
      $('pair-choice').hidden = true;
      resolve(replace);
    };
    $('pair-replace').onclick = choose(true);
    $('pair-keep').onclick = choose(false);
  });
}

/** Pairs from `link` (after asking, when this browser is paired already). */
async function pairFromLink(link) {
  // The code (and key) leave the address bar and this history entry at once.
  history.replaceState(null, '', '/');
  if (state && !(await replacePairing(state))) {
    message = t('pairKept', { name: state.name });
    return;
  }
  showPairing(t('pairing'));
  try {
    const paired = await pair(link);
    if (state) await clearState();
    await saveState(paired);
    state = paired;
    message = t('paired', { name: state.name });
  } catch (error) {
    if (!state) showPairing(t('pairFailed', { message: error.message }));
    else message = t('pairFailed', { message: error.message });
  }
}

async function start() {
  // Marks for Web/test/measure.py (docs/benchmarks.md, "The web app"): where a warm open goes.
  performance.mark('lifelog-start');
  await loadStrings();
  performance.mark('lifelog-strings');
  translateStatic();
  $('sync-button').addEventListener('click', () => runSync());
  $('undo-button').addEventListener('click', undo);
  for (const button of $('earlier').querySelectorAll('button')) {
    button.addEventListener('click', () => { setEarlier(Number(button.dataset.minutes)); });
  }
  for (const button of $('tabs').querySelectorAll('button')) {
    button.addEventListener('click', () => { view = button.dataset.view; render(); });
  }
  window.addEventListener('online', () => { renderStatus(); runSync(); });
  window.addEventListener('offline', renderStatus);
  document.addEventListener('visibilitychange', () => { if (!document.hidden && state) runSync(); });
  setInterval(() => { if (index && view === 'today' && !$('today-view').hidden) renderDue(); }, 1000);
  window.addEventListener('hashchange', async () => {
    if (!location.hash.startsWith('#pair=')) return;
    await pairFromLink(location.href);
    if (state) {
      index = new LogIndex(state);
      showApp();
      runSync();
    }
  });
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});

  const link = location.hash.startsWith('#pair=') ? location.href : null;
  state = (await loadState()) ?? null;
  performance.mark('lifelog-state');
  if (link) await pairFromLink(link);
  if (!state) {
    if (!link) showPairing(t('pairHelp'));
    return;
  }
  index = new LogIndex(state);
  performance.mark('lifelog-index');
  showApp();
  performance.mark('lifelog-drawn');
  runSync();
}

start();

"""####),
    "/core/activity.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// Activity names and ids (docs/sync-protocol.md §1).
import { sha256, utf8, uuidText } from './bytes.js';

/** The form names are compared in: runs of spaces and tabs as one space, lower-cased. */
export function activityKey(name) {
  return name.split(/[ \t]+/).filter((part) => part !== '').join(' ').toLowerCase();
}

/** The id an activity created under `name` gets (`attempt` > 0: the fallbacks). */
export async function derivedActivityID(name, attempt = 0) {
  const seed = `lifelog-activity:${activityKey(name)}${attempt === 0 ? '' : `#${attempt}`}`;
  const bytes = (await sha256(utf8(seed))).slice(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x80;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return uuidText(bytes);
}

/** The activities every log has, with the empty stamp. */
export const DEFAULT_ACTIVITIES = [
  ['breakfast', 'meal'], ['lunch', 'meal'], ['dinner', 'meal'], ['snack', 'meal'],
  ['walk', 'exercise'], ['run', 'exercise'], ['workout', 'exercise'], ['sleep', 'sleep'],
];

export const KINDS = ['meal', 'exercise', 'sleep', 'medication', 'other'];

"""####),
    "/core/bytes.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// Bytes, text and SHA-256 for the sync core: the same in a browser and in Node 20 (WebCrypto).

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 bytes of a string. */
export function utf8(text) {
  return encoder.encode(text);
}

/** The string of UTF-8 bytes; throws on malformed UTF-8. */
export function text(bytes) {
  return decoder.decode(bytes);
}

/** Lower-case hex of bytes. */
export function hex(bytes) {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** Bytes of an even-length hex string; throws on anything else. */
export function fromHex(textValue) {
  if (typeof textValue !== 'string' || textValue.length % 2 !== 0 || /[^0-9a-fA-F]/.test(textValue)) {
    throw new Error('not hex');
  }
  const out = new Uint8Array(textValue.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(textValue.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** One array of several. */
export function concat(parts) {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** SHA-256 of bytes as 64 lower-case hex digits. */
export async function sha256Hex(bytes) {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return hex(new Uint8Array(digest));
}

/** SHA-256 of bytes. */
export async function sha256(bytes) {
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
}

/** `count` random bytes from the platform's secure generator. */
export function randomBytes(count) {
  const out = new Uint8Array(count);
  globalThis.crypto.getRandomValues(out);
  return out;
}

/** A random lower-case UUIDv4. */
export function randomUUID() {
  const b = randomBytes(16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  return uuidText(b);
}

/** 16 bytes as a lower-case UUID. */
export function uuidText(b) {
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

"""####),
    "/core/client.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// The HTTP API of `lifelog serve` (docs/http-api.md), over fetch: the same in the page and in Node.
import { text } from './bytes.js';
import { isDeviceID } from './codec.js';

/** A failure to talk to the server; `status` is the HTTP status when there was an answer. */
export class SyncFailure extends Error {
  constructor(message, status = 0, code = '') {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The largest page or snapshot accepted, as the CLI's client (1 GiB + 8 MiB). */
const LARGE_ANSWER = (1 << 30) + (8 << 20);

export class SyncClient {
  /** `server`: `https://host:port` (no trailing slash needed); `token`: a bearer token or ''. */
  constructor(server, token, fetcher = globalThis.fetch.bind(globalThis)) {
    this.server = server.replace(/\/+$/, '');
    this.token = token;
    this.fetch = fetcher;
  }

  async request(method, path, { body, json } = {}) {
    const headers = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    let payload = body;
    if (json !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = `${JSON.stringify(json)}\n`;
    }
    let response;
    try {
      response = await this.fetch(this.server + path, { method, headers, body: payload, redirect: 'error', cache: 'no-store' });
    } catch (error) {
      throw new SyncFailure(`The server could not be reached (${error.message})`);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > LARGE_ANSWER) throw new SyncFailure('The server answered more than any page can hold');
    return { status: response.status, headers: response.headers, bytes };
  }

  /** The JSON answer of a request, or a SyncFailure naming the server's error. */
  async json(method, path, options = {}, ok = [200, 201]) {
    const answer = await this.request(method, path, options);
    let parsed = null;
    try {
      parsed = JSON.parse(text(answer.bytes));
    } catch {
      parsed = null;
    }
    if (!ok.includes(answer.status)) throw failure(answer.status, parsed, `${method} ${path}`);
    if (parsed === null || typeof parsed !== 'object') {
      throw new SyncFailure(`The server's answer to ${method} ${path} is not JSON`, answer.status);
    }
    return parsed;
  }

  manifest() {
    return this.json('GET', '/v1/manifest');
  }

  /** Trades a one-time pairing code for this device's token. */
  redeem(code) {
    return this.json('POST', '/v1/pairings/redeem', { json: { code } }, [201]);
  }

  /** Pushes a batch's bytes; resolves when the server holds them (201 or 200). */
  async push(device, seq, bytes) {
    const answer = await this.request('PUT', `/v1/batches/${device}/${seq}`, { body: bytes });
    if (answer.status === 200 || answer.status === 201) return;
    throw failure(answer.status, parseJSON(answer.bytes), `PUT batch ${seq}`);
  }

  /** One page of `GET /v1/changes`: `{cursor, more, needsSnapshot, batches: [{device, seq, bytes}]}`. */
  async changes(after, exclude, rows = 5000) {
    const query = `after=${encodeURIComponent(after)}&exclude=${encodeURIComponent(exclude)}&rows=${rows}`;
    const answer = await this.request('GET', `/v1/changes?${query}`);
    if (answer.status !== 200) throw failure(answer.status, parseJSON(answer.bytes), 'GET /v1/changes');
    return parseChanges(answer.bytes);
  }

  /** The newest snapshot worth merging after `after`, or null: `{bytes, cursor}`. */
  async latestSnapshot(after, exclude) {
    const query = `after=${encodeURIComponent(after)}&exclude=${encodeURIComponent(exclude)}`;
    const answer = await this.request('GET', `/v1/snapshots/latest?${query}`);
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw failure(answer.status, parseJSON(answer.bytes), 'GET /v1/snapshots/latest');
    const cursor = answer.headers.get('Lifelog-Cursor') ?? '';
    if (!/^[A-Za-z0-9_-]*$/.test(cursor)) throw new SyncFailure("The server's snapshot cursor is not one");
    return { bytes: answer.bytes, cursor, name: answer.headers.get('Lifelog-Snapshot-Name') ?? '' };
  }

  /** The key envelope's bytes, or null on a plain remote. */
  async keys() {
    const answer = await this.request('GET', '/v1/keys');
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw failure(answer.status, parseJSON(answer.bytes), 'GET /v1/keys');
    return answer.bytes;
  }
}

function parseJSON(bytes) {
  try {
    return JSON.parse(text(bytes));
  } catch {
    return null;
  }
}

function failure(status, body, what) {
  const message = body?.error?.message ?? `the server answered ${status} to ${what}`;
  return new SyncFailure(message, status, body?.error?.code ?? '');
}

/** Reads a page of changes (docs/http-api.md): an index line, then each batch's bytes. */
export function parseChanges(bytes) {
  const end = bytes.indexOf(0x0a);
  if (end < 0) throw new SyncFailure('The page of changes has no index line');
  let index;
  try {
    index = JSON.parse(text(bytes.subarray(0, end)));
  } catch {
    throw new SyncFailure('The index of the page of changes is not JSON');
  }
  if (typeof index?.cursor !== 'string' || !/^[A-Za-z0-9_-]*$/.test(index.cursor) || !Array.isArray(index.batches)) {
    throw new SyncFailure('The index of the page of changes is not one lifelog writes');
  }
  let offset = end + 1;
  const batches = [];
  for (const item of index.batches) {
    if (!isDeviceID(item?.device) || !Number.isInteger(item.seq) || item.seq < 1
      || !Number.isInteger(item.size) || item.size < 0 || offset + item.size > bytes.length) {
      throw new SyncFailure('The page of changes lists a batch it does not hold');
    }
    batches.push({ device: item.device, seq: item.seq, bytes: bytes.subarray(offset, offset + item.size) });
    offset += item.size;
  }
  return { cursor: index.cursor, more: index.more === true, needsSnapshot: index.needsSnapshot === true, batches };
}


"""####),
    "/core/codec.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// Batches and snapshots (docs/sync-protocol.md §3): JSON Lines, a header, one line per row, and a
// trailer with the SHA-256 of everything before it. The same rules as Sources/LifelogProtocol's
// BatchCodec; both read the vectors in Tests/Fixtures/sync-vectors/.
import { concat, sha256Hex, text, utf8 } from './bytes.js';
import { isValidStamp } from './stamp.js';

export const FORMAT = 1;

/** The fields of each entity, in stamp order, with what each holds. */
export const FIELDS = {
  activity: [['name', 'text'], ['kind', 'text'], ['unit', 'optionalText'], ['target', 'optionalText'],
    ['archived', 'flag'], ['deleted', 'flag']],
  entry: [['activity', 'text'], ['at', 'time'], ['duration', 'optionalInteger'], ['note', 'optionalText'],
    ['quantity', 'optionalReal'], ['tags', 'tags'], ['source', 'optionalText'], ['deleted', 'flag']],
  setting: [['value', 'text']],
};

/** The error a file that cannot be read throws: it is held back, never half-applied. */
export class BatchError extends Error {}

/** Whether `name` is a device id: 1-128 ASCII letters, digits and '-'. */
export function isDeviceID(name) {
  return typeof name === 'string' && /^[A-Za-z0-9-]{1,128}$/.test(name);
}

/**
 * The bytes of a batch or snapshot:
 * `{kind, device, seq, created, covers?, changes: [{entity, id, values, stamps}]}`.
 */
export async function encodeBatch(batch) {
  const header = { lifelog: batch.kind ?? 'batch', format: FORMAT, device: batch.device, seq: batch.seq,
    created: batch.created };
  if (header.lifelog === 'snapshot') header.covers = sortedObject(batch.covers ?? {});
  const lines = [JSON.stringify(header)];
  for (const change of batch.changes) lines.push(rowLine(change));
  const body = utf8(`${lines.join('\n')}\n`);
  const trailer = { end: true, changes: batch.changes.length, sha256: await sha256Hex(body) };
  return concat([body, utf8(`${JSON.stringify(trailer)}\n`)]);
}

function sortedObject(object) {
  const out = {};
  for (const key of Object.keys(object).sort()) out[key] = object[key];
  return out;
}

function rowLine(change) {
  const fields = {};
  FIELDS[change.entity].forEach(([name], index) => {
    fields[name] = [change.values[index], change.stamps[index]];
  });
  return JSON.stringify({ entity: change.entity, id: change.id, fields });
}

/** Decodes and verifies a batch or snapshot; throws BatchError when it cannot be used. */
export async function decodeBatch(bytes) {
  const { header, rowLines, count } = await frame(bytes);
  const changes = rowLines.map((line) => change(parseLine(line, 'row')));
  if (changes.length !== count) throw new BatchError(`the trailer counts ${count} rows but there are ${changes.length}`);
  return { ...header, changes };
}

/** Reads the header line alone, without verifying the rest. */
export function decodeHeader(bytes) {
  const end = bytes.indexOf(0x0a);
  if (end < 0) throw new BatchError('truncated: no header line');
  return header(parseLine(bytes.subarray(0, end), 'header'));
}

async function frame(bytes) {
  if (bytes.length === 0 || bytes[bytes.length - 1] !== 0x0a) {
    throw new BatchError('truncated: it does not end with a complete line');
  }
  const body = bytes.subarray(0, bytes.length - 1);
  const lastBreak = body.lastIndexOf(0x0a);
  if (lastBreak < 0) throw new BatchError('truncated: no trailer line');
  const trailerStart = lastBreak + 1;
  const trailer = parseLine(bytes.subarray(trailerStart, body.length), 'trailer');
  if (trailer === null || typeof trailer !== 'object' || trailer.end !== true
    || typeof trailer.sha256 !== 'string' || !Number.isInteger(trailer.changes)) {
    throw new BatchError('truncated: no trailer line');
  }
  if (await sha256Hex(bytes.subarray(0, trailerStart)) !== trailer.sha256) {
    throw new BatchError('its checksum does not match its contents');
  }
  const lines = [];
  let start = 0;
  for (let i = 0; i < trailerStart; i += 1) {
    if (bytes[i] === 0x0a) {
      if (i > start) lines.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  if (lines.length === 0) throw new BatchError('no header line');
  return { header: header(parseLine(lines[0], 'header')), rowLines: lines.slice(1), count: trailer.changes };
}

function parseLine(line, what) {
  try {
    return JSON.parse(text(line));
  } catch (error) {
    throw new BatchError(`its ${what} is not valid JSON`);
  }
}

function header(json) {
  if (json === null || typeof json !== 'object' || (json.lifelog !== 'batch' && json.lifelog !== 'snapshot')) {
    throw new BatchError('it is not a lifelog batch');
  }
  if (!Number.isInteger(json.format)) throw new BatchError('its header has no format');
  if (json.format > FORMAT) throw new BatchError(`it is in format ${json.format}, newer than this app reads`);
  if (typeof json.device !== 'string' || !Number.isInteger(json.seq) || !Number.isInteger(json.created)) {
    throw new BatchError('its header lacks device, seq or created');
  }
  if (!isDeviceID(json.device)) throw new BatchError('its header names a device id that is not one');
  const covers = {};
  if (json.lifelog === 'snapshot') {
    if (json.covers === null || typeof json.covers !== 'object' || Array.isArray(json.covers)) {
      throw new BatchError("its header's covers: a version vector must be a JSON object");
    }
    for (const [device, seq] of Object.entries(json.covers)) {
      if (!Number.isInteger(seq) || seq < 0 || seq > 2147483647) {
        throw new BatchError("its header's covers: a version vector holds whole seqs from 0 to 2147483647");
      }
      if (!isDeviceID(device)) throw new BatchError("its header's covers name a device id that is not one");
      covers[device] = seq;
    }
  }
  return { kind: json.lifelog, device: json.device, seq: json.seq, created: json.created, covers };
}

function change(json) {
  const fields = json?.fields;
  const types = FIELDS[json?.entity];
  if (!types || typeof json.id !== 'string' || json.id === '' || fields === null || typeof fields !== 'object') {
    throw new BatchError('a row lacks its entity, id or fields');
  }
  const values = [];
  const stamps = [];
  for (const [name, type] of types) {
    const pair = fields[name];
    const ok = Array.isArray(pair) && pair.length === 2 && typeof pair[1] === 'string'
      && (pair[1] === '' || isValidStamp(pair[1]));
    const value = ok ? readValue(pair[0], type) : undefined;
    if (value === undefined) throw new BatchError(`row ${json.id} has a missing or malformed '${name}'`);
    values.push(value);
    stamps.push(pair[1]);
  }
  return checked({ entity: json.entity, id: json.id, values, stamps });
}

function readValue(value, type) {
  switch (type) {
    case 'text': return typeof value === 'string' ? value : undefined;
    case 'optionalText': return value === null || typeof value === 'string' ? value : undefined;
    case 'optionalInteger':
      if (value === null) return null;
      if (typeof value !== 'number') return undefined;
      return Number.isInteger(value) && Math.abs(value) <= 9e15 ? value : null;
    case 'optionalReal':
      if (value === null) return null;
      return typeof value === 'number' ? value : undefined;
    case 'flag': return typeof value === 'boolean' ? value : undefined;
    case 'time': return typeof value === 'string' && isLoggedTime(value) ? value : undefined;
    case 'tags':
      return Array.isArray(value) && value.every((tag) => typeof tag === 'string') ? value : undefined;
    default: return undefined;
  }
}

/** Whether `value` is an ISO 8601 time with a UTC offset, as entries carry it. */
export function isLoggedTime(value) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.exec(value);
  if (!match) return false;
  const [, , month, day, hour, minute, second] = match.map(Number);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59
    && (Number.isNaN(second) || second <= 59);
}

const MAX_DURATION = 2_678_400;
const MAX_QUANTITY = 1_000_000_000;

/** Whether a tag keeps the tag rule: 1-64 characters, no spaces, tabs, line breaks, commas or semicolons. */
export function isValidTag(tag) {
  return [...tag].length >= 1 && [...tag].length <= 64 && !/[ \t\r\n,;]/.test(tag);
}

/** Entry values out of range taken as absent (docs/sync-protocol.md §3, "Values out of range"). */
function checked(row) {
  if (row.entity !== 'entry') return row;
  const values = [...row.values];
  if (values[2] !== null && (values[2] < 0 || values[2] > MAX_DURATION)) values[2] = null;
  if (values[4] !== null && !(values[4] >= 0 && values[4] <= MAX_QUANTITY)) values[4] = null;
  values[5] = values[5].filter(isValidTag);
  return { ...row, values };
}

"""####),
    "/core/due.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// When the next meal is due: the rule and numbers of `lifelog due` (Sources/LifelogCore/Rhythm/
// MealDue.swift). A meal is due `mealGapHours` after the last one; before the report day's first
// meal, `mealGapHours` after the day began or after the last meal, whichever is later. Days begin at
// `dayStartsAt` on the wall clock; gaps are real elapsed time.
import { parseTime } from './time.js';

/** `{mealGapHours, dayStartsAtMinutes}` from the synced settings, defaults for anything unusable. */
export function dueSettings(state) {
  const gapText = state.rows.setting.mealGapHours?.values[0];
  const gap = Number(gapText);
  const mealGapHours = gapText !== undefined && Number.isFinite(gap) && gap >= 0.5 && gap <= 24 ? gap : 3;
  let dayStartsAtMinutes = 240;
  const match = /^(\d{1,2}):(\d{2})$/.exec(state.rows.setting.dayStartsAt?.values[0] ?? '');
  if (match && Number(match[1]) < 24 && Number(match[2]) < 60) dayStartsAtMinutes = Number(match[1]) * 60 + Number(match[2]);
  return { mealGapHours, dayStartsAtMinutes };
}

/** The report day (days since 1970) of an instant seen at `offsetMinutes`. */
function dayNumber(ms, offsetMinutes, dayStartsAtMinutes) {
  return Math.floor((ms / 1000 + offsetMinutes * 60 - dayStartsAtMinutes * 60) / 86400);
}

/**
 * The latest meal (not deleted) logged at or before `nowMs`, as `{id, at, ms, offset, activity,
 * note}`, or null: by time, then by id. Scans every entry; a page keeps a `LogIndex` instead.
 */
export function lastMealBefore(state, nowMs) {
  let last = null;
  for (const id of Object.keys(state.rows.entry)) {
    const candidate = mealAt(state, id);
    if (!candidate || candidate.ms > nowMs) continue;
    if (!last || candidate.ms > last.ms || (candidate.ms === last.ms && id > last.id)) last = candidate;
  }
  return last;
}

/** The entry `id` as a meal `{id, at, ms, offset, activity, note}`; null when it is no meal. */
export function mealAt(state, id) {
  const [activityID, at, , note, , , , deleted] = state.rows.entry[id].values;
  const activity = state.rows.activity[activityID];
  if (deleted || activity?.values[1] !== 'meal') return null;
  const time = parseTime(at);
  if (!time) return null;
  return { id, at, ms: time.ms, offset: time.offset, activity: activity.values[0], note };
}

/**
 * `{lastMeal, sinceMinutes, dueAt, overdueMinutes, secondsUntilDue, mealGapHours}` at `nowMs` for a
 * reader whose zone gives `offsetAt(ms)` (minutes east of UTC) and starts day `day` at
 * `dayStart(day)`; `lastMeal(state, nowMs)` finds the last meal (`lastMealBefore`, or an index's).
 */
export function mealDue(state, nowMs, {
  offsetAt = (ms) => -new Date(ms).getTimezoneOffset(), dayStart, lastMeal = lastMealBefore,
} = {}) {
  const settings = dueSettings(state);
  const gapSeconds = Math.round(settings.mealGapHours * 3600);
  const last = lastMeal(state, nowMs);
  const today = dayNumber(nowMs, offsetAt(nowMs), settings.dayStartsAtMinutes);
  const startOf = dayStart ?? ((day) => {
    const date = new Date(day * 86400000);
    const minutes = settings.dayStartsAtMinutes;
    return new Date(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), Math.floor(minutes / 60), minutes % 60).getTime();
  });
  const result = { lastMeal: null, sinceMinutes: null, dueAt: null, overdueMinutes: 0, secondsUntilDue: null,
    mealGapHours: settings.mealGapHours };
  if (!last) return result;
  const nowSeconds = Math.floor(nowMs / 1000);
  const lastSeconds = Math.floor(last.ms / 1000);
  const firstOfDay = dayNumber(last.ms, last.offset, settings.dayStartsAtMinutes) < today;
  const afterLast = lastSeconds + gapSeconds;
  const dueAt = firstOfDay ? Math.max(afterLast, Math.floor(startOf(today) / 1000) + gapSeconds) : afterLast;
  result.lastMeal = { id: last.id, at: last.at, activity: last.activity, note: last.note };
  result.sinceMinutes = Math.trunc((nowSeconds - lastSeconds) / 60);
  result.dueAt = dueAt * 1000;
  result.overdueMinutes = nowSeconds > dueAt ? Math.trunc((nowSeconds - dueAt) / 60) : 0;
  result.secondsUntilDue = dueAt - nowSeconds;
  return result;
}

"""####),
    "/core/envelope-loader.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// The envelope of an encrypted remote: libsodium's WebAssembly module, loaded once, from the
// server in a browser (`/sodium.wasm`) or from `.build/wasm` under Node (LIFELOG_SODIUM_WASM).
import { fromHex } from './bytes.js';
import { BatchEnvelope } from './envelope.js';
import { loadSodium } from './sodium.js';

let sodium = null;

async function moduleBytes() {
  if (typeof process !== 'undefined' && process.versions?.node) {
    const { readFile } = await import('node:fs/promises');
    const path = process.env.LIFELOG_SODIUM_WASM ?? new URL('../../.build/wasm/sodium.wasm', import.meta.url);
    return readFile(path);
  }
  const response = await fetch('/sodium.wasm');
  if (!response.ok) throw new Error('this server has no encryption module (lifelog was built without it)');
  return response.arrayBuffer();
}

/** libsodium, loaded on first use. */
export async function sodiumModule() {
  sodium ??= await loadSodium(await moduleBytes());
  return sodium;
}

/** The envelope for `state`'s data key on the remote `remoteId`. */
export async function openEnvelope(state, remoteId) {
  return new BatchEnvelope(await sodiumModule(), remoteId, fromHex(state.dataKey));
}

"""####),
    "/core/envelope.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// Sealed batches and snapshots of an encrypted remote (docs/sync-protocol.md §7), byte for byte
// as Sources/LifelogSync/Encryption/BatchEnvelope.swift writes and reads them: a plaintext header
// line, the nonce, the XChaCha20-Poly1305 (IETF) ciphertext and tag of the plain file, a newline
// and a trailer repeating the nonce. Associated data: `lifelog-sealed\n<remoteId>\n` and the header
// line. The nonce is a BLAKE2b of the associated data and the plain file, keyed with a key derived
// from the data key, so sealing is deterministic.
import { concat, fromHex, hex, text, utf8 } from './bytes.js';
import { BatchError, decodeBatch, decodeHeader } from './codec.js';
import { KEY_BYTES, NONCE_BYTES } from './sodium.js';

export const CIPHER = 'xchacha20poly1305-ietf';

/** The sealing of one encrypted remote: `remoteId`, its 32-byte data key and libsodium. */
export class BatchEnvelope {
  constructor(sodium, remoteId, dataKey) {
    if (dataKey.length !== KEY_BYTES) throw new Error('the data key is not 32 bytes long');
    this.sodium = sodium;
    this.remoteId = remoteId;
    this.key = dataKey;
    this.nonceKey = sodium.hash(utf8('lifelog-nonce-key'), new Uint8Array(0), dataKey, KEY_BYTES);
  }

  associated(headerLine) {
    return concat([utf8(`lifelog-sealed\n${this.remoteId}\n`), headerLine]);
  }

  /** The sealed bytes of a plain batch (`name`: `{device, seq}`) or snapshot (`{snapshot: NAME}`). */
  seal(plain, name) {
    const header = decodeHeader(plain);
    const body = plain.subarray(0, plain.length - 1);
    const trailer = JSON.parse(text(plain.subarray(body.lastIndexOf(0x0a) + 1, body.length)));
    const line = { lifelog: header.kind, format: 1, sealed: CIPHER, device: header.device, seq: header.seq,
      created: header.created };
    if (name.snapshot) {
      line.name = name.snapshot;
      line.covers = Object.fromEntries(Object.keys(header.covers).sort().map((key) => [key, header.covers[key]]));
    }
    line.changes = trailer.changes ?? 0;
    const headerLine = utf8(`${JSON.stringify(line)}\n`);
    const associated = this.associated(headerLine);
    const nonce = this.sodium.hash(associated, plain, this.nonceKey, NONCE_BYTES);
    const sealed = this.sodium.seal(plain, associated, nonce, this.key);
    return concat([headerLine, nonce, sealed, utf8(`\n${JSON.stringify({ end: true, nonce: hex(nonce) })}\n`)]);
  }

  /**
   * The plain bytes of a sealed file stored under `name`; throws BatchError when it is not sealed,
   * names another file, or fails authentication.
   */
  open(bytes, name) {
    const end = bytes.indexOf(0x0a);
    let header;
    try {
      header = JSON.parse(text(bytes.subarray(0, end)));
    } catch {
      throw new BatchError('it is not sealed, and this remote is encrypted');
    }
    if (end < 0 || header?.sealed !== CIPHER) throw new BatchError('it is not sealed, and this remote is encrypted');
    const sameName = name.snapshot !== undefined
      ? header.lifelog === 'snapshot' && (name.snapshot === true || header.name === name.snapshot)
      : header.lifelog === 'batch' && header.device === name.device && header.seq === name.seq;
    if (!sameName) throw new BatchError('its sealed header names another file');
    const body = bytes.subarray(0, bytes.length - 1);
    const trailerStart = body.lastIndexOf(0x0a) + 1;
    let trailer;
    try {
      trailer = JSON.parse(text(bytes.subarray(trailerStart, body.length)));
    } catch {
      throw new BatchError('truncated: no trailer line');
    }
    if (bytes[bytes.length - 1] !== 0x0a || trailer?.end !== true || trailerStart - 1 <= end + 1) {
      throw new BatchError('truncated: no trailer line');
    }
    const sealed = bytes.subarray(end + 1, trailerStart - 1);
    const nonce = sealed.subarray(0, NONCE_BYTES);
    const plain = this.sodium.open(sealed.subarray(NONCE_BYTES), this.associated(bytes.subarray(0, end + 1)), nonce, this.key);
    if (!plain || hex(nonce) !== trailer.nonce) {
      throw new BatchError('it fails authentication (changed, or sealed for another name or remote)');
    }
    return { plain, header };
  }

  /** Whether this data key opens the key envelope's `check` (the remote id sealed under it). */
  checks(envelopeBytes) {
    const envelope = JSON.parse(text(envelopeBytes));
    const sealed = fromHex(envelope.check);
    const opened = this.sodium.open(sealed.subarray(NONCE_BYTES), utf8(`lifelog-keys\n${this.remoteId}\ncheck`),
      sealed.subarray(0, NONCE_BYTES), this.key);
    return opened !== null && text(opened) === this.remoteId;
  }
}

/** Opens and decodes a sealed file, checking the plain file against its sealed header. */
export async function openBatch(envelope, bytes, name) {
  const { plain, header } = envelope.open(bytes, name);
  const batch = await decodeBatch(plain);
  const covers = JSON.stringify(Object.entries(batch.covers).sort());
  const headerCovers = JSON.stringify(Object.entries(header.covers ?? {}).sort());
  if (batch.kind !== header.lifelog || batch.device !== header.device || batch.seq !== header.seq
    || batch.created !== header.created || batch.changes.length !== header.changes
    || (batch.kind === 'snapshot' && covers !== headerCovers)) {
    throw new BatchError('its sealed header does not describe its contents');
  }
  return batch;
}

"""####),
    "/core/log-index.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// What the page's today view asks of the log on every tap and every second — the day's entries,
// how often each activity was used, the last meal — kept up to date entry by entry, so a tap
// costs the same on a log of 10 entries and of 10,000 (docs/web.md, "Speed").
import { mealAt } from './due.js';
import { entryOf, sortEntries } from './replica.js';

/** The position of `meal` in `meals` (by ms, then id): where it is, or where it would go. */
function position(meals, meal) {
  let low = 0;
  let high = meals.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const other = meals[middle];
    if (other.ms < meal.ms || (other.ms === meal.ms && other.id < meal.id)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * An index over a replica's entries. After the page changes an entry it calls `entryChanged(id)`;
 * after rows arrive from elsewhere (a sync that merged any), or activities change, `rebuild()`.
 */
export class LogIndex {
  constructor(state) {
    this.rebuild(state);
  }

  /** Reads every entry of `state` (the page's replica) again. */
  rebuild(state = this.state) {
    this.state = state;
    /** Day (`YYYY-MM-DD` of the entry's own time) to the ids of its entries not deleted. */
    this.byDay = new Map();
    /** Activity id to how many entries (not deleted) it has. */
    this.uses = new Map();
    /** The meals (not deleted) as `{ms, id}`, by time, then id. */
    this.meals = [];
    /** What each entry was counted as: `{day, activity, meal}` (null: deleted; meal: `{ms, id}`). */
    this.counted = new Map();
    for (const id of Object.keys(state.rows.entry)) this.count(id, false);
    this.meals.sort((a, b) => a.ms - b.ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Counts the entry `id` as it is now, in place of what it was counted as before. */
  entryChanged(id) {
    const before = this.counted.get(id);
    if (before) {
      this.byDay.get(before.day)?.delete(id);
      this.uses.set(before.activity, (this.uses.get(before.activity) ?? 1) - 1);
      if (before.meal) {
        const at = position(this.meals, before.meal);
        if (this.meals[at]?.id === id) this.meals.splice(at, 1);
      }
    }
    this.count(id, true);
  }

  count(id, sorted) {
    const row = this.state.rows.entry[id];
    const [activity, at, , , , , , deleted] = row.values;
    if (deleted) {
      this.counted.set(id, null);
      return;
    }
    const day = at.slice(0, 10);
    if (!this.byDay.has(day)) this.byDay.set(day, new Set());
    this.byDay.get(day).add(id);
    this.uses.set(activity, (this.uses.get(activity) ?? 0) + 1);
    const meal = this.mealOf(id);
    if (meal) {
      if (sorted) this.meals.splice(position(this.meals, meal), 0, meal);
      else this.meals.push(meal);
    }
    this.counted.set(id, { day, activity, meal });
  }

  /**
   * `{ms, id}` of a meal (null for any other entry): `Date.parse` reads the form lifelog writes
   * (`2026-12-06T08:00:00+01:00`) a few times faster than `parseTime`, which reads the rest.
   */
  mealOf(id) {
    const [activityID, at] = this.state.rows.entry[id].values;
    if (this.state.rows.activity[activityID]?.values[1] !== 'meal') return null;
    const quick = at.length === 25 && (at[19] === '+' || at[19] === '-') ? Date.parse(at) : NaN;
    if (!Number.isNaN(quick)) return { ms: quick, id };
    const meal = mealAt(this.state, id);
    return meal ? { ms: meal.ms, id } : null;
  }

  /** The entries (not deleted) of `day`, as `entries(state, {day})` gives them. */
  entriesOn(day) {
    return sortEntries([...(this.byDay.get(day) ?? [])].map((id) => entryOf(this.state, id)));
  }

  /** The last meal at or before `nowMs`, as `lastMealBefore` finds it (for `mealDue`). */
  lastMealBefore(nowMs) {
    const at = position(this.meals, { ms: nowMs, id: '\u{10FFFF}' });
    return at > 0 ? mealAt(this.state, this.meals[at - 1].id) : null;
  }
}

"""####),
    "/core/merge.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// The merge rule (docs/sync-protocol.md §2): per field, the larger stamp wins; equal stamps are the
// same write. A state-based CRDT: the result does not depend on order, duplicates or snapshots.

/**
 * `incoming` merged into `existing` (`{values, stamps}`), or null when `existing` already holds
 * everything `incoming` has.
 */
export function mergeRow(existing, incoming) {
  if (!existing) return { values: [...incoming.values], stamps: [...incoming.stamps] };
  let changed = false;
  const merged = { values: [...existing.values], stamps: [...existing.stamps] };
  incoming.values.forEach((value, index) => {
    if (incoming.stamps[index] > merged.stamps[index]) {
      merged.values[index] = value;
      merged.stamps[index] = incoming.stamps[index];
      changed = true;
    }
  });
  return changed ? merged : null;
}

"""####),
    "/core/pairing.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// Pairing links (docs/web.md): `<server>/#pair=<one-time code>[&key=<data key, hex>]`. Everything
// secret is in the fragment, which no request carries and no Referer repeats.
import { SyncClient } from './client.js';
import { newReplica } from './replica.js';

/** `{server, code, key}` of a pairing link, or null when it is not one. */
export function parsePairingLink(link) {
  let url;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  const params = new URLSearchParams(url.hash.replace(/^#/, ''));
  const code = params.get('pair');
  if (!code || !/^[A-Za-z0-9_-]{1,200}$/.test(code)) return null;
  const key = params.get('key');
  if (key !== null && !/^[0-9a-f]{64}$/.test(key)) return null;
  return { server: url.origin, code, key };
}

/** Trades a link's code for a device token and returns a new replica for it. */
export async function pair(link, fetcher) {
  const parsed = parsePairingLink(link);
  if (!parsed) throw new Error('This is not a lifelog pairing link');
  const client = new SyncClient(parsed.server, '', fetcher);
  const answer = await client.redeem(parsed.code);
  const state = await newReplica({ server: parsed.server, token: answer.token, name: answer.device });
  if (parsed.key) state.dataKey = parsed.key;
  return state;
}

"""####),
    "/core/replica.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// The local replica of a log: rows with their stamps, the clock, queued changes, the outbox and
// the pull cursor, as one plain object that a storage keeps (IndexedDB in the page, a JSON file
// for Web/tools/device.mjs). The page and the tool change it only through these functions.
import { DEFAULT_ACTIVITIES, activityKey, derivedActivityID } from './activity.js';
import { randomUUID } from './bytes.js';
import { FIELDS, encodeBatch } from './codec.js';
import { mergeRow } from './merge.js';
import { HybridClock, makeStamp } from './stamp.js';

/**
 * The rows each replica changed since its storage last saved them (`entity/id` keys), so a page
 * saves one row for a tap, not the whole log. Not part of the state: a new replica, or one loaded
 * without it, counts every row as changed.
 */
const changedRows = new WeakMap();

function markChanged(state, entity, id) {
  if (!changedRows.has(state)) return; // everything is saved anyway
  changedRows.get(state).add(`${entity}/${id}`);
}

/** The rows changed since `takeChangedRows` was last called, or null for "all of them". */
export function takeChangedRows(state) {
  const changed = changedRows.get(state) ?? null;
  changedRows.set(state, new Set());
  return changed;
}

/** A new, empty replica for a new device of an account. */
export async function newReplica({ server = '', token = '', device = randomUUID(), name = '' } = {}) {
  const state = {
    version: 1, device, name, server, token, remoteId: '', encrypted: false,
    clock: { ms: 0, counter: 0 }, seq: 0,
    rows: { activity: {}, entry: {}, setting: {} },
    pending: [], outbox: [], merged: {}, cursor: '', lastSync: null, lastError: null,
  };
  for (const [activityName, kind] of DEFAULT_ACTIVITIES) {
    const id = await derivedActivityID(activityName);
    state.rows.activity[id] = { values: [activityName, kind, null, null, false, false], stamps: Array(6).fill('') };
  }
  return state;
}

function fieldIndex(entity, field) {
  const index = FIELDS[entity].findIndex(([name]) => name === field);
  if (index < 0) throw new Error(`no field ${entity}.${field}`);
  return index;
}

/** The next stamp of this device's clock at wall time `wall`. */
export function nextStamp(state, wall) {
  const clock = new HybridClock(state.clock.ms, state.clock.counter).tick(wall);
  state.clock = { ms: clock.ms, counter: clock.counter };
  return makeStamp(clock.ms, clock.counter, state.device);
}

function queue(state, entity, id) {
  markChanged(state, entity, id);
  const key = `${entity}/${id}`;
  if (!state.pending.includes(key)) state.pending.push(key);
}

/** The activity of that name (not deleted), as `{id, name, kind, archived}`, or null. */
export function findActivity(state, name) {
  const key = activityKey(name);
  for (const [id, row] of Object.entries(state.rows.activity)) {
    if (!row.values[5] && activityKey(row.values[0]) === key) {
      return { id, name: row.values[0], kind: row.values[1], archived: row.values[4] };
    }
  }
  return null;
}

/** Every activity not deleted. */
export function activities(state) {
  return Object.entries(state.rows.activity)
    .filter(([, row]) => !row.values[5])
    .map(([id, row]) => ({ id, name: row.values[0], kind: row.values[1], unit: row.values[2], archived: row.values[4] }));
}

/**
 * Logs an entry: `{activity (a name), at (ISO with offset), note, duration, quantity}`, stamped at
 * wall time `wall`. Returns its id.
 */
export function addEntry(state, { activity, at, note = null, duration = null, quantity = null }, wall) {
  const found = findActivity(state, activity);
  if (!found) throw new Error(`Unknown activity '${activity}'`);
  const id = randomUUID();
  const stamp = nextStamp(state, wall);
  state.rows.entry[id] = {
    values: [found.id, at, duration, note === '' ? null : note, quantity, [], null, false],
    stamps: Array(FIELDS.entry.length).fill(stamp),
  };
  queue(state, 'entry', id);
  return id;
}

/** Sets fields of an entry (`{activity: name, at, note, duration, quantity, deleted}`). */
export function editEntry(state, id, changes, wall) {
  const row = state.rows.entry[id];
  if (!row) throw new Error(`No entry '${id}'`);
  const stamp = nextStamp(state, wall);
  for (const [field, raw] of Object.entries(changes)) {
    let value = raw;
    if (field === 'activity') {
      const found = findActivity(state, raw);
      if (!found) throw new Error(`Unknown activity '${raw}'`);
      value = found.id;
    }
    if (field === 'note' && value === '') value = null;
    const index = fieldIndex('entry', field);
    row.values[index] = value;
    row.stamps[index] = stamp;
  }
  queue(state, 'entry', id);
}

/** Marks an entry deleted (or, with `deleted` false, restores it). */
export function deleteEntry(state, id, wall, deleted = true) {
  editEntry(state, id, { deleted }, wall);
}

/**
 * The entries as `lifelog list --format json` prints them, by time (deleted ones only with
 * `includeDeleted`); with `day` (`YYYY-MM-DD`), only those logged on that day.
 */
export function entries(state, { includeDeleted = false, day = null } = {}) {
  const out = [];
  for (const [id, row] of Object.entries(state.rows.entry)) {
    const [, at, , , , , , deleted] = row.values;
    if (deleted && !includeDeleted) continue;
    if (day !== null && !at.startsWith(day)) continue;
    out.push(entryOf(state, id));
  }
  return sortEntries(out);
}

/** One entry as `lifelog list --format json` prints it. */
export function entryOf(state, id) {
  const [activityID, at, duration, note, quantity, tags, source, deleted] = state.rows.entry[id].values;
  const activity = state.rows.activity[activityID];
  return {
    id, activity: activity ? activity.values[0] : activityID, kind: activity ? activity.values[1] : 'other',
    at, duration, note, quantity, unit: activity ? activity.values[2] : null, tags, source, deleted,
  };
}

/** Entries by time, then id (the order `entries` gives). */
export function sortEntries(list) {
  return list.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : 1));
}

/** Merges one received row; returns whether anything changed. No echo: it is not queued. */
export function mergeChange(state, change, wall) {
  const table = state.rows[change.entity];
  const merged = mergeRow(table[change.id], change);
  const clock = new HybridClock(state.clock.ms, state.clock.counter);
  for (const stamp of change.stamps) clock.observe(stamp, wall);
  state.clock = { ms: clock.ms, counter: clock.counter };
  if (!merged) return false;
  table[change.id] = merged;
  markChanged(state, change.entity, change.id);
  return true;
}

/** Turns the queued changes into the next outbox batch (its bytes kept, so a re-push is identical). */
export async function sealPending(state, wall) {
  if (state.pending.length === 0) return;
  const changes = state.pending.map((key) => {
    const slash = key.indexOf('/');
    const entity = key.slice(0, slash);
    const id = key.slice(slash + 1);
    const row = state.rows[entity][id];
    return { entity, id, values: row.values, stamps: row.stamps };
  });
  const seq = state.seq + 1;
  const bytes = await encodeBatch({ kind: 'batch', device: state.device, seq, created: wall, changes });
  state.outbox.push({ seq, text: new TextDecoder().decode(bytes) });
  state.seq = seq;
  state.pending = [];
}

/** The whole log as a snapshot's rows (every row with a written stamp). */
export function snapshotChanges(state) {
  const changes = [];
  for (const entity of Object.keys(FIELDS)) {
    for (const [id, row] of Object.entries(state.rows[entity])) {
      if (row.stamps.some((stamp) => stamp !== '')) changes.push({ entity, id, values: row.values, stamps: row.stamps });
    }
  }
  return changes;
}

"""####),
    "/core/sodium.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// libsodium's XChaCha20-Poly1305 (IETF) and keyed BLAKE2b, from the WebAssembly module that
// scripts/web-wasm.sh builds from libsodium's own source (docs/web.md, "Encryption"). No
// cryptography is written here: this only moves bytes in and out of the module's memory.

export const KEY_BYTES = 32;
export const NONCE_BYTES = 24;
export const TAG_BYTES = 16;

/** The module's functions over `bytes` of a compiled module. */
export async function loadSodium(bytes) {
  const stub = () => 52; // ENOSYS: libsodium's code here never writes files
  const { instance } = await WebAssembly.instantiate(bytes, {
    env: { sodium_misuse: () => { throw new Error('libsodium misuse'); } },
    wasi_snapshot_preview1: { fd_close: stub, fd_seek: stub, fd_write: stub },
  });
  const exports = instance.exports;

  function withBuffers(inputs, outputLength, body) {
    const pointers = inputs.map((input) => {
      const pointer = exports.lls_alloc(input.length);
      new Uint8Array(exports.memory.buffer, pointer, input.length).set(input);
      return pointer;
    });
    const out = exports.lls_alloc(outputLength);
    try {
      const status = body(out, ...pointers);
      return status === 0 ? new Uint8Array(exports.memory.buffer, out, outputLength).slice() : null;
    } finally {
      for (const pointer of [...pointers, out]) exports.lls_free(pointer);
    }
  }

  return {
    /** Ciphertext and tag of `message`. */
    seal(message, associated, nonce, key) {
      return withBuffers([message, associated, nonce, key], message.length + TAG_BYTES,
        (out, m, ad, n, k) => exports.lls_seal(out, m, message.length, ad, associated.length, n, k));
    },
    /** The plaintext of `sealed` (ciphertext and tag), or null when it fails authentication. */
    open(sealed, associated, nonce, key) {
      if (sealed.length < TAG_BYTES) return null;
      return withBuffers([sealed, associated, nonce, key], sealed.length - TAG_BYTES,
        (out, c, ad, n, k) => exports.lls_open(out, c, sealed.length, ad, associated.length, n, k));
    },
    /** BLAKE2b of `first` then `second`, keyed with `key`, `length` bytes. */
    hash(first, second, key, length) {
      return withBuffers([first, second, key], length,
        (out, a, b, k) => exports.lls_hash(out, length, a, first.length, b, second.length, k, key.length));
    },
  };
}

"""####),
    "/core/stamp.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// Stamps and the hybrid logical clock (docs/sync-protocol.md §2).

export const STAMP_LENGTH = 28;
export const MAX_MS = 0xffffffffffff;
export const MAX_COUNTER = 0xffff;
/** A received stamp more than this far ahead of the wall clock holds its batch back. */
export const AHEAD_LIMIT = 3_600_000;

/** Whether `text` is a well-formed stamp: 28 lower-case hex digits. */
export function isValidStamp(text) {
  return typeof text === 'string' && text.length === STAMP_LENGTH && /^[0-9a-f]+$/.test(text);
}

/** The 12 hex digits of a device id that go into its stamps. */
export function devicePart(device) {
  const digits = device.toLowerCase().replace(/[^0-9a-f]/g, '').slice(0, 12);
  return digits.padEnd(12, '0');
}

/** The stamp of a clock reading; parts beyond their width are capped. */
export function makeStamp(ms, counter, device) {
  const m = Math.min(Math.max(ms, 0), MAX_MS);
  const c = Math.min(Math.max(counter, 0), MAX_COUNTER);
  return m.toString(16).padStart(12, '0') + c.toString(16).padStart(4, '0') + devicePart(device);
}

/** The wall-clock milliseconds of a stamp, or null for a malformed one. */
export function stampMilliseconds(stamp) {
  return isValidStamp(stamp) ? parseInt(stamp.slice(0, 12), 16) : null;
}

/** The hybrid logical clock: `{ms, counter}` that only moves forward. */
export class HybridClock {
  constructor(ms = 0, counter = 0) {
    this.ms = ms;
    this.counter = counter;
  }

  /** Advances the clock for a local write at wall time `wall` (Unix ms). */
  tick(wall) {
    const w = Math.min(wall, MAX_MS);
    if (w > this.ms) {
      this.ms = w;
      this.counter = 0;
    } else if (this.counter < MAX_COUNTER) {
      this.counter += 1;
    } else if (this.ms < MAX_MS) {
      this.ms += 1;
      this.counter = 0;
    }
    return this;
  }

  /** Moves the clock past a received stamp, never beyond `wall` + AHEAD_LIMIT. */
  observe(stamp, wall) {
    const ms = stampMilliseconds(stamp);
    if (ms === null) return;
    const count = parseInt(stamp.slice(12, 16), 16);
    const limit = wall > MAX_MS - AHEAD_LIMIT ? MAX_MS : wall + AHEAD_LIMIT;
    if (ms > limit) return;
    if (ms > this.ms || (ms === this.ms && count > this.counter)) {
      this.ms = ms;
      this.counter = count;
    }
  }
}

"""####),
    "/core/sync.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// One sync of a replica with `lifelog serve` (docs/sync-protocol.md §5): snapshots for a first
// join, pages of changes merged per device in seq order without gaps, then the queued changes
// pushed. The replica is changed in place; the caller saves it (after every page, `save`).
import { decodeBatch } from './codec.js';
import { openBatch } from './envelope.js';
import { mergeChange, sealPending } from './replica.js';
import { AHEAD_LIMIT, stampMilliseconds } from './stamp.js';
import { SyncFailure } from './client.js';

/** Whether any stamp of a batch is more than an hour ahead of `wall`: it is held, not merged. */
function isAhead(batch, wall) {
  return batch.changes.some((change) => change.stamps.some((stamp) => (stampMilliseconds(stamp) ?? 0) > wall + AHEAD_LIMIT));
}

/**
 * Syncs `state` through `client`. For an encrypted remote, `makeEnvelope(remoteId)` gives the
 * envelope that opens and seals its files (the page's and device.mjs's come from
 * envelope-loader.js). `now()` gives the wall clock; `save(state)` is awaited after each merged
 * page. Returns `{merged, pushed, held}`.
 */
export async function sync(state, client, { makeEnvelope = null, now = Date.now, save = async () => {} } = {}) {
  const manifest = await client.manifest();
  if (state.remoteId && manifest.remoteId !== state.remoteId) {
    throw new SyncFailure('The server holds a different remote than this device synced with; pair again');
  }
  let envelope = null;
  if (manifest.encrypted) {
    if (!state.dataKey || !makeEnvelope) {
      throw new SyncFailure('This remote is encrypted; pair again with a link that carries its key');
    }
    envelope = await makeEnvelope(manifest.remoteId);
    if (!state.keyChecked) {
      const keys = await client.keys();
      if (!keys || !envelope.checks(keys)) throw new SyncFailure("The link's key does not open this remote; pair again");
      state.keyChecked = true;
    }
  } else if (state.dataKey) {
    throw new SyncFailure('This device holds a key, but the remote is not encrypted; pair again');
  }
  state.remoteId = manifest.remoteId;
  state.encrypted = manifest.encrypted === true;
  const open = async (bytes, name) => (envelope ? openBatch(envelope, bytes, name) : decodeBatch(bytes));
  const result = { merged: 0, pushed: 0, held: [] };
  const held = new Set();
  let resumeFrom = null;

  async function mergeSnapshot() {
    for (;;) {
      const snapshot = await client.latestSnapshot(state.cursor, state.device);
      if (!snapshot) return;
      const batch = await open(snapshot.bytes, { snapshot: snapshot.name || true });
      if (isAhead(batch, now())) {
        result.held.push({ device: batch.device, seq: 0, why: 'ahead' });
        return;
      }
      for (const change of batch.changes) if (mergeChange(state, change, now())) result.merged += 1;
      for (const [device, seq] of Object.entries(batch.covers)) {
        if (device !== state.device && seq > (state.merged[device] ?? 0)) state.merged[device] = seq;
      }
      if (snapshot.cursor === state.cursor) return;
      state.cursor = snapshot.cursor;
      await save(state);
    }
  }

  if (state.cursor === '') await mergeSnapshot();
  for (;;) {
    const after = state.cursor;
    const page = await client.changes(after, state.device);
    for (const item of page.batches) {
      const { device, seq } = item;
      const last = state.merged[device] ?? 0;
      if (seq <= last || held.has(device)) continue;
      let batch = null;
      let why = '';
      if (seq !== last + 1) why = 'missing';
      else {
        try {
          batch = await open(item.bytes, { device, seq });
          if (batch.kind !== 'batch' || batch.device !== device || batch.seq !== seq) why = 'unreadable';
          else if (isAhead(batch, now())) why = 'ahead';
        } catch {
          why = 'unreadable';
        }
      }
      if (why) {
        held.add(device);
        result.held.push({ device, seq, why });
        if (resumeFrom === null) resumeFrom = after;
        continue;
      }
      for (const change of batch.changes) if (mergeChange(state, change, now())) result.merged += 1;
      state.merged[device] = seq;
    }
    state.cursor = page.cursor;
    await save(state);
    if (page.needsSnapshot) {
      const before = state.cursor;
      await mergeSnapshot();
      if (state.cursor !== before) continue;
    }
    if (!page.more) break;
  }
  // A device held back is asked for again from the page it was held in: batches merged since are
  // passed over by seq.
  if (resumeFrom !== null) state.cursor = resumeFrom;

  await sealPending(state, now());
  await save(state);
  while (state.outbox.length > 0) {
    const next = state.outbox[0];
    const bytes = new TextEncoder().encode(next.text);
    const sealed = envelope ? envelope.seal(bytes, { device: state.device, seq: next.seq }) : bytes;
    await client.push(state.device, next.seq, sealed);
    state.outbox.shift();
    result.pushed += 1;
    await save(state);
  }
  state.lastSync = now();
  state.lastError = null;
  await save(state);
  return result;
}

"""####),
    "/core/time.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// Times as entries carry them: ISO 8601 to the second with the UTC offset where they were logged.

function pad(number, width = 2) {
  return String(number).padStart(width, '0');
}

/** `+01:00`, `-05:00`; UTC is `+00:00`. */
export function offsetText(minutes) {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The time `ms` (Unix ms) at UTC offset `offsetMinutes`, as `2026-12-02T08:00:00+01:00`. */
export function isoTime(ms, offsetMinutes) {
  const shifted = new Date(Math.floor(ms / 1000) * 1000 + offsetMinutes * 60_000);
  return `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`
    + `T${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`
    + offsetText(offsetMinutes);
}

/** The offset of this device's zone at `ms`, in minutes east of UTC. */
export function localOffset(ms) {
  return -new Date(ms).getTimezoneOffset();
}

/** `ms` in this device's zone. */
export function localISO(ms) {
  return isoTime(ms, localOffset(ms));
}

/** `{ms, offset}` of an entry time, or null when it is not one. */
export function parseTime(value) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|([+-])(\d{2}):?(\d{2}))$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, zone, sign, oh, om] = match;
  const offset = zone === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  return { ms: utc - offset * 60_000, offset };
}

/** An entry time written as lifelog prints it (`+00:00` for UTC, whole seconds). */
export function normalizedTime(value) {
  const parsed = parseTime(value);
  return parsed ? isoTime(parsed.ms, parsed.offset) : value;
}

"""####),
    "/i18n/en.json": WebFile(
      type: "application/json",
      text: ####"""
{
  "title": "lifelog",
  "today": "Today",
  "history": "History",
  "activities": "Activities",
  "sync": "Sync",
  "syncing": "Syncing…",
  "note": "Note",
  "time": "Time",
  "duration": "Minutes (exercise)",
  "quantity": "Quantity (exercise: km, reps…)",
  "earlier": "Earlier",
  "minus15": "−15m",
  "minus30": "−30m",
  "minus60": "−1h",
  "logNow": "Log a meal now",
  "logExercise": "Log exercise",
  "lastMeal": "Last meal: {activity} at {time} ({ago} ago)",
  "noMeal": "No meal logged yet.",
  "nextDue": "Next meal due at {time}",
  "dueIn": "in {left}",
  "overdue": "overdue by {left}",
  "todayEntries": "Today's entries",
  "noEntries": "Nothing logged today.",
  "edit": "Edit",
  "delete": "Delete",
  "save": "Save",
  "cancel": "Cancel",
  "undo": "Undo last change",
  "newNote": "New note",
  "newTime": "New time",
  "logged": "Logged {activity} at {time}.",
  "undone": "Undone.",
  "pending": "{count} changes waiting to sync",
  "pendingNone": "Everything synced",
  "lastSync": "Last sync {time}",
  "neverSynced": "Not synced yet",
  "offline": "Offline: changes are kept and sent when back online",
  "syncFailed": "Sync failed: {message}",
  "pairTitle": "Pair this browser",
  "pairHelp": "On your computer, run 'lifelog pair' and open the link it prints (or scan its QR code) on this device.",
  "pairing": "Pairing…",
  "paired": "Paired as {name}.",
  "pairFailed": "Pairing failed: {message}",
  "pairReplaceAsk": "This browser is already paired with {server} as {name}. Pair it with the link's account instead? What is shown here is then replaced by that account's log.",
  "pairWaiting": "This browser is paired with {server} as {name}, and {count} changes wait to sync: they would be lost. Sync them first, then open the link again.",
  "pairReplace": "Pair with the new account",
  "pairKeep": "Keep this pairing",
  "pairKept": "Still paired as {name}; the link was not used.",
  "revoked": "This device is no longer paired; run 'lifelog pair' again.",
  "kind.meal": "meal",
  "kind.exercise": "exercise",
  "kind.sleep": "sleep",
  "kind.medication": "medication",
  "kind.other": "other",
  "archived": "archived",
  "entriesCount": "{count} entries"
}

"""####),
    "/i18n/pl.json": WebFile(
      type: "application/json",
      text: ####"""
{
  "title": "lifelog",
  "today": "Dziś",
  "history": "Historia",
  "activities": "Aktywności",
  "sync": "Synchronizuj",
  "syncing": "Synchronizacja…",
  "note": "Notatka",
  "time": "Godzina",
  "duration": "Minuty (ruch)",
  "quantity": "Ilość (ruch: km, powtórzenia…)",
  "earlier": "Wcześniej",
  "minus15": "−15 min",
  "minus30": "−30 min",
  "minus60": "−1 godz.",
  "logNow": "Zapisz posiłek teraz",
  "logExercise": "Zapisz ruch",
  "lastMeal": "Ostatni posiłek: {activity} o {time} ({ago} temu)",
  "noMeal": "Nie zapisano jeszcze posiłku.",
  "nextDue": "Następny posiłek o {time}",
  "dueIn": "za {left}",
  "overdue": "spóźniony o {left}",
  "todayEntries": "Dzisiejsze wpisy",
  "noEntries": "Dziś nic nie zapisano.",
  "edit": "Edytuj",
  "delete": "Usuń",
  "save": "Zapisz",
  "cancel": "Anuluj",
  "undo": "Cofnij ostatnią zmianę",
  "newNote": "Nowa notatka",
  "newTime": "Nowa godzina",
  "logged": "Zapisano: {activity} o {time}.",
  "undone": "Cofnięto.",
  "pending": "Zmiany czekające na synchronizację: {count}",
  "pendingNone": "Wszystko zsynchronizowane",
  "lastSync": "Ostatnia synchronizacja {time}",
  "neverSynced": "Jeszcze nie synchronizowano",
  "offline": "Brak sieci: zmiany zostaną wysłane po powrocie połączenia",
  "syncFailed": "Synchronizacja nie powiodła się: {message}",
  "pairTitle": "Sparuj tę przeglądarkę",
  "pairHelp": "Na komputerze uruchom 'lifelog pair' i otwórz wypisany link (lub zeskanuj kod QR) na tym urządzeniu.",
  "pairing": "Parowanie…",
  "paired": "Sparowano jako {name}.",
  "pairFailed": "Parowanie nie powiodło się: {message}",
  "pairReplaceAsk": "Ta przeglądarka jest już sparowana z {server} jako {name}. Sparować ją zamiast tego z kontem z linku? To, co tu widać, zastąpi wtedy dziennik tamtego konta.",
  "pairWaiting": "Ta przeglądarka jest sparowana z {server} jako {name}, a {count} zmian czeka na synchronizację: przepadłyby. Najpierw je zsynchronizuj, potem otwórz link ponownie.",
  "pairReplace": "Sparuj z nowym kontem",
  "pairKeep": "Zachowaj to sparowanie",
  "pairKept": "Nadal sparowano jako {name}; link nie został użyty.",
  "revoked": "To urządzenie nie jest już sparowane; uruchom ponownie 'lifelog pair'.",
  "kind.meal": "posiłek",
  "kind.exercise": "ruch",
  "kind.sleep": "sen",
  "kind.medication": "lek",
  "kind.other": "inne",
  "archived": "zarchiwizowana",
  "entriesCount": "wpisy: {count}"
}

"""####),
    "/icon-maskable.svg": WebFile(
      type: "image/svg+xml",
      text: ####"""
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
<rect width="512" height="512" fill="#2f6f4f"/>
<circle cx="256" cy="256" r="110" fill="none" stroke="#ffffff" stroke-width="28"/>
<path d="M256 256 L256 176 M256 256 L312 290" stroke="#ffffff" stroke-width="28" stroke-linecap="round"/>
</svg>

"""####),
    "/icon.svg": WebFile(
      type: "image/svg+xml",
      text: ####"""
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
<rect width="512" height="512" rx="96" fill="#2f6f4f"/>
<circle cx="256" cy="256" r="150" fill="none" stroke="#ffffff" stroke-width="36"/>
<path d="M256 256 L256 150 M256 256 L330 300" stroke="#ffffff" stroke-width="36" stroke-linecap="round"/>
</svg>

"""####),
    "/index.html": WebFile(
      type: "text/html; charset=utf-8",
      text: ####"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="theme-color" content="#2f6f4f">
<title>lifelog</title>
<link rel="manifest" href="/manifest.webmanifest">
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/app.css">
<script type="module" src="/app.js"></script>
<!-- Every module at once, not level by level as the imports are found (docs/web.md, "Speed"). -->
<link rel="modulepreload" href="/core/activity.js">
<link rel="modulepreload" href="/core/bytes.js">
<link rel="modulepreload" href="/core/client.js">
<link rel="modulepreload" href="/core/codec.js">
<link rel="modulepreload" href="/core/due.js">
<link rel="modulepreload" href="/core/envelope-loader.js">
<link rel="modulepreload" href="/core/envelope.js">
<link rel="modulepreload" href="/core/log-index.js">
<link rel="modulepreload" href="/core/merge.js">
<link rel="modulepreload" href="/core/pairing.js">
<link rel="modulepreload" href="/core/replica.js">
<link rel="modulepreload" href="/core/sodium.js">
<link rel="modulepreload" href="/core/stamp.js">
<link rel="modulepreload" href="/core/sync.js">
<link rel="modulepreload" href="/core/time.js">
<link rel="modulepreload" href="/ui/i18n.js">
<link rel="modulepreload" href="/ui/store.js">
<link rel="modulepreload" href="/ui/view.js">
</head>
<body>
<header>
  <h1>lifelog</h1>
  <button id="sync-button" type="button" hidden>Sync</button>
</header>
<p id="sync-status" role="status"></p>
<nav id="tabs" hidden>
  <button type="button" data-view="today" aria-pressed="true">Today</button>
  <button type="button" data-view="history" aria-pressed="false">History</button>
  <button type="button" data-view="activities" aria-pressed="false">Activities</button>
</nav>
<main>
  <section id="pair-view" hidden>
    <h2 id="pair-title">Pair this browser</h2>
    <p id="pair-message"></p>
    <div id="pair-choice" class="buttons" hidden>
      <button id="pair-replace" type="button">Pair with the new account</button>
      <button id="pair-keep" type="button">Keep this pairing</button>
    </div>
  </section>
  <section id="today-view" hidden aria-labelledby="today-title">
    <h2 id="today-title" class="visually-hidden">Today</h2>
    <p id="last-meal"></p>
    <p id="next-due" role="timer" aria-live="off"></p>
    <h3 id="log-title">Log a meal now</h3>
    <div id="meal-buttons" class="buttons" role="group" aria-labelledby="log-title"></div>
    <div class="fields">
      <label for="note-field" id="note-label">Note</label>
      <input id="note-field" type="text" autocomplete="off" maxlength="10000">
      <label for="time-field" id="time-label">Time</label>
      <input id="time-field" type="time">
      <div id="earlier" class="buttons" role="group" aria-labelledby="earlier-title">
        <span id="earlier-title">Earlier</span>
        <button type="button" data-minutes="15" aria-pressed="false">−15m</button>
        <button type="button" data-minutes="30" aria-pressed="false">−30m</button>
        <button type="button" data-minutes="60" aria-pressed="false">−1h</button>
      </div>
      <label for="duration-field" id="duration-label">Minutes</label>
      <input id="duration-field" type="number" min="0" max="44640" step="1" inputmode="numeric">
      <label for="quantity-field" id="quantity-label">Quantity (exercise: km, reps…)</label>
      <input id="quantity-field" type="number" min="0" max="1000000000" step="any" inputmode="decimal">
    </div>
    <h3 id="exercise-title">Log exercise</h3>
    <div id="exercise-buttons" class="buttons" role="group" aria-labelledby="exercise-title"></div>
    <h3 id="entries-title">Today's entries</h3>
    <ul id="today-list" class="entries" aria-labelledby="entries-title"></ul>
    <button id="undo-button" type="button" disabled>Undo last change</button>
  </section>
  <section id="history-view" hidden aria-labelledby="history-title">
    <h2 id="history-title">History</h2>
    <div id="history-days"></div>
  </section>
  <section id="activities-view" hidden aria-labelledby="activities-title">
    <h2 id="activities-title">Activities</h2>
    <ul id="activity-list"></ul>
  </section>
</main>
</body>
</html>

"""####),
    "/manifest.webmanifest": WebFile(
      type: "application/manifest+json",
      text: ####"""
{
  "name": "lifelog",
  "short_name": "lifelog",
  "description": "Log meals and activities; syncs with your lifelog server.",
  "start_url": "/",
  "scope": "/",
  "display": "standalone",
  "background_color": "#ffffff",
  "theme_color": "#2f6f4f",
  "icons": [
    { "src": "/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any" },
    { "src": "/icon-maskable.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "maskable" }
  ]
}

"""####),
    "/share.css": WebFile(
      type: "text/css; charset=utf-8",
      text: ####"""
body { max-width: 60rem; }
#report { width: 100%; min-height: 80vh; border: 1px solid var(--line); border-radius: 0.5rem; background: #fff; }
#passcode-form:not([hidden]) { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }

"""####),
    "/share.html": WebFile(
      type: "text/html; charset=utf-8",
      text: ####"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Shared report — lifelog</title>
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/app.css">
<link rel="stylesheet" href="/share.css">
<script type="module" src="/share.js"></script>
</head>
<body>
<header><h1>lifelog</h1></header>
<p id="share-status" role="status">Opening the report…</p>
<form id="passcode-form" hidden>
  <label for="passcode-field">Passcode</label>
  <input id="passcode-field" type="password" autocomplete="off" required>
  <button type="submit">Open</button>
</form>
<iframe id="report" title="Meal report" sandbox hidden></iframe>
</body>
</html>

"""####),
    "/share.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// The viewer of a shared report (`lifelog share`, docs/web.md "For your doctor"): fetches the
// ciphertext of /s/<id>, opens it with the key in the address's fragment (which no request
// carries) and shows the report in a sandboxed frame that runs no script.
import { fromHex, text, utf8 } from './core/bytes.js';
import { sodiumModule } from './core/envelope-loader.js';
import { NONCE_BYTES } from './core/sodium.js';

const $ = (id) => document.getElementById(id);
const id = location.pathname.split('/')[2] ?? '';
const keyText = location.hash.slice(1);

function say(message) {
  $('share-status').textContent = message;
}

async function open(passcode) {
  const headers = passcode ? { 'Lifelog-Share-Passcode': passcode } : {};
  const response = await fetch(`/v1/shares/${encodeURIComponent(id)}/content`, { headers, cache: 'no-store' });
  if (response.status === 410) return say('This link has expired or was revoked: the report is gone. Ask for a new link.');
  if (response.status === 404) return say('There is no such report. Check the link.');
  if (response.status === 429) {
    const wait = Number(response.headers.get('Retry-After')) || 60;
    return say(`Too many tries from here; try again in ${wait} s.`);
  }
  if (response.status === 401 || response.status === 403) {
    const body = await response.json().catch(() => ({}));
    $('passcode-form').hidden = false;
    $('passcode-field').focus();
    return say(body?.error?.message ?? 'This report needs its passcode.');
  }
  if (!response.ok) return say(`The server answered ${response.status}; try again later.`);
  const sealed = new Uint8Array(await response.arrayBuffer());
  const sodium = await sodiumModule();
  const plain = sealed.length > NONCE_BYTES
    ? sodium.open(sealed.subarray(NONCE_BYTES), utf8(`lifelog-share\n${id}`), sealed.subarray(0, NONCE_BYTES), fromHex(keyText))
    : null;
  if (!plain) return say('The report does not open with this link: it was changed, or the link is incomplete.');
  $('passcode-form').hidden = true;
  const frame = $('report');
  frame.srcdoc = text(plain);
  frame.hidden = false;
  say('Meal report');
}

$('passcode-form').addEventListener('submit', (event) => {
  event.preventDefault();
  open($('passcode-field').value);
});

if (!/^[0-9a-f]{64}$/.test(keyText)) {
  say('This link is incomplete: the part after # is missing. Copy the whole link.');
} else {
  open(null).catch((error) => say(`The report could not be opened: ${error.message}`));
}

"""####),
    "/sw.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// The service worker: keeps the app's files so the page opens offline (docs/web.md). The network
// is asked first, so a new version is used as soon as it is served; the API (/v1/) and shared
// reports (/s/) are never kept here.
const CACHE = 'lifelog-app-v1';
const SHELL = [
  '/', '/index.html', '/app.js', '/app.css', '/manifest.webmanifest', '/icon.svg',
  '/i18n/en.json', '/i18n/pl.json', '/ui/i18n.js', '/ui/store.js', '/ui/view.js',
  '/core/activity.js', '/core/bytes.js', '/core/client.js', '/core/codec.js', '/core/due.js',
  '/core/envelope-loader.js', '/core/envelope.js', '/core/log-index.js', '/core/sodium.js', '/core/merge.js', '/core/pairing.js', '/core/replica.js',
  '/core/stamp.js', '/core/sync.js', '/core/time.js',
];

self.addEventListener('install', (event) => {
  // The encryption module too, when this server has it (a plain account never needs it).
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(SHELL).then(() => cache.add('/sodium.wasm').catch(() => {})))
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/v1/') || url.pathname.startsWith('/s/')) return;
  const key = url.pathname === '/' ? '/index.html' : url.pathname;
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(key, copy));
    }
    return response;
  }).catch(() => caches.match(key).then((cached) => cached ?? Response.error())));
});

"""####),
    "/ui/i18n.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
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

"""####),
    "/ui/store.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// The replica in IndexedDB (docs/web.md, "Storage"): a record of everything but the rows (clock,
// queue, outbox, cursor, token), and the rows in 64 buckets by a hash of their key, so a change
// writes the few buckets it touched and an open reads 65 records, not one per row.
import { takeChangedRows } from '../core/replica.js';

const DB = 'lifelog';
const META = 'replica';
const ROWS = 'rows';
const BUCKETS = 64;

/** The bucket of a row's `entity/id` key (FNV-1a). */
function bucket(key) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % BUCKETS;
}

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(META);
      request.result.createObjectStore(ROWS);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

let database = null;

async function transaction(mode, body) {
  database ??= await open();
  return new Promise((resolve, reject) => {
    const tx = database.transaction([META, ROWS], mode);
    let result;
    Promise.resolve(body(tx.objectStore(META), tx.objectStore(ROWS))).then((value) => { result = value; });
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

function request(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/**
 * The keys of each bucket's rows, per replica: rows are never removed from a replica (a deleted
 * entry is a tombstone), so a save adds the keys it was told changed and builds only those buckets.
 */
const bucketKeys = new WeakMap();

function keysOf(state) {
  let keys = bucketKeys.get(state);
  if (!keys) {
    keys = Array.from({ length: BUCKETS }, () => new Set());
    for (const [entity, table] of Object.entries(state.rows)) {
      for (const id of Object.keys(table)) {
        const key = `${entity}/${id}`;
        keys[bucket(key)].add(key);
      }
    }
    bucketKeys.set(state, keys);
  }
  return keys;
}

/** The saved replica, or undefined before pairing. */
export async function loadState() {
  const state = await transaction('readonly', async (meta, rows) => {
    const saved = await request(meta.get('state'));
    if (!saved) return undefined;
    saved.rows = { activity: {}, entry: {}, setting: {} };
    const keys = Array.from({ length: BUCKETS }, () => new Set());
    const buckets = await request(rows.getAll());
    const indexes = await request(rows.getAllKeys());
    buckets.forEach((stored, at) => {
      for (const [key, row] of Object.entries(stored)) {
        const slash = key.indexOf('/');
        saved.rows[key.slice(0, slash)][key.slice(slash + 1)] = row;
        keys[indexes[at]]?.add(key);
      }
    });
    bucketKeys.set(saved, keys);
    return saved;
  });
  if (state) takeChangedRows(state); // what was loaded is saved
  return state;
}

/**
 * Saves the replica: the buckets of the rows changed since the last save (all of them the first
 * time) and the rest, in one transaction (durable when this resolves).
 */
export function saveState(state) {
  const changed = takeChangedRows(state);
  const keys = keysOf(state);
  let touched;
  if (changed === null) {
    touched = keys.map((_, index) => index);
  } else {
    touched = new Set();
    for (const key of changed) {
      const index = bucket(key);
      keys[index].add(key);
      touched.add(index);
    }
  }
  const buckets = new Map();
  for (const index of touched) {
    const contents = {};
    for (const key of keys[index]) {
      const slash = key.indexOf('/');
      contents[key] = state.rows[key.slice(0, slash)][key.slice(slash + 1)];
    }
    buckets.set(index, contents);
  }
  return transaction('readwrite', (meta, rows) => {
    const { rows: all, ...rest } = state;
    meta.put(rest, 'state');
    for (const [index, contents] of buckets) rows.put(contents, index);
  });
}

/** Forgets the replica (a revoked device). */
export function clearState() {
  return transaction('readwrite', (meta, rows) => {
    meta.clear();
    rows.clear();
  });
}

"""####),
    "/ui/view.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// Rendering helpers: every synced value goes in as text (textContent), never as HTML.
import { t } from './i18n.js';
import { parseTime } from '../core/time.js';

/** An element with attributes and children (strings become text nodes). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) node.append(child);
  return node;
}

/** `08:05` of an entry time, on the wall clock where it was logged. */
export function clock(at) {
  const parsed = parseTime(at);
  if (!parsed) return at;
  const shifted = new Date(parsed.ms + parsed.offset * 60_000);
  return `${String(shifted.getUTCHours()).padStart(2, '0')}:${String(shifted.getUTCMinutes()).padStart(2, '0')}`;
}

/** `2026-12-02` of an entry time, on the wall clock where it was logged. */
export function day(at) {
  return at.slice(0, 10);
}

/** `1h40m`, `25m`, `0m`, as `lifelog due --short` writes them. */
export function span(seconds) {
  const minutes = Math.max(0, Math.floor(seconds / 60));
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours}h${String(minutes % 60).padStart(2, '0')}m` : `${minutes}m`;
}

/** One entry as a list item: its activity, time and note, and its buttons. */
export function entryItem(entry, { onEdit, onDelete } = {}) {
  const item = el('li', { 'data-id': entry.id },
    el('span', { class: 'activity', text: entry.activity }),
    el('time', { datetime: entry.at, text: clock(entry.at) }),
    el('span', { class: 'note', text: entry.note ?? '' }));
  if (entry.duration !== null && entry.duration !== undefined) {
    item.insertBefore(el('span', { class: 'duration', text: span(entry.duration) }), item.lastChild);
  }
  if (entry.quantity !== null && entry.quantity !== undefined) {
    const text = entry.unit ? `${entry.quantity} ${entry.unit}` : String(entry.quantity);
    item.insertBefore(el('span', { class: 'quantity', text }), item.lastChild);
  }
  if (onEdit) item.append(el('button', { type: 'button', 'aria-label': `${t('edit')} ${entry.activity} ${clock(entry.at)}`, text: t('edit') }));
  if (onDelete) item.append(el('button', { type: 'button', 'aria-label': `${t('delete')} ${entry.activity} ${clock(entry.at)}`, text: t('delete') }));
  const buttons = item.querySelectorAll('button');
  if (onEdit) buttons[0].addEventListener('click', () => onEdit(entry, item));
  if (onDelete) buttons[buttons.length - 1].addEventListener('click', () => onDelete(entry));
  return item;
}

"""####),
  ]
}
