#!/usr/bin/env bash
# The system parts `make test` needs besides Rust and Node: Chromium (browser tests), Postfix's smtp-sink (a real SMTP
# server; the Postfix daemon is never started), Dovecot (a real IMAP server, started by the tests on their own port),
# SpamAssassin (the pre-launch spam check scores real messages with its local rules; spamd is never started),
# the sqlite3 shell (a browser test moves a recorded time into the past in the app's database), Prometheus's promtool
# (checks and unit tests of the alert rules and the scrape config; the Prometheus daemon is never started),
# docker-compose (to check the compose file; no engine is needed) and a PostgreSQL server on 127.0.0.1:5432 (every
# database test runs on it as well as on SQLite). As root with apt, what is missing is installed and PostgreSQL is
# started; otherwise this stops at once, naming what is missing and how to install it. With `--bench` (`make bench`),
# also wrk, the HTTP load generator of the tracking benchmark.
set -euo pipefail
# smtp-sink and dovecot live in /usr/sbin, which a user's PATH may not have.
export PATH="$PATH:/usr/sbin:/sbin"

CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
PG_PORT=5432

postgres_answers() {
  pg_isready -q -h 127.0.0.1 -p "$PG_PORT" 2>/dev/null || (exec 3<>"/dev/tcp/127.0.0.1/$PG_PORT") 2>/dev/null
}

compose_present() {
  docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null 2>&1
}

# Missing parts as "command:package" pairs.
missing=()
[ -x "$CHROMIUM_PATH" ] || missing+=("chromium:chromium")
command -v smtp-sink >/dev/null 2>&1 || missing+=("smtp-sink:postfix")
command -v dovecot >/dev/null 2>&1 || missing+=("dovecot:dovecot-imapd")
command -v spamassassin >/dev/null 2>&1 || missing+=("spamassassin:spamassassin")
command -v sqlite3 >/dev/null 2>&1 || missing+=("sqlite3:sqlite3")
command -v promtool >/dev/null 2>&1 || missing+=("promtool:prometheus")
compose_present || missing+=("docker-compose:docker-compose")
command -v pg_isready >/dev/null 2>&1 || missing+=("pg_isready:postgresql-client")
if [ "${1:-}" = "--bench" ]; then command -v wrk >/dev/null 2>&1 || missing+=("wrk:wrk"); fi
if ! postgres_answers && ! ls /etc/postgresql >/dev/null 2>&1; then
  missing+=("postgresql:postgresql")
fi

if [ ${#missing[@]} -gt 0 ]; then
  packages=("${missing[@]#*:}")
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing what the tests need: ${packages[*]}"
    apt-get update -qq
    # Postfix asks how to deliver mail: it delivers none here.
    echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
    # No daemon starts on install (Prometheus's would take port 9090): the tests start what they use.
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
  else
    echo "make test needs these and cannot install them (it installs them itself when run as root with apt):" >&2
    for entry in "${missing[@]}"; do echo "  ${entry%%:*} (Debian package ${entry#*:})" >&2; done
    echo "Install them with: sudo apt-get install ${packages[*]}" >&2
    exit 1
  fi
fi

# A PostgreSQL server on loopback that lets the tests create their databases.
if ! postgres_answers; then
  if [ "$(id -u)" -ne 0 ] || ! command -v pg_ctlcluster >/dev/null 2>&1; then
    echo "No PostgreSQL server answers on 127.0.0.1:$PG_PORT: start one (as root: pg_ctlcluster <version> main start)." >&2
    exit 1
  fi
  version="$(ls /etc/postgresql | sort -V | tail -1)"
  hba="/etc/postgresql/$version/main/pg_hba.conf"
  # The tests connect as postgres without a password, from loopback only.
  grep -q "^host all postgres 127.0.0.1/32 trust" "$hba" || sed -i "1i host all postgres 127.0.0.1/32 trust" "$hba"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 50); do postgres_answers && break; sleep 0.2; done
  postgres_answers || { echo "PostgreSQL $version did not start" >&2; exit 1; }
fi
echo "System parts for the tests: present"
