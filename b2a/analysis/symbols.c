// SPDX-License-Identifier: GPL-2.0
/*
 * symbols.c - call stack addresses to symbols with libdwfl (symbols.h).
 *
 * The debuginfo is loaded at the first lookup, when the trace's metadata
 * (release, modules) is all in: the kernel with dwfl_report_offline() at
 * its link-time addresses (a lookup subtracts the KASLR slide: the trace's
 * _stext minus the vmlinux's), each module the same way, libdwfl laying
 * its sections out somewhere of its own (a lookup moves the address from
 * the module's run-time text to where libdwfl put ".text").  Then each
 * address is looked up once and kept in an open-addressing table.
 *
 * Module records may also arrive mid-trace, for modules loaded while
 * tracing: the newest module holding an address is its module from then
 * on (a module may load where an unloaded one was), what the table knew
 * of its addresses is forgotten, and its debuginfo is reported to libdwfl
 * then (or taken from an earlier load of the same build).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "analysis/symbols.h"

/* A frame's " (file:line)" at most. */
#define SYM_TEXT_MAX	512
/* Folders deep a debuginfo tree is searched for modules. */
#define INDEX_DEPTH	8

struct sym_module {
	char *name;
	uint64_t base, size;
	char *build_id;		/* hex; "" unknown */
	Dwfl_Module *dwfl;	/* NULL: no usable debuginfo */
	int64_t shift;		/* debuginfo address = run-time + shift */
	uint64_t text;		/* where libdwfl has its text (_stext) */
	bool kernel;
	bool noted;		/* said why it has no symbols */
};

struct sym_entry {
	uint64_t addr;
	const char *sym;	/* NULL: none */
	bool used;
};

struct ko_file {
	char *name;		/* "nfs_acl": '-' made '_', as the kernel */
	char *path;
};

struct symbols {
	struct symbols_options opt;
	char *dir;
	char *release;
	struct sym_module *mods;
	size_t nmods, mods_cap;
	struct ko_file *kos;	/* the debuginfo tree's modules */
	size_t nkos, kos_cap;
	Dwfl *dwfl;
	bool loaded;
	bool nothing;		/* no debuginfo at all: said once, for all */
	bool noted_outside;
	struct sym_entry *tab;	/* power of two */
	size_t tab_size, tab_used;
	char **retired;		/* forgotten symbols, still valid for callers */
	size_t nretired, retired_cap;
};

static char *dup_str(const char *s)
{
	return strdup(s ? s : "");
}

int symbols_new(struct symbols **out, const struct symbols_options *opt)
{
	struct symbols *sy = calloc(1, sizeof(*sy));

	if (!sy)
		return -ENOMEM;
	sy->opt = *opt;
	sy->dir = dup_str(opt->dir ? opt->dir : SYMBOLS_DEFAULT_DIR);
	sy->tab_size = 1024;
	sy->tab = calloc(sy->tab_size, sizeof(*sy->tab));
	if (!sy->dir || !sy->tab) {
		symbols_free(sy);
		return -ENOMEM;
	}
	*out = sy;
	return 0;
}

void symbols_free(struct symbols *sy)
{
	size_t i;

	if (!sy)
		return;
	if (sy->dwfl)
		dwfl_end(sy->dwfl);
	for (i = 0; i < sy->nmods; i++) {
		free(sy->mods[i].name);
		free(sy->mods[i].build_id);
	}
	for (i = 0; i < sy->nkos; i++) {
		free(sy->kos[i].name);
		free(sy->kos[i].path);
	}
	for (i = 0; sy->tab && i < sy->tab_size; i++)
		free((char *)sy->tab[i].sym);
	for (i = 0; i < sy->nretired; i++)
		free(sy->retired[i]);
	free(sy->retired);
	free(sy->tab);
	free(sy->kos);
	free(sy->mods);
	free(sy->release);
	free(sy->dir);
	free(sy);
}

int symbols_set_release(struct symbols *sy, const char *release)
{
	char *r = dup_str(release);

	if (!r)
		return -ENOMEM;
	free(sy->release);
	sy->release = r;
	return 0;
}

static void load_module(struct symbols *sy, struct sym_module *m,
			const char *path);
static const char *find_ko(const struct symbols *sy, const char *name);
static int find_vmlinux(const struct symbols *sy, char *path, size_t size);
static int forget(struct symbols *sy, uint64_t lo, uint64_t size);

