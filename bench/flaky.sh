#!/usr/bin/env bash
# Run tests N times in a row and print every failure by test, to prove the suite never
# fails by chance.
#
#   bench/flaky.sh N [--load K] [PYTEST ARGS...]
#
# N        how many runs (each a fresh pytest process)
# --load K run K CPU-burning processes beside the tests for the whole time (a busy machine)
# the remaining arguments go to pytest (default: every test that talks to a server or
# drives the terminal client; pass "tests" for the whole suite).
#
# Exit status: 0 when every run passed, 1 otherwise. Each run's output is kept under
# $FLAKY_DIR (default: a new temporary directory) for the failures' tracebacks.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=${1:?usage: bench/flaky.sh N [--load K] [PYTEST ARGS...]}
shift
load=0
if [[ "${1:-}" == "--load" ]]; then
    load=${2:?--load needs a count}
    shift 2
fi
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(tests/client tests/server/test_server_e2e.py tests/server/test_restart.py
             tests/server/test_leaks.py tests/server/test_fuzz.py tests/server/test_logging.py
             tests/server/session)
fi
python=${PYTHON:-.venv/bin/python}
[[ -x "$python" ]] || python=python3
out=${FLAKY_DIR:-$(mktemp -d -t tyros-flaky-XXXX)}
mkdir -p "$out"

burners=()
stop_burners() { for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null; done; }
trap stop_burners EXIT
for ((i = 0; i < load; i++)); do
    "$python" -c 'while True: pass' &
    burners+=($!)
done

failed_runs=0
for ((run = 1; run <= runs; run++)); do
    log="$out/run-$run.txt"
    start=$SECONDS
    "$python" -m pytest -p no:cacheprovider -rfE "${targets[@]}" >"$log" 2>&1
    status=$?
    summary=$(tail -n 1 "$log")
    echo "run $run/$runs: exit $status in $((SECONDS - start)) s: $summary"
    if [[ $status -ne 0 ]]; then
        failed_runs=$((failed_runs + 1))
        grep -E '^(FAILED|ERROR) ' "$log" | sed 's/^/    /'
    fi
done

echo
echo "$((runs - failed_runs)) of $runs runs passed (load: $load burner(s)); logs in $out"
if [[ $failed_runs -gt 0 ]]; then
    echo "failures by test:"
    cat "$out"/run-*.txt | grep -E '^(FAILED|ERROR) ' | sed -E 's/ - .*//' | sort | uniq -c |
        sort -rn
    exit 1
fi
