# SPDX-License-Identifier: GPL-2.0
# kbuild plumbing for the tools that build kernels outside kunit.py.
# shellcheck shell=bash

# kbuild_cc COMPILER: COMPILER, behind ccache if installed
kbuild_cc() {
	! command -v ccache >/dev/null || printf 'ccache '
	printf '%s\n' "$1"
}

# kconfig_tiny TREE OUT FRAGMENT...: OUT/.config of tinyconfig's recipe + FRAGMENTs
kconfig_tiny() {
	local tree=$1 out=$2
	shift 2
	(cd "$tree" && ARCH=x86_64 scripts/kconfig/merge_config.sh -n -O "$out" \
		kernel/configs/tiny-base.config kernel/configs/tiny.config \
		arch/x86/configs/tiny.config "$@")
}

# kconfig_key TREE WORDS...: a key of TREE's Kconfig files and WORDS; configure OUT
# only when kconfig_stale OUT KEY (configuring costs a rebuild), then kconfig_made OUT KEY
kconfig_key() {
	local tree=$1
	shift
	{ git -C "$tree" ls-files -s -- '*Kconfig*'; printf '%s\n' "$@"; } | sha1sum | cut -d' ' -f1
}
kconfig_stale() {
	[ ! -f "$1/.config" ] || [ "$(cat "$1/.bsk-config-key" 2>/dev/null)" != "$2" ]
}
kconfig_made() {
	printf '%s\n' "$2" >"$1/.bsk-config-key"
}

# kbuild_diagnostics TREE OUT: stdin's warnings, paths and line numbers out: one that moved compares equal
kbuild_diagnostics() {
	grep -ahE '(warning|error):|^WARNING:' | sed -E -e "s#$1/##g" -e "s#$2/##g" -e 's#(\.\./)+##g' \
		-e 's/:[0-9]+(:[0-9]+)?([: ]|$)/\2/g' | LC_ALL=C sort || true
}
