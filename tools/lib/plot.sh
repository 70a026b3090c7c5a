# SPDX-License-Identifier: GPL-2.0
# plot PNG W,H GNUPLOT-LINE...: make bench's plots (S<N>.png, icount*.png),
# one place for the terminal and the look.  Sourced by bench*.sh.
# shellcheck shell=bash
plot() {
	printf '%s\n' "set terminal pngcairo size $2 noenhanced font ',9'" "set output '$1'" \
		'set style fill solid 0.6 border -1' "${@:3}" | gnuplot
}
