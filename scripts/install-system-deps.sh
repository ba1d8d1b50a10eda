#!/usr/bin/env bash
# Installs the Debian packages the tests use, when they are missing:
# chromium (browser tests), raptor2-utils (rapper), rasqal-utils (roqet),
# virtuoso-opensource (virtuoso-t and isql-vt: the remote-store tests run against a real Virtuoso 7).
set -eu
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v rapper >/dev/null 2>&1 || need+=(raptor2-utils)
command -v roqet >/dev/null 2>&1 || need+=(rasqal-utils)
command -v virtuoso-t >/dev/null 2>&1 || need+=(virtuoso-opensource)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "missing system packages: ${need[*]} (install them with apt-get as root)" >&2
  exit 0
fi
echo "installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
