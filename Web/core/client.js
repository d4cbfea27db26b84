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

