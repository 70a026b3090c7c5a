# SPDX-License-Identifier: GPL-2.0
# What the VM tools share: the settings checked, a run directory, guest kernels, a boot.
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

# static_busybox WHO: the host's busybox, which must need no library
static_busybox() {
	local bb
	bb=$(command -v busybox) || die "no busybox; $1 needs busybox-static (apt-get install busybox-static)"
	! ldd "$bb" >/dev/null 2>&1 || die "$bb is linked dynamically; $1 needs busybox-static (apt-get install busybox-static)"
	printf '%s\n' "$bb"
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
