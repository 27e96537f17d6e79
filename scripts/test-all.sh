#!/usr/bin/env bash
# npm test - the whole suite, on a fresh machine of this kind: installs what is missing
# (npm packages; Chromium, PostgreSQL 15 and the legacy SOAP clients from Debian), then
# typecheck, lint, Vitest on PGlite and a throwaway PostgreSQL, a production build, and
# Playwright against that build. Stops at the first failing step.
set -euo pipefail
cd "$(dirname "$0")/.."

# Nothing in the suite may call out: Next's anonymous telemetry stays off.
export NEXT_TELEMETRY_DISABLED=1

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "npm ci"
  npm ci
fi
[ -f lib/generated/prisma/client.ts ] || node scripts/prisma-generate.mjs

# Debian packages the suite needs: a browser for Playwright, PostgreSQL 15, and real
# legacy SOAP clients for the interop tests (PHP SoapClient, Python zeep and suds,
# Java Axis 1.4, .NET wsdl proxies on Mono).
missing=()
for pkg in chromium php-cli php-soap python3-zeep python3-suds libaxis-java mono-devel; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
command -v javac >/dev/null 2>&1 || missing+=(default-jdk-headless)
[ -x /usr/lib/postgresql/15/bin/initdb ] || missing+=(postgresql-15)
if [ ${#missing[@]} -gt 0 ]; then
  step "apt-get install ${missing[*]}"
  if [ "$(id -u)" != 0 ]; then echo "need root to install: ${missing[*]}" >&2; exit 1; fi
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

step "typecheck"
npx tsc --noEmit

step "lint and layout"
npx eslint . --max-warnings 0
node scripts/layout/check.mjs

step "unit and integration tests (PGlite and PostgreSQL 15)"
CI=${CI:-} scripts/with-postgres.sh npx vitest run

step "production build"
rm -rf .next-e2e
NEXT_DIST_DIR=.next-e2e npx next build

step "end-to-end (Playwright, Chromium, production build)"
NEXT_DIST_DIR=.next-e2e npx playwright test

step "all passed"
