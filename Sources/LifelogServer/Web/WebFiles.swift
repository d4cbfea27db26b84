// swift-format-ignore-file
// Written by scripts/web-embed.sh from Web/; do not edit (make lint checks it).

/// The files of the web app by path (docs/web.md).
enum WebFiles {
  static let files: [String: WebFile] = [
    "/app.css": WebFile(
      type: "text/css; charset=utf-8",
      text: ####"""
body{font-family:system-ui,sans-serif;margin:0;padding:0 1rem}

"""####),
    "/app.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// The page: a thin view on the sync core (docs/web.md).

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
    return { bytes: answer.bytes, cursor };
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
    "/core/envelope-loader.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// Opening an encrypted remote's files: built in a later step (libsodium in WebAssembly).

/** The envelope of an encrypted remote; refuses until the WebAssembly build is present. */
export async function openEnvelope() {
  throw new Error('This device cannot open an encrypted remote yet');
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

/** The entries as `lifelog list --format json` prints them (deleted ones with `deleted: true`). */
export function entries(state, { includeDeleted = false } = {}) {
  const out = [];
  for (const [id, row] of Object.entries(state.rows.entry)) {
    const [activityID, at, duration, note, quantity, tags, source, deleted] = row.values;
    if (deleted && !includeDeleted) continue;
    const activity = state.rows.activity[activityID];
    out.push({
      id, activity: activity ? activity.values[0] : activityID, kind: activity ? activity.values[1] : 'other',
      at, duration, note, quantity, unit: activity ? activity.values[2] : null, tags, source, deleted,
    });
  }
  return out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : 1));
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
import { mergeChange, sealPending } from './replica.js';
import { AHEAD_LIMIT, stampMilliseconds } from './stamp.js';
import { SyncFailure } from './client.js';

/** Whether any stamp of a batch is more than an hour ahead of `wall`: it is held, not merged. */
function isAhead(batch, wall) {
  return batch.changes.some((change) => change.stamps.some((stamp) => (stampMilliseconds(stamp) ?? 0) > wall + AHEAD_LIMIT));
}

/**
 * Syncs `state` through `client`. `envelope` opens sealed files of an encrypted remote (null for a
 * plain one). `now()` gives the wall clock; `save(state)` is awaited after each merged page.
 * Returns `{merged, pushed, held}`.
 */
export async function sync(state, client, { envelope = null, now = Date.now, save = async () => {} } = {}) {
  const manifest = await client.manifest();
  if (state.remoteId && manifest.remoteId !== state.remoteId) {
    throw new SyncFailure('The server holds a different remote than this device synced with; pair again');
  }
  if (manifest.encrypted && !envelope) {
    throw new SyncFailure('This remote is encrypted; pair again with a link that carries its key');
  }
  state.remoteId = manifest.remoteId;
  state.encrypted = manifest.encrypted === true;
  const open = async (bytes, name) => decodeBatch(envelope ? await envelope.open(bytes, name) : bytes);
  const result = { merged: 0, pushed: 0, held: [] };
  const held = new Set();
  let resumeFrom = null;

  async function mergeSnapshot() {
    for (;;) {
      const snapshot = await client.latestSnapshot(state.cursor, state.device);
      if (!snapshot) return;
      const batch = await open(snapshot.bytes, { snapshot: true });
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
    const sealed = envelope ? await envelope.seal(bytes, { device: state.device, seq: next.seq }) : bytes;
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
<title>lifelog</title>
<link rel="manifest" href="/manifest.webmanifest">
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/app.css">
<script type="module" src="/app.js"></script>
</head>
<body>
<main id="app" aria-live="polite">
<h1>lifelog</h1>
<p id="status">Loading…</p>
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
    "/sw.js": WebFile(
      type: "text/javascript; charset=utf-8",
      text: ####"""
// The service worker: keeps the app's files so the page opens offline (docs/web.md). The network
// is asked first, so a new version is used as soon as it is served; the API (/v1/) and shared
// reports (/s/) are never kept here.
const CACHE = 'lifelog-app-v1';
const SHELL = [
  '/', '/index.html', '/app.js', '/app.css', '/manifest.webmanifest', '/icon.svg',
  '/core/activity.js', '/core/bytes.js', '/core/client.js', '/core/codec.js',
  '/core/envelope-loader.js', '/core/merge.js', '/core/pairing.js', '/core/replica.js',
  '/core/stamp.js', '/core/sync.js', '/core/time.js',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
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
  ]
}