/* The same module as m, loaded before with the same build; NULL. */
static const struct sym_module *same_build(const struct symbols *sy,
					   const struct sym_module *m)
{
	size_t i;

	for (i = 0; i < sy->nmods; i++) {
		const struct sym_module *o = &sy->mods[i];

		if (o != m && o->dwfl && !strcmp(o->name, m->name) &&
		    !strcmp(o->build_id, m->build_id))
			return o;
	}
	return NULL;
}

/*
 * A module that arrives after the debuginfo was loaded (loaded while
 * tracing): its addresses' symbols are looked up again, from its own
 * debuginfo.
 */
static int add_late(struct symbols *sy, struct sym_module *m)
{
	const struct sym_module *o = same_build(sy, m);
	char path[4096];
	const char *ko;
	size_t i;
	int ret = forget(sy, m->base, m->size);

	if (ret || sy->nothing || !sy->dwfl)
		return ret;
	for (i = 0; i + 1 < sy->nmods; i++)	/* said once per name */
		if (!strcmp(sy->mods[i].name, m->name) && sy->mods[i].noted)
			m->noted = true;
	if (o) {
		m->dwfl = o->dwfl;
		m->text = o->text;
		m->shift = (int64_t)(m->text - m->base);
		return 0;
	}
	ko = m->kernel ? (find_vmlinux(sy, path, sizeof(path)) ? NULL : path) :
	     find_ko(sy, m->name);
	if (!ko)
		return 0;
	dwfl_report_begin_add(sy->dwfl);
	load_module(sy, m, ko);
	dwfl_report_end(sy->dwfl, NULL, NULL);
	return 0;
}

int symbols_add_module(struct symbols *sy, const char *name, uint64_t base,
		       uint64_t size, const char *build_id)
{
	struct sym_module *m;
	size_t i;

	if (!name || !*name)
		return -EINVAL;
	for (i = sy->nmods; i-- > 0;) {
		m = &sy->mods[i];
		if (m->base < base + size && base < m->base + m->size) {
			/* the newest there: the same again is nothing new */
			if (m->base == base && m->size == size &&
			    !strcmp(m->name, name) &&
			    !strcmp(m->build_id, build_id ? build_id : ""))
				return 0;
			break;
		}
	}
	if (sy->nmods == sy->mods_cap) {
		size_t cap = sy->mods_cap ? 2 * sy->mods_cap : 64;

		m = realloc(sy->mods, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		sy->mods = m;
		sy->mods_cap = cap;
	}
	m = &sy->mods[sy->nmods];
	memset(m, 0, sizeof(*m));
	m->name = dup_str(name);
	m->build_id = dup_str(build_id);
	if (!m->name || !m->build_id) {
		free(m->name);
		free(m->build_id);
		return -ENOMEM;
	}
	m->base = base;
	m->size = size;
	m->kernel = !strcmp(name, SYMBOLS_KERNEL);
	sy->nmods++;
	return sy->loaded ? add_late(sy, m) : 0;
}

uint64_t symbols_cached(const struct symbols *sy)
{
	return sy->tab_used;
}

/* ---- the debuginfo files ------------------------------------------- */

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* The kernel's debuginfo: the first that exists; -ENOENT. */
static int find_vmlinux(const struct symbols *sy, char *path, size_t size)
{
	const char *rel = sy->release ? sy->release : "";
	char cand[4][4096];
	size_t i;

	snprintf(cand[0], sizeof(cand[0]), "%s/boot/vmlinux-%s", sy->dir, rel);
	snprintf(cand[1], sizeof(cand[1]), "%s/lib/modules/%s/vmlinux",
		 sy->dir, rel);
	snprintf(cand[2], sizeof(cand[2]), "%s/vmlinux-%s", sy->dir, rel);
	snprintf(cand[3], sizeof(cand[3]), "%s/vmlinux", sy->dir);
	for (i = 0; i < 4; i++) {
		if ((i < 3 && !*rel) || !is_file(cand[i]))
			continue;
		snprintf(path, size, "%s", cand[i]);
		return 0;
	}
	return -ENOENT;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static void module_name_of(char *name)
{
	for (; *name; name++)
		if (*name == '-')
			*name = '_';
}

static int index_add(struct symbols *sy, const char *path, const char *file)
{
	size_t len = strlen(file) - strlen(".ko");
	struct ko_file *k;

	if (sy->nkos == sy->kos_cap) {
		size_t cap = sy->kos_cap ? 2 * sy->kos_cap : 256;

		k = realloc(sy->kos, cap * sizeof(*k));
		if (!k)
			return -ENOMEM;
		sy->kos = k;
		sy->kos_cap = cap;
	}
	k = &sy->kos[sy->nkos];
	k->name = strndup(file, len);
	k->path = dup_str(path);
	if (!k->name || !k->path) {
		free(k->name);
		free(k->path);
		return -ENOMEM;
	}
	module_name_of(k->name);
	sy->nkos++;
	return 0;
}

/* Every DIR/.../name.ko, depth levels down; -ENOMEM. */
static int index_tree(struct symbols *sy, const char *dir, int depth)
{
	char path[4096];
	struct dirent *d;
	size_t len;
	DIR *dp;
	int ret = 0;

	if (depth <= 0 || !(dp = opendir(dir)))
		return 0;
	while (!ret && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     d->d_name) >= sizeof(path))
			continue;
		len = strlen(d->d_name);
		if (len > 3 && !strcmp(d->d_name + len - 3, ".ko")) {
			if (is_file(path))
				ret = index_add(sy, path, d->d_name);
		} else if (d->d_type == DT_DIR || d->d_type == DT_UNKNOWN) {
			ret = index_tree(sy, path, depth - 1);
		}
	}
	closedir(dp);
	return ret;
}

