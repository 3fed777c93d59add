# LKET: tapsets, runtime shim, lket-b2a, man pages and tests.
#
#   make            build lket-b2a, the generated tapset catalogue, man pages
#   make check      every test: unit (plain and ASan/UBSan), golden, ctf, svg, db, fuzz,
#                   catalogue drift, the Debian packages, tapset builds, tools,
#                   guest tests
#   make check-package  the Debian packages (debian/) built, linted,
#                   installed, used and purged in minimal Debian roots
#   make check-multihost  an NFS client and its server in two guests on one
#                   link, traced and merged (also in make check)
#   make check-stress  every hook under a heavy load in the guest for
#                   STRESS_SECONDS (default 300; make check runs 60 s)
#   make fuzz-long  fuzz lket-b2a for FUZZ_SECONDS (default 14400)
#   make bench      lket-b2a's speed and memory, side by side with its peers,
#                   and the cost of tracing in the guest (bench/README)
#   make demo       trace a real workload in the guest, convert it to lket.out
#   make install    PREFIX=/usr/local DESTDIR=

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
# The tapsets; lket-stap gives it with -I.  Plain stap finds them through
# links in its own tapset folder, named lket_*.stp there: stap 4.8
# searches no folder below it (but linux/ and the architecture's), and
# skips a file it has read already by another path.
TAPSETDIR = $(PREFIX)/share/lket/tapset
STAP_TAPSETDIR = $(PREFIX)/share/systemtap/tapset
RUNTIMEDIR = $(PREFIX)/share/lket/runtime
# SystemTap runtime fixes, applied by lket-buildenv to a copy of the runtime
RTPATCHDIR = $(PREFIX)/share/lket/stap-runtime-patches
# lket-run-traced's helpers (lket-rotate)
LIBEXECDIR = $(PREFIX)/lib/lket

BUILD = build
CC ?= cc
CFLAGS ?= -O2 -g
# the release, from its one place: debian/changelog's first entry
LKET_VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
LKET_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror
SANITIZE = -fsanitize=address,undefined -fno-omit-frame-pointer \
	   -fno-sanitize-recover=all

# every .c in b2a/'s layer folders, and main.c, which the unit tests link
# without; objects mirror the folders (build/b2a/<layer>/<module>.o)
B2A_SRCS = $(sort $(shell find b2a -name '*.c'))
B2A_MODULES = $(filter-out main,$(patsubst b2a/%.c,%,$(B2A_SRCS)))
B2A_LIBS = -lsqlite3 -lpq -ldw -lelf
B2A_OBJS = $(B2A_MODULES:%=$(BUILD)/b2a/%.o)
ASAN_OBJS = $(B2A_MODULES:%=$(BUILD)/asan/b2a/%.o)
B2A_HEADERS = $(shell find b2a -name '*.h') runtime/lket_format.h runtime/lket_ids.h \
	      runtime/lket_events.def $(PF_FIELDS)
# headers are named by their layer ("util/diag.h"), the runtime's from the
# top, what is made from a schema from $(BUILD)/gen
B2A_INC = -Ib2a -I. -I$(BUILD)/gen
# the Perfetto export's field numbers, from its schema (tools/pf-fields.awk)
PF_PROTO = b2a/output/perfetto/lket_perfetto.proto
PF_FIELDS = $(BUILD)/gen/pf_fields.h

# what make check compiles with, a job per core (the tests run one at a time)
JOBS := $(shell nproc 2>/dev/null || echo 1)

UNIT_TESTS = $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_*.c))

GENERATED = tapset/lket_catalogue.stp tapset/lket_aliases.stp \
	    $(BUILD)/man/lket.5 $(BUILD)/man/lket-b2a.1

.PHONY: all check check-unit check-golden check-ctf check-svg check-svg-big check-db \
	check-perfetto check-perfetto-export \
	check-fuzz check-package check-rt check-targets check-guest-targets check-catalogue check-tapset check-tools check-guest guest-tests \
	check-multihost check-stress fuzz-long bench demo install clean check-owners

