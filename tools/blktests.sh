#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# blktests.sh [base|series|rfc|tip...] - 'make blktests': blktests, the
# block layer's own regression suite, on the base kernel and on the series
# (default both; rfc: the base with the RFC threads alone; tip: the whole
# series), each in a virtme-ng guest.  Guest side:
# tools/vm/blktests.sh.
#
#   BLKTESTS=dir        a blktests tree (default ../shared/blktests beside
#                       this repository, when it is there); it is copied
#                       into the cache, with patches/blktests/series
#                       applied (tools/env/blktests-tree.sh), and built
#                       there, never written to
#   BLKTESTS_TESTS="block"
#                       what ./check runs: groups or tests
#   BLKTESTS_TIMEOUT=10 seconds of fio per timed test (blktests' TIMEOUT;
#                       every test runs: not QUICK_RUN, which leaves out
#                       the ones marked neither quick nor timed)
#   BLKTESTS_OUT=dir    results (default: a new run directory in the
#                       cache; make promote commits one)
#                       (a run with the zbd group gets a third, zoned,
#                       scratch disk: below)
#   BLKTESTS_BOOT_LIMIT=600
#                       seconds a guest may take to start its script;
#                       after that it is stopped and booted once more,
#                       verbose
#
# Each kernel is tools/env/vmkernel.sh's guest kernel with
# configs/blktests.config (null_blk and scsi_debug as modules, ...),
# booted with four CPUs (block/038 asks null_blk for four submit
# queues, one per CPU at most), 2 GiB and two scratch disks as
# blktests' TEST_DEVS, each QEMU's NVMe in a hot-pluggable PCIe root
# port over a sparse file in the cache: /dev/scratch (2 GiB) and
# /dev/scratch-md (1 GiB, 8 bytes of metadata per block holding type 1
# protection information, for the metadata tests), and, when the tests
# include the zbd group or a test of it, /dev/scratch-zns (1 GiB of 16
# sequential-write-required zones of 64 MiB: a QEMU zoned namespace), with fio from tools/env/fio.sh.  Writes, per kernel,
# <kernel>.txt (blktests' output) and <kernel>-dmesg.txt, and
# summary.md: each test on both kernels, and the reason blktests gives
# for a failure or a skip (tools/lib/blktests.awk).  The series passes
# when no test that passes on the base fails, skips or is absent on it.  Last line:
# "N passed, N failed, N skipped".
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=(base series)
for k in "${kernels[@]}"; do
	case $k in base|series|rfc|tip) ;; *) die "usage: blktests.sh [base|series|rfc|tip...] (not '$k')" ;; esac
done
src=${BLKTESTS:-}
if [ -z "$src" ]; then
	src=$(cd "$BSK_TOP/.." && pwd)/shared/blktests
	[ -d "$src" ] ||
		die "no blktests: git clone https://github.com/linux-blktests/blktests and run 'make blktests BLKTESTS=/path/to/blktests'"
fi
{ [ -x "$src/check" ] && [ -d "$src/tests/block" ]; } ||
	die "BLKTESTS=$src is not a blktests tree (no check script and tests/block there)"
src=$(cd "$src" && pwd)
timeout=${BLKTESTS_TIMEOUT:-10}
[[ $timeout =~ ^[1-9][0-9]*$ ]] || die "BLKTESTS_TIMEOUT=$timeout is not a positive number of seconds"
boot_limit=${BLKTESTS_BOOT_LIMIT:-600}
{ [[ $boot_limit =~ ^[1-9][0-9]{0,5}$ ]] && [ "$boot_limit" -ge 5 ]; } ||
	die "BLKTESTS_BOOT_LIMIT=$boot_limit is not a number of seconds from 5 to 999999"