static const char *find_ko(const struct symbols *sy, const char *name)
{
	size_t i;

	for (i = 0; i < sy->nkos; i++)
		if (!strcmp(sy->kos[i].name, name))
			return sy->kos[i].path;
	return NULL;
}

/* ---- libdwfl -------------------------------------------------------- */

/* The files given are the debuginfo: look no further. */
static int no_separate_debuginfo(Dwfl_Module *mod, void **userdata,
				 const char *modname, Dwarf_Addr base,
				 const char *file_name,
				 const char *debuglink_file,
				 GElf_Word debuglink_crc, char **debuginfo)
{
	(void)mod; (void)userdata; (void)modname; (void)base;
	(void)file_name; (void)debuglink_file; (void)debuglink_crc;
	*debuginfo = NULL;
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = no_separate_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* The debuginfo's own build ID in hex, "" if it has none. */
static void dwfl_build_id_hex(Dwfl_Module *mod, char *hex, size_t size)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(mod, &bits, &vaddr), i;

	hex[0] = '\0';
	for (i = 0; i < n && (size_t)(2 * i + 2) < size; i++)
		snprintf(hex + 2 * i, 3, "%02x", bits[i]);
}

/* Where the debuginfo has the symbol name (the kernel's _stext); -ENOENT. */
static int symbol_address(Dwfl_Module *mod, const char *name, uint64_t *addr)
{
	int i, n = dwfl_module_getsymtab(mod);
	const char *s;
	GElf_Sym sym;
	GElf_Addr value;

	for (i = 1; i < n; i++) {
		s = dwfl_module_getsym_info(mod, i, &sym, &value, NULL, NULL,
					    NULL);
		if (s && !strcmp(s, name)) {
			*addr = value;
			return 0;
		}
	}
	return -ENOENT;
}

/* Where libdwfl laid a module's ".text" out; -ENOENT. */
static int text_address(Dwfl_Module *mod, uint64_t *addr)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	size_t shstrndx;
	const char *name;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return -ENOENT;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &shdr))
			continue;
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (name && !strcmp(name, ".text")) {
			*addr = shdr.sh_addr + bias;
			return 0;
		}
	}
	return -ENOENT;
}

static void note_module(struct symbols *sy, struct sym_module *m,
			const char *why)
{
	if (m->noted)
		return;
	m->noted = true;
	diagf(sy->opt.diag, DIAG_NOTE, NULL, -1,
	      "no symbols for %s%s in %s: %s; its call stack frames are shown as addresses",
	      m->kernel ? "the kernel " : "module ",
	      m->kernel ? (sy->release ? sy->release : "(release unknown)") :
	      m->name, sy->dir, why);
}

