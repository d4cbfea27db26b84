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