read -r -a tests <<<"${BLKTESTS_TESTS:-block}"
[ ${#tests[@]} -gt 0 ] || die "BLKTESTS_TESTS is empty"
# The copy in the cache, with this repository's patches to blktests on it
# (patches/blktests/series): one that does not apply stops the run here,
# and the tests they add are there to be named.
bc=$BSK_CACHE/blktests
bt=$bc/tree
"$BSK_TOP/tools/env/blktests-tree.sh" "$src" "$bt"
zoned=0
for t in "${tests[@]}"; do
	[ -e "$bt/tests/$t" ] || die "BLKTESTS_TESTS: no test or group '$t' in $src/tests"
	case $t in zbd | zbd/*) zoned=1 ;; esac
done
# the scratch disks the guest must find (tools/vm/blktests.sh's SCRATCH):
# TEST_DEVS, as its first line says
scratch="/dev/scratch /dev/scratch-md"
[ "$zoned" = 0 ] || scratch+=" /dev/scratch-zns"
out=${BLKTESTS_OUT:-$(run_dir blktests)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

"$BSK_TOP/tools/env/deps.sh" base build vm blktests
vng=$("$BSK_TOP/tools/env/vng.sh")
fio=$("$BSK_TOP/tools/env/fio.sh")
"$BSK_TOP/tools/apply.sh" >/dev/null

# Which blktests: its commit, or the snapshot's own note.
# (its own repository, not one it happens to sit in)
if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$src" ] &&
	id=$(git -C "$src" describe --always --dirty 2>/dev/null); then
	id="git $id"
elif [ -f "$src/SNAPSHOT" ]; then
	id=$(head -n 1 "$src/SNAPSHOT" | cut -d' ' -f1-3 | sed 's/,$//')
else
	id="unversioned tree $src"
fi
[ ! -s "$BSK_TOP/patches/blktests/series" ] || id+=" with patches/blktests/series"

stage "blktests ($id): built in the cache"
need_space 3072 "$BSK_CACHE"
# Against the base's UAPI headers: the machine's linux-libc-dev may be
# older than the interfaces blktests' helpers use (src/miniublk, block/033,
# needs ublk's of v6.4; Debian 12 has 6.1's).  With bash as make's shell:
# src/Makefile tests the ublk header with "echo -e", which a POSIX sh
# (Debian's dash) prints, and so skips miniublk on any headers.
read -r _ wt _ < <("$BSK_TOP/tools/env/tree.sh") || exit 1
make -s -C "$wt" O="$bc/hdr" ARCH=x86_64 INSTALL_HDR_PATH="$bc/uapi" headers_install >"$bc/build.log" 2>&1 ||
	die "headers_install of the base failed (see $bc/build.log)"
make -C "$bt" -j"$(nproc)" SHELL=/bin/bash CFLAGS="-I$bc/uapi/include" >>"$bc/build.log" 2>&1 ||
	die "blktests does not build (see $bc/build.log)"
skipped=$(grep -h '^Skip ' "$bc/build.log" || true)
[ -z "$skipped" ] || info "blktests built without some helpers: $skipped"
stage_end

for k in "${kernels[@]}"; do
	stage "guest kernel for blktests: $k"
	img=$("$BSK_TOP/tools/env/vmkernel.sh" "$k" "$BSK_TOP/configs/blktests.config")
	stage_end
	stage "blktests ${tests[*]} on the $k kernel"
	rm -f "$out/$k.txt" "$out/$k-dmesg.txt" "$out/$k-console-verbose.log"
	rm -rf "$bt/results"
	disk=$bc/disk-$k.img
	mdisk=$bc/disk-$k-md.img
	rm -f "$disk" "$mdisk"
	truncate -s 2G "$disk"
	truncate -s 1G "$mdisk"
	# The second disk: a namespace with 8 bytes of metadata per 512-byte
	# block in a separate buffer, holding type 1 protection information
	# (ms=8, mset=0, pi=1), what block/041 (PI) and block/043 (metadata)
	# ask for, on a controller of its own in its own port.  Not metadata
	# without PI: there block/043 read back zeros for part of the
	# metadata, QEMU 7.2 suspected (MAINTAINERS-notes, "blktests").
	md_opts="-drive file=$mdisk,if=none,id=scratchmd,format=raw -device pcie-root-port,id=rp1,chassis=2,slot=2"
	md_opts+=" -device nvme,id=nvmemd,serial=blktests-md,bus=rp1 -device nvme-ns,drive=scratchmd,bus=nvmemd,ms=8,mset=0,pi=1"
	# The zoned disk, for zbd: a zoned namespace on a controller of its
	# own, every zone sequential-write-required (QEMU has no conventional
	# zones), no limit on open or active zones.
	zdisk=$bc/disk-$k-zns.img
	rm -f "$zdisk"
	if [ "$zoned" = 1 ]; then
		truncate -s 1G "$zdisk"
		md_opts+=" -drive file=$zdisk,if=none,id=scratchzns,format=raw -device pcie-root-port,id=rp2,chassis=3,slot=3"
		md_opts+=" -device nvme,id=nvmezns,serial=blktests-zns,bus=rp2 -device nvme-ns,drive=scratchzns,bus=nvmezns,zoned=true,zoned.zone_size=64M"
	fi
	# Twice at most: a guest whose script never started is booted once
	# more, with its kernel's messages on the console.  Seen: twice in
	# some ten boots (2026-12-04) back after about 10 s, its console
	# empty; once (2026-12-05) its four vCPUs spinning for 17 minutes,
	# its disks untouched, where a boot takes 20 s to 2 minutes.  So a
	# guest that has not started the script after $boot_limit s is
	# stopped: the watchdog kills its QEMU (by QEMU's pid file) and
	# leaves a mark; it then sleeps until it is killed, so that its pid
	# stays its own.
	pidf=$bc/qemu-$k.pid
	mark=$bc/watchdog-$k
	log=
	for verbose in "" --verbose; do
		rm -f "$pidf" "$mark" "$out/$k.txt"
		(
			for _ in $(seq $((boot_limit / 5))); do
				sleep 5
				[ ! -e "$out/$k.txt" ] || exec sleep 86400
			done
			: >"$mark"
			[ ! -s "$pidf" ] || kill "$(cat "$pidf")" 2>/dev/null
			exec sleep 86400
		) &
		watchdog=$!
		trap 'kill "$watchdog" 2>/dev/null' EXIT
		log=$out/$k-console${verbose:+-verbose}.log
		(cd "$BSK_TOP" && timeout 7200 "$vng" --user root --disable-kvm --cpus 4 --memory 2G $verbose \
			--rwdir "$out" --rwdir "$bt" -r "$img" \
			--qemu-opts="-pidfile $pidf -drive file=$disk,if=none,id=scratch,format=raw -device pcie-root-port,id=rp0,chassis=1,slot=1 -device nvme,serial=blktests,drive=scratch,bus=rp0 $md_opts" \
			--append "kunit.enable=0" \
			--exec "SCRATCH='$scratch' tools/vm/blktests.sh $bt $out $k $timeout $fio ${tests[*]}; reboot -f") 2>&1 |
			tee "$log" |
			grep --line-buffered -E '^blktests: |\[(passed|failed|not run)\]$' || true
		kill "$watchdog" 2>/dev/null || true
		wait "$watchdog" 2>/dev/null || true
		trap - EXIT
		[ -e "$mark" ] || [ ! -s "$log" ] || break
		[ -n "$verbose" ] && break
		if [ -e "$mark" ]; then
			info "the $k guest did not start tools/vm/blktests.sh within $boot_limit s; booting it again, verbose ($out/$k-console-verbose.log)"
		else
			info "the $k guest printed nothing; booting it again, verbose ($out/$k-console-verbose.log)"
		fi
	done
	rm -f "$pidf" "$mark"
	rm -f "$disk" "$mdisk" "$zdisk"
	stage_end
	tail -n 1 "$out/$k.txt" 2>/dev/null | grep -qE '^blktests: exit [0-9]+$' ||
		result "$k: blktests ran to its end (see $log)" 1
	# Every disk, or the tests on a missing one would be gone unnoticed.
	grep -q "TEST_DEVS=$scratch," "$out/$k.txt" 2>/dev/null ||
		result "$k: the scratch disks $scratch found (see the first line of $out/$k.txt)" 1
done

# The tests asked for, by name: a group's, or one test.
expect=()
for t in "${tests[@]}"; do
	if [ -d "$bt/tests/$t" ]; then
		for f in "$bt/tests/$t"/[0-9][0-9][0-9]; do expect+=("$t/${f##*/}"); done
	else
		expect+=("$t")
	fi
done
# The kernels side by side, from each kernel's latest run.
have=()
for k in base series rfc tip; do [ ! -f "$out/$k.txt" ] || have+=("$k"); done
[ ${#have[@]} -gt 0 ] || die "no blktests output in $out"
files=()
for k in "${have[@]}"; do files+=("$out/$k.txt"); done
{
	echo "# blktests: ${have[*]}"
	echo
	echo "blktests $id; ./check ${tests[*]} with TIMEOUT=$timeout (every test, not QUICK_RUN); the guest kernels of"
	echo "tools/env/vmkernel.sh with configs/blktests.config under virtme-ng (QEMU TCG, 4 CPUs, 2 GiB,"
	echo "QEMU NVMe scratch disks as TEST_DEVS: scratch, 2 GiB, and scratch-md, 1 GiB with 8 bytes of"
	echo "metadata per block holding type 1 PI$([ "$zoned" = 0 ] || echo ", and scratch-zns, 1 GiB in 16 sequential zones of 64 MiB"); $("$fio/fio" --version)); written by \`make blktests\` on $(date -u +%F)."
	echo "Raw output: $(printf '%s.txt ' "${have[@]}")and the kernels' logs beside it. A reason cell holds the"
	echo "first lines blktests prints under the test (for a failure: the changed lines of its output)."
	echo
	awk -v names="${have[*]}" -v expect="${expect[*]}" -v what=table -f "$BSK_TOP/tools/lib/blktests.awk" "${files[@]}"
} >"$out/summary.md"
while read -r k _ p _ f _ n _ a _ fin; do
	info "$k: $p passed, $f failed, $n not run, $a absent$([ "$fin" = 1 ] || echo ', cut off')"
done < <(awk -v names="${have[*]}" -v expect="${expect[*]}" -v what=counts -f "$BSK_TOP/tools/lib/blktests.awk" "${files[@]}")
for k in "${have[@]:1}"; do
	[ "${have[0]}" = base ] || break
	new=$(awk -v names="base $k" -v expect="${expect[*]}" -v what=new -f "$BSK_TOP/tools/lib/blktests.awk" "$out/base.txt" "$out/$k.txt")
	[ -z "$new" ] || printf '%s\n' "$new" >&2
	result "$k: no test that passes on the base fails, skips or is missing on the $k kernel ($(grep -c . <<<"$new" || true) do)" \
		"$([ -z "$new" ]; echo $?)"
done
info "results in $out (summary.md, <kernel>.txt, <kernel>-dmesg.txt)"
info "to commit them: make promote RUN=$out TO=results/blktests[/<name>]"
results_end
