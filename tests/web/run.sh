#!/usr/bin/env bash
# Runs one web test (web_test.js NAME) with Node.js; skipped (77) where Node.js is missing.
command -v node >/dev/null || { echo "SKIPPED: Node.js is missing (scripts/install-deps.sh --web)"; exit 77; }
exec node "$(dirname "$0")/web_test.js" "$@"
