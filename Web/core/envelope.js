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
