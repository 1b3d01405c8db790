#!/usr/bin/env bash
# Formats C++ files with clang-format 14 and the repository's .clang-format: the files given, or
# else the C++ files changed against HEAD (staged, unstaged and untracked). Run before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "format.sh: clang-format is not installed (apt-get install clang-format)" >&2; exit 1; }
if (($#)); then
  files=("$@")
else
  mapfile -t files < <({ git diff --name-only HEAD; git ls-files --others --exclude-standard; } |
                       grep -E '\.(cpp|h)$' | sort -u | while read -r f; do [[ -f $f ]] && echo "$f"; done)
fi
((${#files[@]})) || exit 0
clang-format -i "${files[@]}"
echo "format.sh: formatted ${#files[@]} file(s)"
