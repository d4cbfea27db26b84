#!/usr/bin/env node
// A command-line device over a state folder, on the same sync core as the page (docs/web.md):
// for the cross-implementation tests, and for debugging a server.
//
//   node Web/tools/device.mjs --state DIR pair LINK
//   node Web/tools/device.mjs --state DIR init --server URL --token-file FILE
//   node Web/tools/device.mjs --state DIR add ACTIVITY [NOTE] [--at TIME]
//   node Web/tools/device.mjs --state DIR edit ID [--note N] [--at TIME] [--activity NAME]
//   node Web/tools/device.mjs --state DIR delete ID
//   node Web/tools/device.mjs --state DIR sync
//   node Web/tools/device.mjs --state DIR list [--format json]
//   node Web/tools/device.mjs --state DIR due          (as `lifelog due --format json`)
//
// TIME is ISO 8601 with an offset, or HH:MM today in this machine's zone. Exit codes as the CLI's:
// 64 usage, 65 bad input, 69 server unavailable, 77 token refused.
import { closeSync, constants, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SyncClient, SyncFailure } from '../core/client.js';
import { pair } from '../core/pairing.js';
import { addEntry, deleteEntry, editEntry, entries, newReplica } from '../core/replica.js';
import { sync } from '../core/sync.js';
import { isoTime, localISO, localOffset, normalizedTime, parseTime } from '../core/time.js';
import { openEnvelope } from '../core/envelope-loader.js';
import { mealDue } from '../core/due.js';

class UsageError extends Error {}
class InputError extends Error {}

function parseArguments(argv) {
  const positionals = [];
  const options = {};
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i];
    if (word.startsWith('--')) {
      if (i + 1 >= argv.length) throw new UsageError(`Missing value for '${word}'`);
      options[word.slice(2)] = argv[i + 1];
      i += 1;
    } else positionals.push(word);
  }
  return { positionals, options };
}

/** Now for entry times: LIFELOG_NOW when set, as the CLI reads it (stamps use the real clock). */
function now() {
  const fixed = process.env.LIFELOG_NOW;
  if (fixed) {
    const parsed = parseTime(fixed);
    if (parsed) return parsed.ms;
  }
  return Date.now();
}

function time(value) {
  if (value === undefined) return localISO(now());
  const clock = /^(\d{1,2}):(\d{2})$/.exec(value);
  if (clock) {
    const today = new Date(now());
    today.setHours(Number(clock[1]), Number(clock[2]), 0, 0);
    return isoTime(today.getTime(), localOffset(today.getTime()));
  }
  if (!parseTime(value)) throw new InputError(`'${value}' is not a time; give ISO 8601 with an offset or HH:MM`);
  return normalizedTime(value);
}

function load(folder) {
  try {
    return JSON.parse(readFileSync(join(folder, 'state.json'), 'utf8'));
  } catch {
    throw new InputError(`No device in '${folder}'; run 'pair LINK' or 'init' first`);
  }
}

/**
 * Writes the state (it holds the device token) through a new temporary file: a random name,
 * created exclusively, never through a link and never an older file's mode, then renamed over
 * state.json, so a link or file planted in the folder is neither followed nor reused.
 */
function save(folder, state) {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, 'state.json');
  const temporary = `${path}.tmp-${randomBytes(16).toString('hex')}`;
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
  const descriptor = openSync(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    writeSync(descriptor, JSON.stringify(state));
  } finally {
    closeSync(descriptor);
  }
  renameSync(temporary, path);
}

function entryID(state, prefix) {
  const found = Object.keys(state.rows.entry).filter((id) => id.startsWith(prefix));
  if (found.length !== 1) throw new InputError(`'${prefix}' names ${found.length} entries; give more of its id`);
  return found[0];
}

async function run(argv) {
  const { positionals, options } = parseArguments(argv);
  const folder = options.state;
  if (!folder) throw new UsageError("Give '--state DIR'");
  const [command, ...rest] = positionals;
  switch (command) {
    case 'pair': {
      if (rest.length !== 1) throw new UsageError('pair takes one LINK');
      const state = await pair(rest[0]);
      save(folder, state);
      process.stdout.write(`Paired as '${state.name}' with ${state.server}\n`);
      return;
    }
    case 'init': {
      if (!options.server || !options['token-file']) throw new UsageError('init takes --server URL --token-file FILE');
      const token = readFileSync(options['token-file'], 'utf8').trim();
      save(folder, await newReplica({ server: options.server, token }));
      return;
    }
    case 'add': {
      if (rest.length < 1 || rest.length > 2) throw new UsageError('add takes ACTIVITY [NOTE]');
      const state = load(folder);
      const id = addEntry(state, { activity: rest[0], note: rest[1] ?? null, at: time(options.at) }, Date.now());
      save(folder, state);
      process.stdout.write(`${id}\n`);
      return;
    }
    case 'edit': {
      if (rest.length !== 1) throw new UsageError('edit takes ID');
      const state = load(folder);
      const changes = {};
      if (options.note !== undefined) changes.note = options.note;
      if (options.at !== undefined) changes.at = time(options.at);
      if (options.activity !== undefined) changes.activity = options.activity;
      editEntry(state, entryID(state, rest[0]), changes, Date.now());
      save(folder, state);
      return;
    }
    case 'delete': {
      if (rest.length !== 1) throw new UsageError('delete takes ID');
      const state = load(folder);
      deleteEntry(state, entryID(state, rest[0]), Date.now());
      save(folder, state);
      return;
    }
    case 'sync': {
      const state = load(folder);
      const result = await sync(state, new SyncClient(state.server, state.token), {
        makeEnvelope: (remoteId) => openEnvelope(state, remoteId), now: Date.now, save: async (s) => save(folder, s),
      });
      process.stdout.write(`Synced: ${result.merged} merged, ${result.pushed} pushed\n`);
      for (const held of result.held) process.stdout.write(`Held: batch ${held.seq} of ${held.device} (${held.why})\n`);
      return;
    }
    case 'list': {
      const state = load(folder);
      const list = entries(state);
      if (options.format === 'json') process.stdout.write(`${JSON.stringify(list, null, 0)}\n`);
      else for (const e of list) process.stdout.write(`${e.id.slice(0, 8)} ${e.at} ${e.activity}${e.note ? ` ${e.note}` : ''}\n`);
      return;
    }
    case 'due': {
      const due = mealDue(load(folder), now());
      process.stdout.write(`${JSON.stringify({
        lastMeal: due.lastMeal && { ...due.lastMeal, at: normalizedTime(due.lastMeal.at) },
        sinceMinutes: due.sinceMinutes,
        dueAt: due.dueAt === null ? null : localISO(due.dueAt),
        overdueMinutes: due.overdueMinutes,
        mealGapHours: due.mealGapHours,
      })}\n`);
      return;
    }
    default:
      throw new UsageError(`Unknown command '${command ?? ''}'`);
  }
}

run(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`Error: ${error.message}\n`);
  if (error instanceof UsageError) process.exit(64);
  if (error instanceof SyncFailure) process.exit(error.status === 401 || error.status === 403 ? 77 : 69);
  process.exit(error instanceof InputError || /Unknown activity|No entry/.test(error.message) ? 65 : 1);
});
