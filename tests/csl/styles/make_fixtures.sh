#!/usr/bin/env bash
# make_fixtures.sh - regenerate the citeproc-js parity fixtures in tests/csl/styles/fixtures/.
#
# Run from the repository root, with ../shared beside it and the reference npm packages
# installed (bash ../shared/tools/setup-js.sh):
#
#   bash tests/csl/styles/make_fixtures.sh
#
# Inputs (CSL-JSON item lists, one fixture set each):
#   samples/varied.json                          -> set "varied"
#   tests/csl/styles/fixtures/inputs/NAME.json   -> set "NAME" (the seed profiles, made with
#                                                   `refbridge convert samples/NAME.profile.txt --to csl-json`
#                                                   and kept here so later converter changes do not move them)
# For every style in STYLES and every set it writes
#   fixtures/STYLE/SET.txt   = node ../shared/tools/csl-reference.js ../shared/csl/STYLE.csl SET.json text --cite
#   fixtures/STYLE/SET.html  = node ../shared/tools/csl-reference.js ../shared/csl/STYLE.csl SET.json html --cite
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
SHARED="${REFBRIDGE_SHARED:-$ROOT/../shared}"
export NODE_PATH="${NODE_PATH:-$HOME/.cache/refbridge-reference-js/node_modules}"
FIXTURES="$ROOT/tests/csl/styles/fixtures"
STYLES=(apa ieee chicago-author-date modern-language-association harvard-cite-them-right
        vancouver nlm-citation-sequence nature association-for-computing-machinery)

declare -A SETS=([varied]="$ROOT/samples/varied.json")
for input in "$FIXTURES"/inputs/*.json; do
    [ -e "$input" ] || continue
    SETS[$(basename "$input" .json)]="$input"
done

for style in "${STYLES[@]}"; do
    mkdir -p "$FIXTURES/$style"
    for set in "${!SETS[@]}"; do
        for format in text html; do
            extension=$([ "$format" = text ] && echo txt || echo html)
            node "$SHARED/tools/csl-reference.js" "$SHARED/csl/$style.csl" "${SETS[$set]}" "$format" --cite \
                > "$FIXTURES/$style/$set.$extension"
        done
    done
done
node -e "console.log('citeproc-js ' + require('citeproc').PROCESSOR_VERSION)" > "$FIXTURES/VERSION"
