#!/usr/bin/env bash
# Debian packages the test suite uses: PostgreSQL (real database tests), Redis (AI workers and
# server nodes sharing games), nginx (the reverse proxy in front of several nodes), Chromium and
# CJK fonts (browser tests of the web client). Installs only what is missing, and only when it can (root
# with apt-get); otherwise it says which tests will be skipped.
set -euo pipefail

missing=()
for package in postgresql redis-server nginx chromium fonts-noto-cjk; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
command -v node >/dev/null || missing+=(nodejs)

[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
    echo "note: missing ${missing[*]} and cannot install them here; the tests needing them skip"
fi
