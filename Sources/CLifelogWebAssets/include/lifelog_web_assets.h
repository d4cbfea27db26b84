#ifndef LIFELOG_WEB_ASSETS_H
#define LIFELOG_WEB_ASSETS_H

#include <stddef.h>

/// The web app's libsodium WebAssembly module, built by scripts/web-wasm.sh into .build/wasm
/// (`make` runs it first; nothing of it is committed). Empty when lifelog was built without it:
/// the server then answers 404 for it and the page cannot open an encrypted account.
const unsigned char *lifelog_sodium_wasm(size_t *length);

/// One file of the web app (Web/), embedded when lifelog is compiled.
typedef struct lifelog_web_file {
  /// `/app.js`, `/core/sync.js`: the path it is served at.
  const char *path;
  /// Its `Content-Type`.
  const char *type;
  const unsigned char *bytes;
  size_t length;
} lifelog_web_file;

/// Every file of the web app (scripts/web-embed.sh lists them; Web/ is read when this is built).
const lifelog_web_file *lifelog_web_files(size_t *count);

#endif
