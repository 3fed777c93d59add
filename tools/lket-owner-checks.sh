# shellcheck shell=sh
# lket-owner-checks.sh: sourced by lket-run-traced, lket-stap and
# lket-buildenv (sh; it defines functions only).
#
# Root loads the modules these build, runs lket-rotate, and writes trace
# files and a pid file where it is told.  Whatever another user could
# change in the meantime is refused: a file another user may write (a
# module replaced before it loads), and a folder where another user may
# add or rename entries (a link planted as OUT_0, which staprun's
# O_CREAT|O_TRUNC, a chmod or a shell's ">" would follow, as root, to
# /etc/shadow).  A sticky folder (/tmp) is fine: there nobody renames or
# removes another's entries, and the kernel's fs.protected_symlinks keeps
# root from following a link another user planted there.
#
# The users trusted: root, whoever runs this, and the user sudo runs it
# for (SUDO_UID: root works for them, in their folders, on their files).

# lket_trusted_uid UID: is UID one of them?
lket_trusted_uid() {
	[ "$1" = 0 ] || [ "$1" = "$(id -u)" ] || [ "$1" = "${SUDO_UID:-0}" ]
}

# lket_unsafe_path PATH: prints why another user could change what PATH
# names (nothing when none can).  PATH need not exist: its nearest
# existing folder is checked, and every folder above it; links are
# followed (what is checked is what root opens).  Each must be owned by
# a trusted user and writable by no one else, except a folder that is
# sticky.
lket_unsafe_path() {
	up_p=$(readlink -m -- "$1") || up_p=$1
	while :; do
		if [ -e "$up_p" ]; then
			up_uid=$(stat -c %u -- "$up_p") || return 0
			if ! lket_trusted_uid "$up_uid"; then
				echo "$up_p is user $(stat -c %U -- "$up_p")'s"
				return 0
			fi
			if [ -d "$up_p" ]; then
				up_bad=$(find "$up_p" -maxdepth 0 -perm /022 ! -perm -1000)
			else
				up_bad=$(find "$up_p" -maxdepth 0 -perm /022)
			fi
			if [ -n "$up_bad" ]; then
				echo "$up_p is writable by other users (mode $(stat -c %a -- "$up_p"))"
				return 0
			fi
		fi
		[ "$up_p" != / ] || return 0
		up_p=${up_p%/*}
		[ -n "$up_p" ] || up_p=/
	done
}

# lket_unsafe_tree DIR: the same for DIR and everything in it (a link
# itself, not what it points to: its target is checked where it is
# used), unless DIR is private (no access for group or others), when
# nothing in it can be reached by another user.
lket_unsafe_tree() {
	ut_why=$(lket_unsafe_path "$1")
	if [ -z "$ut_why" ] && [ -d "$1" ] &&
	   [ -n "$(find "$1" -maxdepth 0 -perm /077)" ]; then
		ut_bad=$(find "$1" \( ! -uid 0 ! -uid "$(id -u)" ! -uid "${SUDO_UID:-0}" \) \
			-print -quit)
		if [ -n "$ut_bad" ]; then
			ut_why="$ut_bad is user $(stat -c %U -- "$ut_bad")'s"
		else
			ut_bad=$(find "$1" ! -type l -perm /022 -print -quit)
			[ -z "$ut_bad" ] ||
				ut_why="$ut_bad is writable by other users (mode $(stat -c %a -- "$ut_bad"))"
		fi
	fi
	[ -z "$ut_why" ] || echo "$ut_why"
}

# lket_private_folder DIR: before root writes a file into DIR: refuse a
# folder another user may change (above); make it 0700 when missing.
# Prints why it refused, on failure.
lket_private_folder() {
	pf_why=$(lket_unsafe_path "$1")
	if [ -n "$pf_why" ]; then
		echo "$pf_why: another user could plant a link there that root then writes through"
		return 1
	fi
	# (the folders above it: the caller's umask 077)
	# shellcheck disable=SC2174
	[ -d "$1" ] || mkdir -p -m 0700 -- "$1" || { echo "cannot make $1"; return 1; }
}

# lket_private_file FILE: before root writes FILE over: refuse a link or
# what is not a regular file; make a file there private (staprun and a
# shell's ">" keep the mode of a file they truncate).  Prints why it
# refused, on failure.
lket_private_file() {
	if [ -L "$1" ] || { [ -e "$1" ] && [ ! -f "$1" ]; }; then
		echo "$1: not a plain file (a link?), which the run would write through: remove it"
		return 1
	fi
	[ ! -f "$1" ] || chmod 0600 -- "$1" || { echo "cannot make $1 private"; return 1; }
}

# lket_private_trace PREFIX PATTERN: lket_private_folder for PREFIX's
# folder, lket_private_file for each file there that PATTERN (a shell
# pattern, "trace_[0-9]*") matches: the files a run will write.  Call it
# under umask 077, and the files made afterwards are private too.
lket_private_trace() {
	pt_dir=$(dirname -- "$1")
	lket_private_folder "$pt_dir" || return 1
	# the pattern is one, whatever the caller's set -f
	case $- in *f*) pt_noglob=yes; set +f ;; *) pt_noglob= ;; esac
	pt_rc=0
	for pt_f in "$pt_dir"/$2; do
		lket_private_file "$pt_f" || { pt_rc=1; break; }
	done
	[ -z "$pt_noglob" ] || set -f
	return $pt_rc
}
