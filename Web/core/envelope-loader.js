// Opening an encrypted remote's files: built in a later step (libsodium in WebAssembly).

/** The envelope of an encrypted remote; refuses until the WebAssembly build is present. */
export async function openEnvelope() {
  throw new Error('This device cannot open an encrypted remote yet');
}
