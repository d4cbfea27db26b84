/*
 * libFuzzer's driver, for lifelog-fuzz (docs/testing.md).
 *
 * SwiftPM gives an executable its own `main` (it renames the entry point so tests can link the
 * executable), so libFuzzer's `main` is never the one that runs. lifelog-fuzz's Swift entry point
 * calls the driver instead; libFuzzer (linked by -sanitize=fuzzer) defines it.
 */
#ifndef LIFELOG_FUZZ_H
#define LIFELOG_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
