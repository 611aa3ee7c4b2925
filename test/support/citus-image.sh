#!/usr/bin/env bash
# Assembles a local stand-in for the official citusdata/citus image, for machines that can run
# containers but reach no image registry: a Debian bookworm root file system (debootstrap),
# PostgreSQL from Debian inside it, the citus extension files copied from THIS machine's
# PostgreSQL installation (nothing is built), and an entrypoint that behaves like the postgres
# image's one that citusdata/citus builds on (POSTGRES_PASSWORD / POSTGRES_HOST_AUTH_METHOD,
# port 5432, citus in shared_preload_libraries, CREATE EXTENSION citus at initdb).
#
#   test/support/citus-image.sh [tag]     (default tag: localhost/citus-migrate-test/citus:<citus version>)
#   test/support/citus-image.sh --mirrors (prints the Debian mirrors it would use, and exits)
#
# Needs root, debootstrap, a Debian mirror, and podman (or CONTAINER_ENGINE=docker). Idempotent:
# does nothing when the tag exists. The host's PostgreSQL major must be the one Debian bookworm
# ships (15), so the copied extension matches the server inside the image.
set -euo pipefail

ENGINE=${CONTAINER_ENGINE:-podman}
PG_CONFIG=${PG_CONFIG:-pg_config}
APT_ETC=${APT_ETC:-/etc/apt}
# Whatever fails says where and what (set -e alone ends the script without a word).
trap 'echo "citus-image: failed (exit $?) at line $LINENO: $BASH_COMMAND" >&2' ERR
# The Debian mirrors this machine's apt uses (deb822 .sources, Debian 12's only format by default,
# or one-line .list files), unless given. Files that are not there are skipped, not an error.
apt_uris() {
  local f
  for f in "$APT_ETC"/sources.list.d/*.sources; do
    if [ -f "$f" ]; then sed -nE 's/^URIs:[[:space:]]*//p' "$f" | tr ' ' '\n'; fi
  done
  for f in "$APT_ETC"/sources.list "$APT_ETC"/sources.list.d/*.list; do
    if [ -f "$f" ]; then awk '$1 == "deb" { print $2 }' "$f"; fi
  done
}
# The first mirror that is (security) or is not (main) a security one; empty when there is none.
first_uri() {
  apt_uris | awk -v security="$1" 'NF && !found && ((security == "yes") == ($0 ~ /-security/)) { print; found = 1 }'
}
MIRROR=${DEBIAN_MIRROR:-$(first_uri no)}
SECURITY_MIRROR=${DEBIAN_SECURITY_MIRROR:-$(first_uri yes)}
[ -n "$MIRROR" ] && [ -n "$SECURITY_MIRROR" ] || { echo "citus-image: no Debian mirror found in $APT_ETC (sources.list, sources.list.d/*.list or *.sources): set DEBIAN_MIRROR and DEBIAN_SECURITY_MIRROR" >&2; exit 1; }
if [ "${1:-}" = --mirrors ]; then
  echo "$MIRROR $SECURITY_MIRROR"
  exit 0
fi
SUITE=bookworm

pkglib=$("$PG_CONFIG" --pkglibdir)
share=$("$PG_CONFIG" --sharedir)
major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
control="$share/extension/citus.control"
[ -f "$control" ] && [ -f "$pkglib/citus.so" ] || { echo "citus-image: the citus extension is not installed in $pkglib / $share/extension" >&2; exit 1; }
version=$(sed -nE "s/^default_version = '([0-9]+\.[0-9]+).*/\1/p" "$control")
tag=${1:-localhost/citus-migrate-test/citus:$version}

if "$ENGINE" image inspect "$tag" >/dev/null 2>&1; then
  echo "citus-image: $tag exists"
  exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "citus-image: run as root (debootstrap and chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "citus-image: install debootstrap" >&2; exit 1; }

root=$(mktemp -d)
cleanup() {
  for m in proc dev/pts dev sys; do mountpoint -q "$root/$m" && umount -l "$root/$m"; done
  rm -rf "$root"
}
trap cleanup EXIT

echo "citus-image: debootstrap $SUITE into $root ..." >&2
debootstrap --variant=minbase "$SUITE" "$root" "$MIRROR" >&2

# Install PostgreSQL without starting anything or creating Debian's "main" cluster.
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
mkdir -p "$root/etc/postgresql-common"
echo 'create_main_cluster = false' > "$root/etc/postgresql-common/createcluster.conf"
# The server must be the same minor release as the host's, which the extension was built against
# (a newer minor adds symbols citus.so uses): updates and security suites, and the host's version.
cat > "$root/etc/apt/sources.list" <<SOURCES
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
deb $SECURITY_MIRROR $SUITE-security main
SOURCES
want="postgresql-$major"
host_version=$(dpkg-query -W -f='${Version}' "postgresql-$major" 2>/dev/null || true)
[ -n "$host_version" ] && want="postgresql-$major=$host_version"
mount -t proc proc "$root/proc"
chroot "$root" apt-get update -q >&2
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$want" >&2
umount "$root/proc"
rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"*.bin "$root/var/cache/apt/archives/"*.deb "$root/usr/share/doc" "$root/usr/share/man" "$root/usr/sbin/policy-rc.d"

# The extension files, from this machine's installation.
inside_lib=$(chroot "$root" "/usr/lib/postgresql/$major/bin/pg_config" --pkglibdir 2>/dev/null || echo "/usr/lib/postgresql/$major/lib")
cp -a "$pkglib"/citus*.so "$root$inside_lib/"
[ -d "$pkglib/citus_decoders" ] && cp -a "$pkglib/citus_decoders" "$root$inside_lib/"
cp -a "$share"/extension/citus* "$root/usr/share/postgresql/$major/extension/"

# As the official image: citus preloaded, listening on every address, the extension created at initdb.
mkdir -p "$root/docker-entrypoint-initdb.d" "$root/var/lib/postgresql/data" "$root/var/run/postgresql"
echo 'CREATE EXTENSION citus;' > "$root/docker-entrypoint-initdb.d/001-create-citus-extension.sql"
cat > "$root/usr/local/bin/docker-entrypoint.sh" <<'ENTRYPOINT'
#!/usr/bin/env bash
# A small version of the postgres image's docker-entrypoint.sh (what citusdata/citus runs).
set -Eeo pipefail
if [ "${1:0:1}" = '-' ]; then set -- postgres "$@"; fi
if [ "$1" = postgres ] && [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  # As gosu in the official image: HOME is the postgres user's (libpq looks in ~/.postgresql).
  HOME=$(getent passwd postgres | cut -d: -f6)
  export HOME
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  user=${POSTGRES_USER:-postgres}
  if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "${POSTGRES_HOST_AUTH_METHOD:-}" != trust ]; then
    echo 'Error: Database is uninitialized and superuser password is not specified.' >&2
    echo '       Set POSTGRES_PASSWORD, or POSTGRES_HOST_AUTH_METHOD=trust.' >&2
    exit 1
  fi
  # shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a list of words, as in the official image
  initdb --username="$user" --pwfile=<(printf '%s\n' "${POSTGRES_PASSWORD:-}") ${POSTGRES_INITDB_ARGS:-}
  auth=${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}
  printf "\nlisten_addresses = '*'\nshared_preload_libraries = 'citus'\n" >> "$PGDATA/postgresql.conf"
  printf '\nhost all all all %s\n' "$auth" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p 5432" -w start
  db=${POSTGRES_DB:-$user}
  if [ "$db" != postgres ]; then psql -v ON_ERROR_STOP=1 -U "$user" -d postgres -c "CREATE DATABASE \"$db\""; fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sql) psql -v ON_ERROR_STOP=1 -U "$user" -d "$db" -f "$f" ;;
      *.sh) . "$f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop
  echo 'PostgreSQL init process complete; ready for start up.'
fi
exec "$@"
ENTRYPOINT
chmod +x "$root/usr/local/bin/docker-entrypoint.sh"

echo "citus-image: importing $tag ..." >&2
tar -C "$root" --numeric-owner -c . | "$ENGINE" import \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
  --change 'CMD ["postgres"]' \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/postgresql/$major/bin" \
  --change 'ENV PGDATA=/var/lib/postgresql/data' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'EXPOSE 5432' \
  --change 'STOPSIGNAL SIGINT' \
  - "$tag" >&2
echo "citus-image: built $tag"
