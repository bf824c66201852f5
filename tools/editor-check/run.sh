#!/usr/bin/env bash
# Tries docs/editors.md's recipes in the editors installed here, headless
# (not part of .ci/run): each opens fixtures/lsp/unicode.yaml with
# `heatcap lsp` and writes the diagnostics it shows; they are printed
# beside `heatcap validate`'s. Neovim's columns are bytes, Emacs' and
# heatcap's characters (the line has non-ASCII text before the finding).
#
#     tools/editor-check/run.sh [DIRECTORY-OF-HEATCAP]   (default target/debug)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=$(cd "${1:-$repo/target/debug}" && pwd)
export PATH="$bin:$PATH"
work=$(mktemp -d "${TMPDIR:-/tmp}/heatcap-editors.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$repo/fixtures/lsp/unicode.yaml" "$work/"
cd "$work"
echo "== heatcap validate"
heatcap validate --no-config unicode.yaml
echo
if command -v nvim >/dev/null; then
    echo "== $(nvim --version | head -1)"
    OUT="$work/nvim.txt" timeout 30 nvim --headless -u "$here/nvim-0.7.lua" \
        -c "luafile $here/nvim-dump.lua" unicode.yaml
    cat "$work/nvim.txt" 2>/dev/null || echo "(no diagnostics)"
fi
if command -v emacs >/dev/null; then
    echo "== $(emacs --version | head -1)"
    OUT="$work/emacs.txt" timeout 60 emacs --batch -l "$here/eglot.el" unicode.yaml >/dev/null 2>&1
    cat "$work/emacs.txt" 2>/dev/null || echo "(no diagnostics)"
fi
if command -v hx >/dev/null; then
    echo "== $(hx --version)"; hx --health yaml
fi
