#!/usr/bin/env bats
# tests/lore-stub.py, the archive the send check asks: the thread
# b4 prep --manual-reroll asks for, and nothing else.

load helper

setup() {
	common_setup
	D=$BATS_TEST_TMPDIR/mails
	mkdir -p "$D/1-fixes"
	printf 'From: A <a@example.org>\nMessage-Id: <cover@x>\nSubject: [PATCH 0/1] c\n\nText.\n\nchange-id: 20261205-abc-123\n' >"$D/1-fixes/0.eml"
	printf 'From: A <a@example.org>\nMessage-Id: <p1@x>\nIn-Reply-To: <cover@x>\nReferences: <cover@x>\nSubject: [PATCH 1/1] p\n\nFrom the start.\n' >"$D/1-fixes/1.eml"
	PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	python3 "$TOP/tests/lore-stub.py" "$PORT" "$D" 2>"$BATS_TEST_TMPDIR/log" &
	PID=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		rc=0
		ask GET /all/x/t.mbox.gz >/dev/null 2>&1 || rc=$?
		[ "$rc" -eq 7 ] || break
		sleep 0.3
	done
}

teardown() {
	kill "$PID" 2>/dev/null || true
}

# ask METHOD PATH: the response's mbox, ungzipped; exit 7 when the server
# is not up, 4 on an HTTP error
ask() {
	python3 - "$1" "http://127.0.0.1:$PORT$2" <<'PY'
import gzip, sys, urllib.error, urllib.request
try:
    r = urllib.request.urlopen(urllib.request.Request(sys.argv[2], method=sys.argv[1],
                               data=b"x=m" if sys.argv[1] == "POST" else None))
except urllib.error.HTTPError:
    sys.exit(4)
except urllib.error.URLError:
    sys.exit(7)
sys.stdout.write(gzip.decompress(r.read()).decode())
PY
}

@test "lore-stub.py: a thread is its first mail and the mails that reference it" {
	run ask GET /all/cover@x/t.mbox.gz
	[ "$status" -eq 0 ]
	[ "$(grep -c '^From mboxrd@z' <<<"$output")" -eq 2 ]
	[[ "$output" == *"Message-Id: <cover@x>"*"Message-Id: <p1@x>"* ]]
	# a body line beginning with "From " is quoted, as in an mboxrd
	[[ "$output" == *">From the start."* ]]
	run ask GET /all/p1@x/t.mbox.gz
	[ "$(grep -c '^From mboxrd@z' <<<"$output")" -eq 1 ]
}

@test "lore-stub.py: an unknown message or request is 404" {
	run ask GET /all/nothing@x/t.mbox.gz
	[ "$status" -eq 4 ]
	run ask POST '/all/?x=m&q=nq%3A%22change-id%3Anone%22'
	[ "$status" -eq 4 ]
	run ask GET /
	[ "$status" -eq 4 ]
}
