# lket-kbuild.mk: the kbuild file of the modules SystemTap 5.1 builds for
# a kernel whose kbuild is 6.13's or later (Debian's 7.3), in place of
# the Makefile stap writes, which it includes (tools/lket-buildenv
# passes "-B kbuild-file=THIS -B MO=$(KBUILD_EXTMOD)" to stap, which
# passes them to make).
#
# stap 5.1 writes that Makefile for the kbuild of 6.12 and before, and
# its translator, not the runtime our patches change, is what writes it:
#  * its flags (the runtime's -I, its autoconf header's -include) are in
#    EXTRA_CFLAGS, which kbuild stopped reading in 6.15: ccflags-y now;
#  * it makes the autoconf header with a sub-make of "$(firstword
#    $(MAKEFILE_LIST))", which since 6.13 is kbuild's top Makefile, run
#    again in the module's folder: it recurses without end;
#  * it makes the objects wait for that header under their absolute
#    names, and since 6.13 kbuild names them relative to the module's
#    folder (obj=.).
# (And since 6.13 a module is built in the folder make -C was given
# unless that is the kernel's own build tree: ours is a tree of links,
# and kbuild would write into it, through a link over the headers'
# Module.symvers.  MO= keeps the build in the module's folder.)
include $(src)/Makefile

ccflags-y += $(EXTRA_CFLAGS)

# stap's tracepoint queries: see lket-tracequery.h
ifneq ($(findstring /tracequery_kmod,$(KBUILD_EXTMOD)),)
ccflags-y += -include $(dir $(kbuild-file))lket-tracequery.h
endif

ifdef STAPCONF_HEADER
$(STAPCONF_HEADER): gen-stapconf
	@:
$(foreach m,$(obj-m:.o=),$($(m)-y)): $(STAPCONF_HEADER)
endif