/* Report m's debuginfo at path to libdwfl, and check it is m's. */
static void load_module(struct symbols *sy, struct sym_module *m,
			const char *path)
{
	char hex[2 * 64 + 1];
	uint64_t at;
	Dwfl_Module *mod;

	mod = dwfl_report_offline(sy->dwfl, m->name, path, -1);
	if (!mod) {
		diagf(sy->opt.diag, DIAG_NOTE, path, -1,
		      "debuginfo of %s unreadable: %s", m->name,
		      dwfl_errmsg(-1));
		m->noted = true;
		return;
	}
	dwfl_build_id_hex(mod, hex, sizeof(hex));
	if (*m->build_id && *hex && strcasecmp(m->build_id, hex)) {
		diagf(sy->opt.diag, DIAG_DAMAGE, path, -1,
		      "build ID %s is not the traced %s's (%s): its call stack frames are shown as addresses",
		      hex, m->name, m->build_id);
		m->noted = true;
		return;
	}
	if (m->kernel ? symbol_address(mod, "_stext", &at) :
			text_address(mod, &at)) {
		diagf(sy->opt.diag, DIAG_NOTE, path, -1,
		      "debuginfo of %s has no %s: its call stack frames are shown as addresses",
		      m->name, m->kernel ? "_stext" : ".text");
		m->noted = true;
		return;
	}
	m->dwfl = mod;
	m->text = at;
	m->shift = (int64_t)(at - m->base);
}

/* Load every module's debuginfo; a folder that has none is no error. */
static int load(struct symbols *sy)
{
	char path[4096], modules[4096];
	const char *ko;
	size_t i;
	int ret;

	sy->loaded = true;
	sy->dwfl = dwfl_begin(&offline_callbacks);
	if (!sy->dwfl)
		return -ENOMEM;
	snprintf(modules, sizeof(modules), "%s/lib/modules/%s", sy->dir,
		 sy->release ? sy->release : "");
	ret = index_tree(sy, sy->release && is_dir(modules) ? modules : sy->dir,
			 INDEX_DEPTH);
	if (ret)
		return ret;
	sy->nothing = !sy->nkos && find_vmlinux(sy, path, sizeof(path));
	/*
	 * Then NAME.ko in the current folder, where stap -m NAME builds the
	 * tracer's own module: a task preempted in its code (its module
	 * notifier, say) has its frames.  The build ID still has to match.
	 */
	if (!sy->nothing && getcwd(path, sizeof(path)))
		ret = index_tree(sy, path, 1);
	if (ret)
		return ret;
	if (sy->nothing) {
		diagf(sy->opt.diag, DIAG_NOTE, NULL, -1,
		      "no debuginfo of kernel %s in %s: call stack frames are shown as addresses (install linux-image-%s-dbg, or give --debuginfo)",
		      sy->release ? sy->release : "(release unknown)", sy->dir,
		      sy->release ? sy->release : "RELEASE");
		return 0;
	}
	dwfl_report_begin(sy->dwfl);
	for (i = 0; i < sy->nmods; i++) {
		struct sym_module *m = &sy->mods[i];

		if (m->kernel) {
			if (!find_vmlinux(sy, path, sizeof(path)))
				load_module(sy, m, path);
		} else if ((ko = find_ko(sy, m->name))) {
			load_module(sy, m, ko);
		}
	}
	dwfl_report_end(sy->dwfl, NULL, NULL);
	return 0;
}

/* The trace's module holding addr, the newest; NULL. */
static struct sym_module *module_of(struct symbols *sy, uint64_t addr)
{
	size_t i;

	for (i = sy->nmods; i-- > 0;)
		if (addr >= sy->mods[i].base &&
		    addr - sy->mods[i].base < sy->mods[i].size)
			return &sy->mods[i];
	return NULL;
}

/*
 * The kernel, for an address outside its text (_stext to _etext, what its
 * record says) but in its image as the debuginfo lays it out: the head
 * and init text of the idle tasks' boot stacks (secondary_startup_64,
 * start_kernel).  NULL.
 */
static struct sym_module *kernel_image_of(struct symbols *sy, uint64_t addr)
{
	Dwarf_Addr start, end;
	size_t i;

	for (i = sy->nmods; i-- > 0;) {
		struct sym_module *m = &sy->mods[i];
		uint64_t a = addr + (uint64_t)m->shift;

		if (!m->kernel || !m->dwfl)
			continue;
		if (dwfl_module_info(m->dwfl, NULL, &start, &end, NULL, NULL,
				     NULL, NULL) && a >= start && a < end)
			return m;
		return NULL;
	}
	return NULL;
}

