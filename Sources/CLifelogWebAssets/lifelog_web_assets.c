#include "lifelog_web_assets.h"

#if __has_include("../../.build/wasm/sodium.wasm.inc")
static const unsigned char sodium_wasm[] = {
#include "../../.build/wasm/sodium.wasm.inc"
};
static const size_t sodium_wasm_length = sizeof sodium_wasm;
#else
static const unsigned char sodium_wasm[1] = {0};
static const size_t sodium_wasm_length = 0;
#endif

const unsigned char *lifelog_sodium_wasm(size_t *length) {
  *length = sodium_wasm_length;
  return sodium_wasm;
}
