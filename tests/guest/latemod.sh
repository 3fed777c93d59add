#!/bin/sh
# Guest test: a probe in a module loaded after the script started that
# cannot be armed says so (runtime patch 60), and one that can is armed.
#
#  1. build (host): tests/guest/workloads/lket_late.c twice, its clone's
#     symbol numbered .isra.0 in the build the script is compiled
#     against and .isra.1 in the one the guest loads; a script with a
#     probe on each of its three functions;
#  2. guest: the script runs while insmod loads the module and rmmod
#     removes it;
#  3. host: stapio's standard error says, once each, that the clone's
#     probe is not armed (no such symbol) and that the blacklisted
#     function's registration failed; the plain function's probe fired.
#
# Exit 0 pass, 1 fail, 77 skipped (only with LKET_SKIP_GUEST=1).
group=latemod
. "$(cd "$(dirname "$0")" && pwd)/io-common.sh"

# the kernel build tree of lket-buildenv's options (-r DIR)
kdir=$(echo "$stapopts" | sed -n 's/.*-r \([^ ]*\).*/\1/p')
for v in 0 1; do
	mkdir -p "$work/$v"
	cp "$top/tests/guest/workloads/lket_late.c" "$work/$v/"
	echo 'obj-m := lket_late.o' > "$work/$v/Kbuild"
	# no BTF: the build tree has no pahole to make it with; in the
	# kernel's build root when it is another suite's (lket-buildenv);
	# MO: since 6.13 kbuild writes into the tree -C names unless told
	# otherwise, and ours is links into the headers (older kbuilds
	# ignore MO)
	check "build: lket_late.ko, clone .isra.$v" \
		"$top/tools/lket-buildenv" --release "$rel" --builddir "$builddir" --exec \
		make -s -C "$kdir" M="$work/$v" MO="$work/$v" CONFIG_DEBUG_INFO_BTF_MODULES= \
		KCFLAGS="-DLKET_LATE_SUFFIX=\\\"$v\\\"" modules
done
m=$work/0/lket_late.ko
check "build: a probe on each of lket_late's functions (stap -p4)" \
	build_module lket_latemod "
global plain, clone, blocked
probe module(\"$m\").function(\"lket_late_plain\") { plain++ }
probe module(\"$m\").function(\"lket_late_clone\") { clone++ }
probe module(\"$m\").function(\"lket_late_blocked\") { blocked++ }
probe end { warn(sprintf(\"lket_late hits: plain %d clone %d blocked %d\", plain, clone, blocked)) }"
skip_guest
[ -f "$work/lket_latemod.ko" ] || finish

cat > "$work/guest.sh" <<EOS
set -u
cd "$work"
# loaded and removed while tracing: the removal refreshes the probes too
"$top/tools/lket-run-traced" -o "$res/t" lket_latemod.ko -- \
	sh -c 'insmod "$work/1/lket_late.ko" && rmmod lket_late' \
	> "$res/out" 2> "$res/err"
echo "run rc=\$?"
rmmod lket_late 2> /dev/null
exit 0
EOS
run_guest "$work/guest.sh"
cat "$res/err"
n=$(grep -c "lket_late_clone.*not armed: no symbol lket_late:lket_late_clone.isra.0" "$res/err")
check "the clone's probe: not armed, said once ($n)" test "$n" = 1
n=$(grep -c "lket_late_blocked.*not armed in module lket_late: registration error" "$res/err")
check "the blacklisted function's probe: registration error, said once ($n)" test "$n" = 1
check "the plain function's probe was armed and fired" \
	grep -q "lket_late hits: plain 1 clone 0 blocked 0" "$res/err"
finish
