# SPDX-License-Identifier: GPL-2.0
# kbuild plumbing shared by the tools that build kernels outside kunit.py
# (gate/buildcheck.sh, gate/objcheck.sh, env/vmkernel.sh).  Sourced, never
# executed; needs common.sh.
# shellcheck shell=bash

# kbuild_cc [COMPILER]: COMPILER (default gcc) for kbuild's CC, behind
# ccache where ccache is installed.
kbuild_cc() {
	if command -v ccache >/dev/null; then
		printf 'ccache %s\n' "${1:-gcc}"
	else
		printf '%s\n' "${1:-gcc}"
	fi
}

# kconfig_tiny TREE OUT FRAGMENT...: tinyconfig's own recipe (allnoconfig,
# then kernel/configs/tiny-base.config, tiny.config and the x86 tiny.config)
# with FRAGMENTs on top, as OUT/.config (merge_config.sh -n: a symbol the
# fragments make visible stays off unless they name it).  The bench and
# stress guest kernels are built on it.
kconfig_tiny() {
	local tree=$1 out=$2
	shift 2
	(cd "$tree" && ARCH=x86_64 scripts/kconfig/merge_config.sh -n -O "$out" \
		kernel/configs/tiny-base.config kernel/configs/tiny.config \
		arch/x86/configs/tiny.config "$@")
}

# kconfig_key TREE WORDS...: a key for a configuration: the tree's Kconfig
# files and WORDS (fragment contents, the compiler).  kconfig_stale OUT
# KEY: OUT has no .config, or one made for another key; kconfig_made OUT
# KEY records it.  Configuring costs more than an incremental build, and
# regenerating a .config makes kbuild see every symbol change.
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
