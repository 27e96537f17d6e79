#!/usr/bin/env bash
# Generates Axis 1.4 stubs from the live WSDL (WSDL2Java), compiles them with
# AxisClient.java and runs it. Needs Debian's libaxis-java and a JDK (javac).
# Usage: run.sh <baseURL> <apiKey> <idPrefix>
set -euo pipefail
base="$1"; key="$2"; prefix="$3"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
J=/usr/share/java
cp="$J/axis.jar:$J/jaxrpc.jar:$J/saaj.jar:$J/wsdl4j.jar:$J/commons-discovery.jar:$J/commons-logging.jar:$J/javax.activation.jar:$J/javax.mail.jar"
# WSDL2Java prints its progress on stdout: keep stdout for the JSON result only.
java -cp "$cp" org.apache.axis.wsdl.WSDL2Java -o "$work/src" "$base/api/soap?wsdl" >&2
mkdir -p "$work/classes"
javac -nowarn -encoding UTF-8 -d "$work/classes" -cp "$cp" $(find "$work/src" -name '*.java') "$here/AxisClient.java" 2>&1 | grep -v '^Note:' >&2 || true
java -Dfile.encoding=UTF-8 -cp "$cp:$work/classes" AxisClient "$base" "$key" "$prefix"
