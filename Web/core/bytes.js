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
