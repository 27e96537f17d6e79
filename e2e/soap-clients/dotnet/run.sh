#!/usr/bin/env bash
# Generates a .NET proxy from the live WSDL with Mono's wsdl tool, compiles it with
# Client.cs and runs it. Needs Debian's mono-devel.
# Usage: run.sh <baseURL> <apiKey> <idPrefix>
set -euo pipefail
base="$1"; key="$2"; prefix="$3"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# wsdl prints progress and the WS-I note (rpc/encoded is outside Basic Profile) on stdout.
wsdl "$base/api/soap?wsdl" -out:"$work/Service.cs" >&2
mcs -nologo -nowarn:618 -r:System.Web.Services -out:"$work/client.exe" "$work/Service.cs" "$here/Client.cs" >&2
mono "$work/client.exe" "$base" "$key" "$prefix"
