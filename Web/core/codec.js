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
