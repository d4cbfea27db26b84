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