/* addr's symbol, newly allocated; NULL: none (said why, once). */
static char *resolve(struct symbols *sy, uint64_t addr)
{
	struct sym_module *m = module_of(sy, addr);
	char where[SYM_TEXT_MAX] = "", *text;
	const char *name, *file;
	Dwfl_Line *line;
	GElf_Off off;
	GElf_Sym sym;
	uint64_t a;
	int lineno;

	if (!m)
		m = kernel_image_of(sy, addr);
	if (!m) {
		/* not damage: a module's init function, a kernel thread's */
		if (!sy->noted_outside)
			diagf(sy->opt.diag, DIAG_NOTE, NULL, -1,
			      "call stack address 0x%" PRIx64 " is in no module the trace lists (such as a module's init text, freed after init; and maybe others): shown as addresses",
			      addr);
		sy->noted_outside = true;
		return NULL;
	}
	if (!m->dwfl) {
		if (!sy->nothing)
			note_module(sy, m, "no debuginfo found for it");
		return NULL;
	}
	a = addr + (uint64_t)m->shift;
	name = dwfl_module_addrinfo(m->dwfl, a, &off, &sym, NULL, NULL, NULL);
	if (!name)
		return NULL;
	if (sy->opt.lines && (line = dwfl_module_getsrc(m->dwfl, a)) &&
	    (file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL)))
		snprintf(where, sizeof(where), " (%s:%d)",
			 strrchr(file, '/') ? strrchr(file, '/') + 1 : file,
			 lineno);
	if (asprintf(&text, m->kernel ? "%s+0x%" PRIx64 "%.0s%s" :
			    "%s+0x%" PRIx64 " [%s]%s", name, (uint64_t)off,
		     m->name, where) < 0)
		return NULL;
	return text;
}

static size_t slot_of(const struct symbols *sy, uint64_t addr)
{
	/* Fibonacci hashing: addresses differ in their low bits */
	uint64_t h = addr * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(h >> 32) & (sy->tab_size - 1);

	while (sy->tab[i].used && sy->tab[i].addr != addr)
		i = (i + 1) & (sy->tab_size - 1);
	return i;
}

static int grow(struct symbols *sy)
{
	struct sym_entry *old = sy->tab;
	size_t n = sy->tab_size, i;

	sy->tab = calloc(2 * n, sizeof(*sy->tab));
	if (!sy->tab) {
		sy->tab = old;
		return -ENOMEM;
	}
	sy->tab_size = 2 * n;
	for (i = 0; i < n; i++)
		if (old[i].used)
			sy->tab[slot_of(sy, old[i].addr)] = old[i];
	free(old);
	return 0;
}

/*
 * Forget what the table has of [lo, lo + size): a module now there.  The
 * symbols go on living (callers may hold them) until symbols_free().
 */
static int forget(struct symbols *sy, uint64_t lo, uint64_t size)
{
	struct sym_entry *old = sy->tab;
	size_t i, n = 0;

	for (i = 0; i < sy->tab_size; i++)
		if (old[i].used && old[i].addr - lo < size)
			n++;
	if (!n)
		return 0;
	if (sy->nretired + n > sy->retired_cap) {
		size_t cap = 2 * (sy->nretired + n);
		char **r = realloc(sy->retired, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		sy->retired = r;
		sy->retired_cap = cap;
	}
	sy->tab = calloc(sy->tab_size, sizeof(*sy->tab));
	if (!sy->tab) {
		sy->tab = old;
		return -ENOMEM;
	}
	for (i = 0; i < sy->tab_size; i++) {
		if (!old[i].used)
			continue;
		if (old[i].addr - lo < size) {
			if (old[i].sym)
				sy->retired[sy->nretired++] = (char *)old[i].sym;
			sy->tab_used--;
		} else {
			sy->tab[slot_of(sy, old[i].addr)] = old[i];
		}
	}
	free(old);
	return 0;
}

int symbols_lookup(struct symbols *sy, uint64_t addr, const char **sym)
{
	struct sym_entry *e = &sy->tab[slot_of(sy, addr)];
	int ret;

	if (e->used) {
		*sym = e->sym;
		return 0;
	}
	if (!sy->loaded) {
		ret = load(sy);
		if (ret)
			return ret;
	}
	if (2 * (sy->tab_used + 1) > sy->tab_size) {
		ret = grow(sy);
		if (ret)
			return ret;
	}
	e = &sy->tab[slot_of(sy, addr)];
	e->addr = addr;
	e->sym = resolve(sy, addr);
	e->used = true;
	sy->tab_used++;
	*sym = e->sym;
	return 0;
}