all: $(BUILD)/lket-b2a $(BUILD)/lket-rotate $(BUILD)/lket-gen $(GENERATED)

PG_CFLAGS = -I$(shell pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)

$(PF_FIELDS): $(PF_PROTO) tools/pf-fields.awk
	@mkdir -p $(@D)
	awk -f tools/pf-fields.awk $(PF_PROTO) $(PF_PROTO) > $@.tmp && mv $@.tmp $@

$(BUILD)/b2a/%.o: b2a/%.c $(B2A_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(LKET_CFLAGS) $(B2A_INC) $(B2A_DEFS) $(PG_CFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/asan/b2a/%.o: b2a/%.c $(B2A_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(LKET_CFLAGS) $(B2A_INC) $(B2A_DEFS) $(PG_CFLAGS) -O1 -g $(SANITIZE) -c -o $@ $<

$(BUILD)/lket-b2a: $(BUILD)/b2a/main.o $(B2A_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(B2A_LIBS)

# lket-run-traced --rotate's writer of a rotated trace's files (and its
# ASan/UBSan build, for the tests)
ROTATE_OBJS = b2a/input/tracename.o b2a/util/u64map.o
$(BUILD)/lket-rotate: tools/lket-rotate.c $(ROTATE_OBJS:%=$(BUILD)/%) $(B2A_HEADERS)
	$(CC) $(LKET_CFLAGS) $(B2A_INC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ \
		tools/lket-rotate.c $(ROTATE_OBJS:%=$(BUILD)/%)
$(BUILD)/asan/lket-rotate: tools/lket-rotate.c $(ROTATE_OBJS:%=$(BUILD)/asan/%) \
			   $(B2A_HEADERS)
	$(CC) $(LKET_CFLAGS) $(B2A_INC) -O1 -g $(SANITIZE) -o $@ \
		tools/lket-rotate.c $(ROTATE_OBJS:%=$(BUILD)/asan/%)

# lket-b2a --version
VERSION_OBJS = $(BUILD)/b2a/cli/options.o $(BUILD)/asan/b2a/cli/options.o
$(VERSION_OBJS): debian/changelog
$(VERSION_OBJS): B2A_DEFS = -DLKET_VERSION='"$(LKET_VERSION)"'

$(BUILD)/asan/lket-b2a: $(BUILD)/asan/b2a/main.o $(ASAN_OBJS)
	$(CC) -g $(SANITIZE) -o $@ $^ $(B2A_LIBS)

$(BUILD)/lket-gencat: tools/lket-gencat.c runtime/lket_events.def
	@mkdir -p $(@D)
	$(CC) $(LKET_CFLAGS) $(CFLAGS) -o $@ $<

# The kernels are listed in runtime/targets.  The guest tests' kernel:
# this machine's Debian suite's first target (tools/lket-target), or
# LKET_KERNEL_RELEASE; its PREEMPT_RT flavour (linux-image-REL-rt-amd64).
KERNEL_RELEASE := $(shell tools/lket-target)
KERNEL_RELEASE_RT := $(patsubst %-amd64,%-rt-amd64,$(KERNEL_RELEASE))
# The first target: what test traces claim, and what lket(5) names.
FIRST_TARGET := $(shell tools/lket-target --first)
FIRST_TARGET_RT := $(patsubst %-amd64,%-rt-amd64,$(FIRST_TARGET))

# Test traces claim to come from that kernel.
$(BUILD)/lket-gen: tests/gen/lket-gen.c runtime/lket_events.def \
		   runtime/lket_format.h runtime/lket_ids.h runtime/targets
	@mkdir -p $(@D)
	$(CC) $(LKET_CFLAGS) $(CFLAGS) \
		-DLKET_KERNEL_RELEASE='"$(FIRST_TARGET)"' -o $@ $<

# The tapset's catalogue: the runtime's C headers as embedded C, IDs,
# register_sys_event() calls and one record writer per event.
SHIM_HEADERS = runtime/lket_format.h runtime/lket_ids.h runtime/lket_shim.h
tapset/lket_catalogue.stp: $(BUILD)/lket-gencat $(SHIM_HEADERS)
	$(BUILD)/lket-gencat stp $(SHIM_HEADERS) > $@.tmp && mv $@.tmp $@

# The public addevent.* aliases: every hook's gate, writer call and
# record end, and the group and entry+return pair aliases.  The group
# tapsets (tapset/<group>.stp) hold what is hand-written: each hook's
# __lket_<name> probe, which sets its fields, and its kernel-doc.
tapset/lket_aliases.stp: $(BUILD)/lket-gencat
	$(BUILD)/lket-gencat aliases > $@.tmp && mv $@.tmp $@

# lket(5): man/lket.5.in with the generated hook list and each group's
# own text (man/groups/<group>.roff, in catalogue order) spliced in.
GROUP_DOCS = $(wildcard man/groups/*.roff)
$(BUILD)/man/lket.5: man/lket.5.in $(GROUP_DOCS) $(BUILD)/lket-gencat runtime/targets
	@mkdir -p $(@D)
	$(BUILD)/lket-gencat man > $(BUILD)/man/hooks.roff
	awk '!/^#/ && NF { printf ".TP\n.B %s\nDebian %s, SystemTap %s%s\n", $$1, $$2, $$3, $$4 == "partial" ? " (in part: see \\fBLIMITS\\fR)" : "" }' \
		runtime/targets > $(BUILD)/man/targets.roff
	for g in $$($(BUILD)/lket-gencat groups); do \
		if [ -f man/groups/$$g.roff ]; then cat man/groups/$$g.roff; fi; \
	done > $(BUILD)/man/groups.roff
	sed -e '/^@LKET_HOOK_LIST@$$/{r $(BUILD)/man/hooks.roff' -e 'd}' \
	    -e '/^@LKET_GROUP_DOCS@$$/{r $(BUILD)/man/groups.roff' -e 'd}' \
	    -e '/^@LKET_TARGETS@$$/{r $(BUILD)/man/targets.roff' -e 'd}' \
	    -e 's/@KERNEL_RELEASE@/$(FIRST_TARGET)/g' \
	    -e 's/@KERNEL_RELEASE_RT@/$(FIRST_TARGET_RT)/g' \
		man/lket.5.in > $@.tmp
	mv $@.tmp $@

$(BUILD)/man/lket-b2a.1: man/lket-b2a.1
	@mkdir -p $(@D)
	cp $< $@

# ---- tests --------------------------------------------------------------

$(BUILD)/unit/%: tests/unit/%.c $(ASAN_OBJS) $(B2A_HEADERS) $(wildcard tests/unit/*.h)
	@mkdir -p $(@D)
	$(CC) $(LKET_CFLAGS) $(B2A_INC) -O1 -g $(SANITIZE) -o $@ $< $(UNIT_EXTRA) $(ASAN_OBJS) -lcmocka $(B2A_LIBS)

# main.c without main(), for its test: b2a_run() alone
$(BUILD)/asan/b2a/run.o: b2a/main.c $(B2A_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(LKET_CFLAGS) $(B2A_INC) $(PG_CFLAGS) -O1 -g $(SANITIZE) -DB2A_NO_MAIN -c -o $@ $<

$(BUILD)/unit/test_main: $(BUILD)/asan/b2a/run.o
$(BUILD)/unit/test_main: UNIT_EXTRA = $(BUILD)/asan/b2a/run.o

# the Perfetto schema as protoc reads it, which the C constants made
# from it are checked against (tests/unit/test_pf_fields.c)
PF_LISTING = $(BUILD)/perfetto/lket_perfetto.fields
$(PF_LISTING): $(PF_PROTO) tests/perfetto/proto-fields.py tests/perfetto/pbtext.py
	@mkdir -p $(@D)
	python3 tests/perfetto/proto-fields.py -I $(dir $(PF_PROTO)) $(PF_PROTO) > $@.tmp
	mv $@.tmp $@
$(BUILD)/unit/test_pf_fields: $(PF_LISTING)
$(BUILD)/unit/test_pf_fields: UNIT_EXTRA = -DPF_FIELDS_LISTING='"$(abspath $(PF_LISTING))"'

# A fresh Debian 12 machine: install what is missing first (apt-get).
# The other targets' packages, build roots and lket-b2a are made in the
# background meanwhile (tests/prepare-targets), with what the host's own
# tests leave idle.  The host's tests need one CPU each: a job per core,
# each one's output shown whole (-O); the tapset's build tests run a
# compiler per core of their own.
check:
	tools/install-deps all
	$(MAKE) -j$(JOBS) all $(BUILD)/asan/lket-b2a $(BUILD)/asan/lket-rotate \
		$(UNIT_TESTS:%=$(BUILD)/unit/%)
	tests/prepare-targets --start $(BUILD) $(OTHER_TARGETS)
	$(MAKE) -j$(JOBS) -O check-unit check-golden check-ctf check-svg check-db \
		check-perfetto-export check-fuzz check-catalogue check-tools check-package
	$(MAKE) check-tapset
	$(MAKE) check-guest-targets
	tests/prepare-targets --wait $(BUILD)

check-unit: $(UNIT_TESTS:%=$(BUILD)/unit/%)
	@set -e; for t in $^; do echo "== $$t"; $$t; done

# lket-b2a against tests/golden/*.expect; the man pages build without a
# groff warning (tests/man)
check-golden: $(BUILD)/lket-b2a $(BUILD)/asan/lket-b2a $(BUILD)/lket-gen \
	      $(BUILD)/man/lket.5
	tests/golden/run.sh $(BUILD)
	tests/man/run.sh $(BUILD)

# --ctf read back by babeltrace2, compared with lket.out, and by LTTng's
# analyses; its system call classes against lttng-modules' source (its
# Debian package, unpacked, not installed); --replace, and signals during
# an export (a 480 MB trace, removed after)
LTTNG_MODULES = $(BUILD)/lttng-modules
$(LTTNG_MODULES)/unpacked:
	rm -rf $(LTTNG_MODULES) && mkdir -p $(LTTNG_MODULES)
	cd $(LTTNG_MODULES) && apt-get download -q lttng-modules-dkms && \
		dpkg-deb -x lttng-modules-dkms_*.deb src
	echo "$$(cd $(LTTNG_MODULES)/src/usr/src/lttng-modules-* && pwd)" > $@

check-ctf: $(BUILD)/lket-b2a $(BUILD)/asan/lket-b2a $(BUILD)/lket-gen \
	   $(LTTNG_MODULES)/unpacked
	LTTNG_MODULES_SRC=$$(cat $(LTTNG_MODULES)/unpacked) tests/ctf/run.sh $(BUILD)

# --perfetto as a file is written: standard output, signals during an
# export, flat memory (its traces' contents: check-golden's perfetto cases)
check-perfetto-export: $(BUILD)/lket-b2a $(BUILD)/asan/lket-b2a $(BUILD)/lket-gen
	tests/perfetto/export.sh $(BUILD)

# --perfetto's traces read by Perfetto's own trace processor, asserted
# with SQL against lket-b2a's own view of them (a table: a row per
# assertion, a column per trace): generated traces, and PERFETTO_TRACES
# (the guest tests' traces: folders or prefixes).  The trace processor:
# TRACE_PROCESSOR, else $(BUILD)/perfetto/trace_processor_shell, one the
# user built from Perfetto's tree; without either it is skipped and says
# so.  PERFETTO_SRC (Perfetto's tree) checks the schema against
# Perfetto's published protos.
PERFETTO_SRC ?=
TRACE_PROCESSOR ?=
PERFETTO_TRACES ?=
check-perfetto: $(BUILD)/lket-b2a $(BUILD)/lket-gen
	PERFETTO_SRC="$(PERFETTO_SRC)" TRACE_PROCESSOR="$(TRACE_PROCESSOR)" \
		tests/perfetto/run.sh $(BUILD) $(PERFETTO_TRACES)

# --timechart and --histogram: valid SVG, the lanes and markers of
# lket.out, rendered by chromium into $(BUILD)/svg/*/*/*.png
check-svg: $(BUILD)/lket-b2a $(BUILD)/asan/lket-b2a $(BUILD)/lket-gen
	tests/svg/run.sh $(BUILD)

# A 20 M-event trace: the timechart's size bound and chromium's time to
# render it (slow: part of make bench, not of make check)
check-svg-big: $(BUILD)/lket-b2a $(BUILD)/lket-gen
	tests/svg/big.sh $(BUILD)

# SQLite and a throwaway PostgreSQL cluster: round trips and bad cases
check-db: $(BUILD)/lket-b2a $(BUILD)/lket-gen
	tests/db/run.sh $(BUILD)

FUZZ_SECONDS ?= 60
check-fuzz: $(PF_FIELDS)
	tests/fuzz/run.sh $(BUILD) $(FUZZ_SECONDS)

# Hours of fuzzing, not in make check: FUZZ_SECONDS from the command line
# or the environment, else 4 hours.  What it finds stays in
# $(BUILD)/fuzz/corpus for the next run.
fuzz-long: $(BUILD)/lket-gen $(PF_FIELDS)
	tests/fuzz/run.sh $(BUILD) $(if $(filter file,$(origin FUZZ_SECONDS)),14400,$(FUZZ_SECONDS))

check-catalogue: all
	tests/catalogue/run.sh $(BUILD)

check-tapset: all
	tests/tapset/run.sh $(BUILD)

# The Debian packages: built by dpkg-buildpackage in a minimal Debian root
# with their Build-Depends only, checked by lintian, installed by apt in
# another, used there, autopkgtest run, purged (tests/package)
check-package: all
	tests/package/run.sh $(BUILD)

# lket-run-traced with stand-ins for staprun and modinfo: quoting, modes
check-tools: $(BUILD)/lket-b2a $(BUILD)/asan/lket-rotate $(BUILD)/lket-gen $(GENERATED)
	tests/tools/run.sh $(BUILD)

# the files the build made that root loads or runs: none another user's
# to change (tests/guest/run.sh runs it after the guest tests too)
check-owners:
	tests/owners/run.sh $(BUILD)

# LKET_SKIP_GUEST=1 is the one way to skip these; without it a guest that
# cannot start fails them.
check-guest: all
	$(MAKE) guest-tests

# the guest tests alone, their state in BUILD, where lket-b2a is
guest-tests:
	tests/guest-step tests/guest/run.sh $(BUILD)

# Two machines, one timeline: an NFS server and its client in two guests
# on one private link-local link, both traced, merged by lket-b2a
# (tests/guest/multihost.sh; part of check-guest too).
check-multihost: all
	LKET_BUILDDIR=$(abspath $(BUILD)) tests/guest-step tests/guest/multihost.sh

# The other kernels LKET builds for (runtime/targets): each in a build
# folder of its own, $(BUILD)/targets/RELEASE, with one build root per
# Debian suite shared by them ($(BUILD)/roots).  make check runs on each
# TARGET_GUEST_TESTS, where kernels were seen to differ;
# check-target-all-RELEASE every guest test (the RT flavour took 17
# minutes here: all of them on every target would not fit in CI's hour).
TARGETS := $(shell tools/lket-target --list)
OTHER_TARGETS := $(filter-out $(KERNEL_RELEASE),$(TARGETS))
TARGET_GUEST_TESTS = transport core nfs stack sched live flight

# make check's guest tests: every test of the default kernel and
# TARGET_GUEST_TESTS of the others, LKET_GUEST_JOBS at a time, each
# kernel's as soon as tests/prepare-targets has it ready
check-guest-targets: all
	tests/guest-step tests/guest/run.sh $(BUILD) \
		$(foreach r,$(OTHER_TARGETS),--target $(r) "$(TARGET_GUEST_TESTS)")

check-targets: $(OTHER_TARGETS:%=check-target-%)

check-target-all-%:
	LKET_KERNEL_RELEASE=$* tools/install-deps guest
	LKET_KERNEL_RELEASE=$* LKET_ROOTDIR=$(abspath $(BUILD))/roots \
		$(MAKE) BUILD=$(BUILD)/targets/$* check-guest

check-target-%:
	LKET_GUEST_TESTS="$(TARGET_GUEST_TESTS)" $(MAKE) check-target-all-$*

# PREEMPT_RT of the default release: every guest test
check-rt: check-target-all-$(KERNEL_RELEASE_RT)

# Every hook at once under a heavy mixed load (tests/guest/stress.sh) for
# 300 s; make check runs it for 60 s (tests/guest/run.sh).
STRESS_SECONDS ?= 300
check-stress: all
	LKET_BUILDDIR=$(abspath $(BUILD)) STRESS_SECONDS=$(STRESS_SECONDS) \
		tests/guest-step tests/guest/stress.sh

$(BUILD)/bench-loop: bench/loop.c
	@mkdir -p $(@D)
	$(CC) $(LKET_CFLAGS) $(CFLAGS) -pthread -o $@ $<

bench: $(BUILD)/lket-b2a $(BUILD)/lket-gen $(BUILD)/bench-loop
	bench/run.sh $(BUILD)
	bench/db.sh $(BUILD)
	bench/peers.sh $(BUILD)
	tests/svg/big.sh $(BUILD)
	@bench/guest.sh $(BUILD); rc=$$?; [ $$rc = 0 ] || [ $$rc = 77 ]

demo:
	tools/install-deps all
	$(MAKE) all
	tests/vm/demo.sh $(BUILD)

MAN1 = $(wildcard man/*.1)
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(TAPSETDIR) $(DESTDIR)$(STAP_TAPSETDIR) \
		$(DESTDIR)$(RUNTIMEDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(RTPATCHDIR)
	install -m 755 $(BUILD)/lket-b2a $(DESTDIR)$(BINDIR)/
	install -d $(DESTDIR)$(LIBEXECDIR)
	install -m 755 $(BUILD)/lket-rotate $(DESTDIR)$(LIBEXECDIR)/
	install -m 755 tools/lket-stap tools/lket-run-traced tools/lket-buildenv tools/lket-target \
		$(DESTDIR)$(BINDIR)/
	install -m 644 tools/stap-runtime-patches/*.patch $(DESTDIR)$(RTPATCHDIR)/
	install -m 644 tools/lket-kbuild.mk tools/lket-tracequery.h tools/lket-owner-checks.sh \
		tools/lket-syscall-table.awk $(DESTDIR)$(PREFIX)/share/lket/
	install -m 644 tapset/*.stp tapset/*.stpm $(DESTDIR)$(TAPSETDIR)/
	set -e; for f in tapset/*.stp tapset/*.stpm; do \
		f=$${f#tapset/}; case $$f in lket_*) n=$$f ;; *) n=lket_$$f ;; esac; \
		ln -sfn ../../lket/tapset/$$f $(DESTDIR)$(STAP_TAPSETDIR)/$$n; \
	done
	install -m 644 runtime/*.h runtime/*.def runtime/targets runtime/debuginfo \
		$(DESTDIR)$(RUNTIMEDIR)/
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(BUILD)/man/lket.5 $(DESTDIR)$(MANDIR)/man5/

clean:
	rm -rf $(BUILD)/b2a $(BUILD)/asan $(BUILD)/unit $(BUILD)/gen $(BUILD)/lket-* \
		$(BUILD)/man $(BUILD)/golden $(BUILD)/fuzz $(BUILD)/svg tapset/lket_catalogue.stp \
		tapset/lket_aliases.stp
