#!/bin/sh
# Checks a lifelog .deb as a user meets it (docs/testing.md, "Debian package"): lintian reports no
# error (warnings are printed), dpkg installs it into a throwaway root, the installed binary runs
# `--version` and logs an entry with `add`, the binary keeps its hardening (a GNU_RELRO segment,
# a stack that is not executable, position-independent, relocations packed), every file the
# package promises is there, and dpkg removes it again.
#
#   packaging/deb/test.sh lifelog_<version>_amd64.deb
set -eu

deb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fail() { echo "deb test: $*" >&2; exit 1; }

work=$(mktemp -d /tmp/lifelog-deb-test.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM

echo "deb test: lintian $deb"
# --fail-on error: warnings and infos are printed but do not fail the test.
status=0
lintian --fail-on error --tag-display-limit 0 "$deb" >"$work/lintian" 2>&1 || status=$?
grep -v '^running with root' "$work/lintian" || true
[ "$status" = 0 ] || fail "lintian reports errors (status $status)"
root="$work/root"
mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/triggers"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
# --force-depends: the throwaway root has no libc6 or libsqlite3-0 package; the host's libraries
# (which the Depends name) are the ones the binary loads.
dpkg --root="$root" --force-not-root --force-depends --force-script-chrootless \
  --log=/dev/null -i "$deb" >"$work/dpkg.log" 2>&1 ||
  { cat "$work/dpkg.log" >&2; fail "dpkg -i failed"; }
dpkg --root="$root" -s lifelog | grep -q '^Status: install ok installed' || fail "not installed"

bin="$root/usr/bin/lifelog"
version=$(dpkg-deb -f "$deb" Version)
[ "$("$bin" --version)" = "lifelog $version" ] || fail "--version does not say $version"
export LIFELOG_DB="$work/log.db" TZ=UTC LIFELOG_NOW=2026-12-01T08:00:00+00:00
"$bin" add breakfast porridge --tag home >"$work/add.out" || fail "add failed"
grep -q '^Added [0-9a-f]\{8\} breakfast' "$work/add.out" ||
  fail "add printed: $(cat "$work/add.out")"
"$bin" list | grep -q 'porridge' || fail "the entry is not listed"

# The release link (Package.swift) chooses the linker; a different one once dropped GNU_RELRO
# without a word. readelf is in binutils, which building the binary needs anyway.
readelf -lW "$bin" >"$work/segments"
grep -q '^ *GNU_RELRO ' "$work/segments" || fail "the binary has no GNU_RELRO segment"
grep -q '^ *GNU_STACK .* RW  ' "$work/segments" || fail "the binary's stack is executable"
grep -q 'Position-Independent Executable' "$work/segments" || fail "the binary is not PIE"
readelf -SW "$bin" | grep -q ' \.relr\.dyn ' || fail "the binary's relocations are not packed"

for file in usr/share/man/man1/lifelog.1.gz usr/share/bash-completion/completions/lifelog \
  usr/share/zsh/vendor-completions/_lifelog usr/share/fish/vendor_completions.d/lifelog.fish \
  lib/systemd/system/lifelog-serve@.service usr/lib/systemd/user/lifelog-sync.service \
  usr/lib/systemd/user/lifelog-sync.timer usr/lib/systemd/user/lifelog-remind.service \
  usr/lib/systemd/user/lifelog-remind.timer usr/share/doc/lifelog/copyright \
  usr/share/doc/lifelog/changelog.gz; do
  [ -s "$root/$file" ] || fail "$file is missing"
done
gzip -dc "$root/usr/share/man/man1/lifelog.1.gz" | grep -q '^\.TH LIFELOG 1' ||
  fail "no manual page"
grep -q '^ExecStart=/usr/bin/lifelog sync --quiet$' \
  "$root/usr/lib/systemd/user/lifelog-sync.service" ||
  fail "lifelog-sync.service does not run /usr/bin/lifelog"

dpkg --root="$root" --force-not-root --force-depends --force-script-chrootless \
  --log=/dev/null --purge lifelog >/dev/null || fail "dpkg --purge failed"
[ ! -e "$bin" ] || fail "the binary is still there after --purge"
echo "deb test: $(basename "$deb") passed"
