# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="short stress"
requires() { needs qemu-system-x86_64 udevadm fio jq vng; }

# 'make stress' on the smp stage's kernel (if built), CHECK_STRESS_SECONDS (under 5 minutes).
run() {
	local frag=
	[ ! -f "$4/vmkernel.rc" ] || frag=$1/block/tests/.kunitconfig
	STRESS_SECONDS=${CHECK_STRESS_SECONDS:-120} STRESS_OUT=$4/stress STRESS_FRAGMENTS=$frag \
		BSK_COUNTS=$4/stress.counts step tools/stress.sh tip >"$4/stress.log" 2>&1
	result_of_run "$4/stress.counts" "$4/stress.log" $? "short stress, tip kernel ($BASE)" "$BSK_STAGE_T0"
	grep -E '^(PASS|FAIL) ' "$4/stress.log"
	# the guest's reports in the gate's output: the log dir goes with a CI machine
	if [ -s "$4/stress/series-splats.txt" ]; then
		echo "      the kernel's reports ($4/stress/series-splats.txt):"
		head -n 200 "$4/stress/series-splats.txt" | sed 's/^/      | /'
	fi
}
