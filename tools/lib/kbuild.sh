# SPDX-License-Identifier: GPL-2.0
# kbuild plumbing for the tools that build kernels outside kunit.py.
# shellcheck shell=bash

# kbuild_cc [COMPILER]: COMPILER (default gcc), behind ccache if installed
kbuild_cc() {
	if command -v ccache >/dev/null; then
		printf 'ccache %s\n' "${1:-gcc}"
	else
		printf '%s\n' "${1:-gcc}"
	fi
}

# kconfig_tiny TREE OUT FRAGMENT...: tinyconfig's recipe with FRAGMENTs on
# top as OUT/.config (merge_config.sh -n)
kconfig_tiny() {
	local tree=$1 out=$2
	shift 2
	(cd "$tree" && ARCH=x86_64 scripts/kconfig/merge_config.sh -n -O "$out" \
		kernel/configs/tiny-base.config kernel/configs/tiny.config \
		arch/x86/configs/tiny.config "$@")
}

# kconfig_key TREE WORDS...: a key of the tree's Kconfig files and WORDS;
# kconfig_stale OUT KEY: OUT's .config is missing or of another key;
# kconfig_made OUT KEY records it (configuring costs a rebuild)
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
