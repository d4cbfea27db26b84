#ifndef LIFELOG_WEB_ASSETS_H
#define LIFELOG_WEB_ASSETS_H

#include <stddef.h>

/// The web app's libsodium WebAssembly module, built by scripts/web-wasm.sh into .build/wasm
/// (`make` runs it first; nothing of it is committed). Empty when lifelog was built without it:
/// the server then answers 404 for it and the page cannot open an encrypted account.
const unsigned char *lifelog_sodium_wasm(size_t *length);

#endif
