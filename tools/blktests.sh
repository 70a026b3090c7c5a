#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# blktests.sh [base|series|rfc|tip...] - 'make blktests': blktests on each kernel (default base
# and series) in a virtme-ng guest, compared in summary.md (tools/lib/blktests.awk); docs/blktests.md.
set -euo pipefail
# shellcheck source=lib/vm.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/vm.sh"

kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=(base series)
for k in "${kernels[@]}"; do
	case $k in base|series|rfc|tip) ;; *) die "usage: blktests.sh [base|series|rfc|tip...] (not '$k')" ;; esac
done
src=${BLKTESTS:-$(cd "$BSK_TOP/.." && pwd)/shared/blktests}
[ -n "${BLKTESTS:-}" ] || [ -d "$src" ] ||
	die "no blktests: git clone https://github.com/linux-blktests/blktests and run 'make blktests BLKTESTS=/path/to/blktests'"
{ [ -x "$src/check" ] && [ -d "$src/tests/block" ]; } ||
	die "BLKTESTS=$src is not a blktests tree (no check script and tests/block there)"
src=$(cd "$src" && pwd)
timeout=${BLKTESTS_TIMEOUT:-10} boot_limit=${BLKTESTS_BOOT_LIMIT:-600} # check_settings (lib/vm.sh) checked them
sched=${BLKTESTS_SCHEDULER:-}
read -r -a tests <<<"${BLKTESTS_TESTS:-block}"
[ ${#tests[@]} -gt 0 ] || die "BLKTESTS_TESTS is empty"
bc=$BSK_CACHE/blktests bt=$bc/tree
"$BSK_TOP/tools/env/blktests-tree.sh" "$src" "$bt"
zoned=0
for t in "${tests[@]}"; do
	[ -e "$bt/tests/$t" ] || die "BLKTESTS_TESTS: no test or group '$t' in $src/tests"
	case $t in zbd | zbd/*) zoned=1 ;; esac
done
scratch="/dev/scratch /dev/scratch-md"
[ "$zoned" = 0 ] || scratch+=" /dev/scratch-zns"
out=$(out_dir BLKTESTS_OUT blktests)
vm_setup blktests
fio=$("$BSK_TOP/tools/env/fio.sh")

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
# Against the base's UAPI headers (blktests' miniublk needs newer ones than
# Debian 12's); with bash as make's shell, or src/Makefile skips miniublk.
read -r _ wt _ < <("$BSK_TOP/tools/env/tree.sh") || exit 1
make -s -C "$wt" O="$bc/hdr" ARCH=x86_64 INSTALL_HDR_PATH="$bc/uapi" headers_install >"$bc/build.log" 2>&1 ||
	die "headers_install of the base failed (see $bc/build.log)"
make -C "$bt" -j"$(nproc)" SHELL=/bin/bash CFLAGS="-I$bc/uapi/include" >>"$bc/build.log" 2>&1 ||
	die "blktests does not build (see $bc/build.log)"
if skipped=$(grep -h '^Skip ' "$bc/build.log"); then info "blktests built without some helpers: $skipped"; fi
stage_end

for k in "${kernels[@]}"; do
	kimg=$(vm_kernel "guest kernel for blktests: $k" "$k" "$BSK_TOP/configs/blktests.config")
	stage "blktests ${tests[*]} on the $k kernel"
	rm -rf "$out/$k.txt" "$out/$k-results" "$out/$k-dmesg.txt" "$out/$k-console-verbose.log"
	disk=$bc/disk-$k.img mdisk=$bc/disk-$k-md.img zdisk=$bc/disk-$k-zns.img
	rm -f "$disk" "$mdisk" "$zdisk"
	truncate -s 2G "$disk"
	truncate -s 1G "$mdisk"
	# the second disk: type 1 PI in 8 bytes of metadata per block (block/041, block/043)
	md_opts="-drive file=$mdisk,if=none,id=scratchmd,format=raw -device pcie-root-port,id=rp1,chassis=2,slot=2"
	md_opts+=" -device nvme,id=nvmemd,serial=blktests-md,bus=rp1 -device nvme-ns,drive=scratchmd,bus=nvmemd,ms=8,mset=0,pi=1"
	# the zoned disk, for zbd: every zone sequential-write-required
	if [ "$zoned" = 1 ]; then
		truncate -s 1G "$zdisk"
		md_opts+=" -drive file=$zdisk,if=none,id=scratchzns,format=raw -device pcie-root-port,id=rp2,chassis=3,slot=3"
		md_opts+=" -device nvme,id=nvmezns,serial=blktests-zns,bus=rp2 -device nvme-ns,drive=scratchzns,bus=nvmezns,zoned=true,zoned.zone_size=64M"
	fi
	# twice at most: a guest that has not started its script within $boot_limit s
	# is killed by the watchdog (by pid file, leaving a mark) and booted again, verbose
	pidf=$bc/qemu-$k.pid mark=$bc/watchdog-$k
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
		vm_run "$log" '^blktests: |\[(passed|failed|not run)\]$' timeout 7200 "$vng" --user root --disable-kvm \
			--cpus 4 --memory 2G $verbose --rwdir "$out" --rwdir "$bt" -r "$kimg" --append "kunit.enable=0" \
			--qemu-opts="-pidfile $pidf -drive file=$disk,if=none,id=scratch,format=raw -device pcie-root-port,id=rp0,chassis=1,slot=1 -device nvme,serial=blktests,drive=scratch,bus=rp0 $md_opts" \
			--exec "SCRATCH='$scratch' SCHED='$sched' tools/vm/blktests.sh $bt $out $k $timeout $fio ${tests[*]}; reboot -f"
		{ kill "$watchdog"; wait "$watchdog"; } 2>/dev/null || true
		trap - EXIT
		[ -e "$mark" ] || [ ! -s "$log" ] || break
		[ -n "$verbose" ] && break
		why="printed nothing"
		[ ! -e "$mark" ] || why="did not start tools/vm/blktests.sh within $boot_limit s"
		info "the $k guest $why; booting it again, verbose ($out/$k-console-verbose.log)"
	done
	rm -f "$pidf" "$mark" "$disk" "$mdisk" "$zdisk"
	stage_end
	tail -n 1 "$out/$k.txt" 2>/dev/null | grep -qE '^blktests: exit [0-9]+$' ||
		result "$k: blktests ran to its end (see $log)" 1
	# every disk, or the tests on a missing one would go unnoticed
	grep -q "TEST_DEVS=$scratch," "$out/$k.txt" 2>/dev/null ||
		result "$k: the scratch disks $scratch found (see the first line of $out/$k.txt)" 1
done

# the tests asked for, a group's one by one
expect=$(cd "$bt/tests" && for t in "${tests[@]}"; do if [ -d "$t" ]; then echo "$t"/[0-9][0-9][0-9]; else echo "$t"; fi; done)
have=()
for k in base series rfc tip; do [ ! -f "$out/$k.txt" ] || have+=("$k"); done
[ ${#have[@]} -gt 0 ] || die "no blktests output in $out"
# report WHAT KERNEL...: blktests.awk's WHAT of those kernels' result files and consoles
report() {
	local what=$1 k files=()
	shift
	for k; do
		mapfile -t -O "${#files[@]}" files < <(cd "$out" && find "$k-results" -type f -regex '.*/[0-9][0-9][0-9]' 2>/dev/null | sort)
		files+=("$k.txt")
	done
	(cd "$out" && gawk -v what="$what" -v names="$*" -v expect="$expect" -f "$BSK_TOP/tools/lib/blktests.awk" "${files[@]}")
}
{
	echo "# blktests: ${have[*]}"
	echo
	echo "blktests $id; ./check ${tests[*]} with TIMEOUT=$timeout (every test, not QUICK_RUN); the guest kernels of"
	echo "tools/env/vmkernel.sh with configs/blktests.config under virtme-ng (QEMU TCG, 4 CPUs, 2 GiB,"
	echo "QEMU NVMe scratch disks as TEST_DEVS: scratch, 2 GiB, and scratch-md, 1 GiB with 8 bytes of"
	echo "metadata per block holding type 1 PI$([ "$zoned" = 0 ] || echo ", and scratch-zns, 1 GiB in 16 sequential zones of 64 MiB")$([ -z "$sched" ] || echo ", each set to $sched before ./check"); $("$fio/fio" --version)); written by \`make blktests\` on $(date -u +%F)."
	echo "Raw output: blktests' result files in $(printf '%s-results/ ' "${have[@]}")(the status of each test), its console in"
	echo "$(printf '%s.txt ' "${have[@]}")and the kernels' logs. A reason cell holds the first lines blktests prints under"
	echo "the test (for a failure: the changed lines of its output)."
	echo
	report table "${have[@]}"
} >"$out/summary.md"
while read -r k _ p _ f _ n _ a _ fin; do
	info "$k: $p passed, $f failed, $n not run, $a absent$([ "$fin" = 1 ] || echo ', cut off')"
done < <(report counts "${have[@]}")
for k in "${have[@]:1}"; do
	[ "${have[0]}" = base ] || break
	new=$(report new base "$k")
	[ -z "$new" ] || printf '%s\n' "$new" >&2
	result "$k: no test that passes on the base fails, skips or is missing on the $k kernel ($(grep -c . <<<"$new" || true) do)" \
		"$([ -z "$new" ]; echo $?)"
done
results_at "$out" "summary.md, <kernel>.txt, <kernel>-dmesg.txt" "results/blktests[/<name>]"
results_end
