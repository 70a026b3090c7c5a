# SPDX-License-Identifier: GPL-2.0
# What the VM tools share: the settings checked, a run directory, guest kernels, a boot, plots, S3.
# shellcheck shell=bash disable=SC2034 # vng, kernels, img: for the caller
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
check_settings

# out_dir VAR NAME: the directory $VAR names, else a new run directory; absolute
out_dir() {
	local d=${!1:-}
	[ -n "$d" ] || d=$(run_dir "$2")
	mkdir -p "$d" && (cd "$d" && pwd)
}

# vm_setup [DEPS...]: dependencies, virtme-ng in $vng, the series applied
# shellcheck disable=SC2120 # DEPS are optional
vm_setup() {
	"$BSK_TOP/tools/env/deps.sh" base build vm "$@"
	vng=$("$BSK_TOP/tools/env/vng.sh")
	"$BSK_TOP/tools/apply.sh" >/dev/null
}

# vm_kernel LABEL KIND [FRAGMENT...]: build a guest kernel as a stage; its image
vm_kernel() {
	stage "$1"
	shift
	"$BSK_TOP/tools/env/vmkernel.sh" "$@" || return
	stage_end
}

# vm_kernels: base, series and (with RFC threads) rfc in kernels[], their images in img[]
vm_kernels() {
	local k
	kernels=(base series)
	[ "$(series_rfc_count "$(bsk_series)")" -eq 0 ] || kernels+=(rfc)
	declare -gA img
	for k in "${kernels[@]}"; do img[$k]=$(vm_kernel "guest kernel: $k" "$k"); done
}

# vm_run LOG ERE CMD...: CMD (vng ...) from the top directory into LOG, ERE lines shown
vm_run() {
	local log=$1 ere=$2
	shift 2
	(cd "$BSK_TOP" && "$@") 2>&1 | tee "$log" | grep --line-buffered -E "$ere" || true
}

# results_at OUT WHAT TO: where the results are and how to commit them
results_at() {
	info "results in $1 ($2)"
	info "to commit them: make promote RUN=$1 TO=$3"
}

# plot PNG W,H GNUPLOT-LINE...: make bench's plots, one terminal and look
plot() {
	printf '%s\n' "set terminal pngcairo size $2 noenhanced font ',9'" "set output '$1'" \
		'set style fill solid 0.6 border -1' "${@:3}" | gnuplot
}

# S3 of make bench and make s3-trace (many small files): its device, and its ext4 image made once per job file
S3_CMDLINE="scsi_debug.dev_size_mb=384 scsi_debug.max_queue=64 scsi_debug.ndelay=5000000 scsi_debug.submit_queues=1"
s3_image() {
	local job=$BSK_TOP/tools/vm/s3.fio f src
	f=$BSK_CACHE/bench/s3-$(sha1sum "$job" | cut -c1-12).img
	[ -f "$f" ] && { printf '%s\n' "$f"; return; }
	src=$BSK_CACHE/bench/s3src
	rm -rf "$src"
	mkdir -p "$src"
	S3_DIR=$src S3_CREATE=1 fio --output=/dev/null "$job" >&2
	mkfs.ext4 -q -F -d "$src" "$f.tmp" 160M >&2
	mv "$f.tmp" "$f"
	rm -rf "$src"
	printf '%s\n' "$f"
}
