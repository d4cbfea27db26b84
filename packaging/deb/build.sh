#!/bin/sh
# Builds lifelog_<version>_amd64.deb from a release binary with dpkg-deb alone (no debhelper):
# the binary (stripped), its manual page, the bash/zsh/fish completions it prints, the systemd
# units (lifelog-serve@.service, and the user units 'lifelog timer install' writes), the copyright
# file and a Debian changelog made from the version. Depends comes from dpkg-shlibdeps on the
# binary (what every run needs); the libraries lifelog loads with dlopen() only when a feature
# needs them are Recommends and Suggests (docs/deploy.md, "Debian package").
#
#   packaging/deb/build.sh LIFELOG_BINARY OUTPUT_FOLDER      prints the .deb's path
set -eu

binary=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
version=$("$binary" --version | sed -n 's/^lifelog \([0-9][0-9A-Za-z.+~-]*\)$/\1/p')
[ -n "$version" ] || { echo "build.sh: cannot read the version of $binary" >&2; exit 65; }
maintainer="lifelog maintainers <maintainers@users.noreply.a-seed-c0d6a5c8.example>"
# Reproducible: every time stamp is the last commit's (dpkg-deb clamps file times to it too).
commit_time=$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$commit_time}
export SOURCE_DATE_EPOCH

work=$(mktemp -d /tmp/lifelog-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
root="$work/root"
doc="$root/usr/share/doc/lifelog"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$doc" \
  "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d" "$root/lib/systemd/system" \
  "$root/usr/lib/systemd/user"

install -m 0755 "$binary" "$root/usr/bin/lifelog"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/lifelog"
# The toolchain's RUNPATH (/opt/swift/...) has nothing the static-stdlib binary loads.
if objdump -p "$root/usr/bin/lifelog" | grep -q 'R\(UN\)\{0,1\}PATH'; then
  chrpath -d "$root/usr/bin/lifelog" >/dev/null
fi
bin="$root/usr/bin/lifelog"
mkdir -p "$work/shlibs/debian"
printf 'Source: lifelog\n\nPackage: lifelog\nArchitecture: amd64\n' >"$work/shlibs/debian/control"
# A library outside the system's (a Swift runtime .so: not a static-stdlib build) stops it here.
if ldd "$bin" | grep -q 'not found'; then
  echo "build.sh: $binary needs libraries no Debian package provides (use 'make build'):" >&2
  ldd "$bin" | grep 'not found' >&2
  exit 65
fi
shlibs=$(cd "$work/shlibs" && dpkg-shlibdeps -O "$bin")
depends=$(echo "$shlibs" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build.sh: dpkg-shlibdeps found no dependencies" >&2; exit 70; }

"$bin" __manpage | gzip -9n >"$root/usr/share/man/man1/lifelog.1.gz"
"$bin" completion bash >"$root/usr/share/bash-completion/completions/lifelog"
"$bin" completion zsh >"$root/usr/share/zsh/vendor-completions/_lifelog"
"$bin" completion fish >"$root/usr/share/fish/vendor_completions.d/lifelog.fish"

install -m 0644 "$here/lifelog-serve@.service" "$root/lib/systemd/system/"
# The user units are the ones 'lifelog timer install' writes (so they cannot drift from it), made
# by running it against a systemctl that accepts everything, then pointed at /usr/bin/lifelog and
# the user's default log.
mkdir -p "$work/fake" "$work/config"
printf '#!/bin/sh\nexit 0\n' >"$work/fake/systemctl"
chmod 0755 "$work/fake/systemctl"
for job in sync remind; do
  PATH="$work/fake:/usr/bin:/bin" XDG_CONFIG_HOME="$work/config" LIFELOG_DB="$work/unused.db" \
    "$bin" timer install "$job" --every 15m >/dev/null
  case $job in sync) arguments="sync --quiet" ;; remind) arguments="remind --notify" ;; esac
  for suffix in service timer; do
    unit="lifelog-$job.$suffix"
    sed "s|^ExecStart=.*|ExecStart=/usr/bin/lifelog $arguments|" \
      "$work/config/systemd/user/$unit" >"$root/usr/lib/systemd/user/$unit"
  done
done

install -m 0644 "$here/copyright" "$doc/copyright"
{
  echo "lifelog ($version) unstable; urgency=medium"
  echo
  echo "  * lifelog $version, built from its sources with 'make deb'."
  echo
  echo " -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n >"$doc/changelog.gz"


find "$root" -type d -exec chmod 0755 {} +
find "$root/usr/share" "$root/lib" "$root/usr/lib" -type f -exec chmod 0644 {} +
(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z |
  xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)

cat >"$root/DEBIAN/control" <<CONTROL
Package: lifelog
Version: $version
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Recommends: libcurl4 | libcurl3-gnutls, libsodium23, libreadline8, libpangocairo-1.0-0, fonts-dejavu-core, libxlsxwriter4
Suggests: libmicrohttpd12, libpq5, libxml2, libssl3, libqrencode4
Section: utils
Priority: optional
Description: meal and activity log for the command line, with sync
 lifelog keeps a log of meals, exercise, sleep and anything else in one local
 SQLite file: quick to type, with reports of rhythms and targets, import and
 export (CSV, JSON Lines, iCalendar), and sync between machines through a shared
 folder or lifelog's own HTTP server (lifelog serve), optionally end-to-end
 encrypted.
 .
 Features load their libraries only when used: HTTP remotes libcurl,
 encrypted remotes libsodium, the interactive shell readline, the server
 libmicrohttpd, its PostgreSQL store libpq, the QR codes of pair and share
 libqrencode.
CONTROL
chmod 0644 "$root/DEBIAN/control"

mkdir -p "$out"
deb="$out/lifelog_${version}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
