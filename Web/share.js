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
