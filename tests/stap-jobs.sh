# shellcheck shell=sh
# stap-jobs.sh: a test's modules built side by side, a job per CPU.
# Sourced by the guest tests; needs $top, the source tree.
#
#   stap_job DIR NAME [LKET-STAP OPTION]...   tools/lket-stap -p4 -m NAME
#                                             in DIR, in the background:
#                                             DIR/NAME.ko, its output in
#                                             DIR/NAME.stap.out and .err
#   stap_wait DIR NAME                        wait for it: its status
#
# Why: one stap compiles its module with one compiler, so a test that
# builds its modules one after the other leaves the other CPUs idle (9
# modules of about 12 s each in tests/tapset/guest.sh).  The variables
# of the caller's environment at stap_job are the job's.

stap_jobs_max=$(nproc 2>/dev/null || echo 1)
stap_jobs=

stap_job() {
	_sj_dir=$1 _sj_name=$2
	shift 2
	while [ "$(stap_jobs_running)" -ge "$stap_jobs_max" ]; do sleep 1; done
	rm -f "$_sj_dir/$_sj_name.stap.rc"
	(
		rc=0
		cd "$_sj_dir" && "$top/tools/lket-stap" -p4 -m "$_sj_name" "$@" \
			>"$_sj_name.stap.out" 2>"$_sj_name.stap.err" || rc=$?
		# the status last: stap_wait takes the file as the end
		echo "$rc" >"$_sj_dir/$_sj_name.stap.rc.tmp"
		mv "$_sj_dir/$_sj_name.stap.rc.tmp" "$_sj_dir/$_sj_name.stap.rc"
	) </dev/null &
	stap_jobs="$stap_jobs $_sj_dir/$_sj_name"
}

stap_jobs_running() {
	_sj_n=0
	for _sj in $stap_jobs; do
		[ -f "$_sj.stap.rc" ] || _sj_n=$((_sj_n + 1))
	done
	echo "$_sj_n"
}

stap_wait() {
	while [ ! -f "$1/$2.stap.rc" ]; do sleep 1; done
	return "$(cat "$1/$2.stap.rc")"
}
