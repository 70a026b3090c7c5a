# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="Debian's newest linux-source"
requires() { needs apt-get; }

run() {
	local out
	out=$(tools/gate/newest.sh "$BASE" 2>&1)
	result "$out" $?
}
