#!/usr/bin/env bash
# Builds the web app's libsodium WebAssembly module (docs/web.md, "Encryption") into
# .build/wasm/sodium.wasm, and .build/wasm/sodium.wasm.inc, the bytes that
# Sources/CLifelogWebAssets builds into lifelog serve. Nothing of it is committed.
#
#   scripts/web-wasm.sh
#
# The source is libsodium's own, as PyNaCl 1.5.0's source distribution on PyPI bundles it
# (libsodium 1.0.18, the version Debian 12 ships), fetched with pip, which checks it against its
# SHA-256 before it runs anything of it. Only the files XChaCha20-Poly1305 (IETF) and BLAKE2b need
# are compiled, with Debian's clang, lld, wasi-libc and libclang-rt-dev-wasm32, for wasm32-wasi,
# plus Web/wasm's wrapper that exports them. Rebuilt only when missing or older than its inputs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/.build/wasm"
archive="$out/PyNaCl-1.5.0.tar.gz"
archive_sha256=8ac7448f09ab85811607bdd21ec2464495ac8b7c66d146bf545b0f08fb9220ba
wrapper="$root/Web/wasm/lifelog_sodium_wasm.c"
mkdir -p "$out"

if [[ -f $out/sodium.wasm.inc && $out/sodium.wasm.inc -nt $wrapper && $out/sodium.wasm.inc -nt $0 ]]; then
  exit 0
fi
if [[ ! -f $archive ]] || ! echo "$archive_sha256  $archive" | sha256sum -c --quiet 2>/dev/null; then
  python=$("$root/scripts/python-tools.sh")
  echo "web-wasm: fetching libsodium's source (PyNaCl 1.5.0 from PyPI)" >&2
  # The hash is pip's to check (--require-hashes) before it unpacks the archive: pip prepares a
  # source distribution's metadata by running its build, which must never be code not yet verified.
  "$python" -m pip download --quiet --disable-pip-version-check --no-binary pynacl --no-deps \
    --require-hashes -r <(echo "pynacl==1.5.0 --hash=sha256:$archive_sha256") -d "$out" >&2
  echo "$archive_sha256  $archive" | sha256sum -c --quiet
fi
rm -rf "$out/src"
mkdir -p "$out/src"
tar xzf "$archive" -C "$out/src" PyNaCl-1.5.0/src/libsodium
sodium="$out/src/PyNaCl-1.5.0/src/libsodium/src/libsodium"
mkdir -p "$out/include/sodium"
sed -e 's/@VERSION@/1.0.18/; s/@SODIUM_LIBRARY_VERSION_MAJOR@/10/' \
  -e 's/@SODIUM_LIBRARY_VERSION_MINOR@/3/; s/@SODIUM_LIBRARY_MINIMAL_DEF@//' \
  "$sodium/include/sodium/version.h.in" > "$out/include/sodium/version.h"
sources=(
  crypto_aead/xchacha20poly1305/sodium/aead_xchacha20poly1305.c
  crypto_core/hchacha20/core_hchacha20.c
  crypto_stream/chacha20/stream_chacha20.c crypto_stream/chacha20/ref/chacha20_ref.c
  crypto_onetimeauth/poly1305/onetimeauth_poly1305.c crypto_onetimeauth/poly1305/donna/poly1305_donna.c
  crypto_generichash/blake2b/ref/blake2b-ref.c crypto_generichash/blake2b/ref/blake2b-compress-ref.c
  crypto_generichash/blake2b/ref/generichash_blake2b.c
  crypto_verify/sodium/verify.c sodium/utils.c sodium/runtime.c
)
clang --target=wasm32-wasi -O2 -DCONFIGURED=1 -DNATIVE_LITTLE_ENDIAN=1 -D_GNU_SOURCE \
  -I"$out/include" -I"$sodium/include" -I"$sodium/include/sodium" \
  -nostartfiles -Wl,--no-entry -Wl,--allow-undefined -Wl,--gc-sections -Wl,--strip-all \
  -o "$out/sodium.wasm.tmp" "$wrapper" "${sources[@]/#/$sodium/}"
mv "$out/sodium.wasm.tmp" "$out/sodium.wasm"
# The bytes as C initializers, for Sources/CLifelogWebAssets.
od -An -v -tu1 "$out/sodium.wasm" | tr -s ' \n' ',,' | sed 's/^,//; s/,$//' > "$out/sodium.wasm.inc.tmp"
mv "$out/sodium.wasm.inc.tmp" "$out/sodium.wasm.inc"
echo "web-wasm: built $out/sodium.wasm ($(stat -c %s "$out/sodium.wasm") bytes)" >&2
