#!/usr/bin/env bash
# Installs onnxruntime-node (onnxruntime's complete CPU build for Node.js) into DIR, once, for
# running a bundle's model.onnx outside this project (tests/client/parity_test.cpp, and
# docs/CLIENTS.md's check of an exported bundle). Safe to run from parallel tests: it locks DIR.
# Its install script would fetch GPU add-ons from a host that may be unreachable, so it is not run
# (--ignore-scripts); the CPU build is complete without it.
set -euo pipefail
dir=${1:?usage: scripts/install-onnxruntime.sh DIR}
version=1.30.0
mkdir -p "$dir"
exec 9>"$dir/.install-lock"
flock 9
module="$dir/node_modules/onnxruntime-node"
if [[ -f $module/package.json ]] && grep -q "\"version\": \"$version\"" "$module/package.json"; then
  exit 0
fi
for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "install-onnxruntime: $tool is missing (apt-get install nodejs npm)" >&2; exit 1; }
done
echo "install-onnxruntime: installing onnxruntime-node@$version with npm into $dir (once)" >&2
if ! timeout 600 npm install --silent --no-audit --no-fund --ignore-scripts --prefix "$dir" \
    "onnxruntime-node@$version" >"$dir/npm.log" 2>&1; then
  echo "install-onnxruntime: npm install onnxruntime-node@$version failed (is the npm registry reachable?); see $dir/npm.log" >&2
  exit 1
fi
node -e "require(process.argv[1])" "$module" || {
  echo "install-onnxruntime: onnxruntime-node installed in $dir but does not load" >&2
  exit 1
}
