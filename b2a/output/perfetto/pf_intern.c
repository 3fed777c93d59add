// SPDX-License-Identifier: GPL-2.0
/*
 * pf_intern.c - interning on a host's packet sequence (pf.h): event
 * names, categories, argument names, and call stacks with their frames,
 * each written once as InternedData in the packet that first uses it,
 * then named by its iid.
 *
 * Memory stays flat: past PF_INTERN_MAX entries the tables start again
 * (a new generation), the next packet says its sequence's interned data
 * is cleared, and what is used again is interned again (iids start
 * again at 1: they fit the tables' 32 bits).  Names are told
 * apart by a 64-bit hash of their bytes, frames by address, call stacks
 * by a hash of their frames.
 */
#include <errno.h>
#include <stdio.h>

#include "output/perfetto/pf.h"

/* entries of one generation at most */
#define PF_INTERN_MAX	(1u << 16)

/* InternedData's field of each kind of string */
static const uint32_t string_field[PF_IN_KINDS] = {
	[PF_IN_NAME] = PF_INTERNEDDATA_EVENT_NAMES,
	[PF_IN_CAT] = PF_INTERNEDDATA_EVENT_CATEGORIES,
	[PF_IN_ARG] = PF_INTERNEDDATA_DEBUG_ANNOTATION_NAMES,
};

/* each kind's message has iid 1 and name 2 (the schema's EventName,
 * EventCategory and DebugAnnotationName alike) */
_Static_assert(PF_EVENTNAME_IID == 1 && PF_EVENTNAME_NAME == 2 &&
	       PF_EVENTCATEGORY_IID == 1 && PF_EVENTCATEGORY_NAME == 2 &&
	       PF_DEBUGANNOTATIONNAME_IID == 1 &&
	       PF_DEBUGANNOTATIONNAME_NAME == 2,
	       "interned names are not alike");

static uint64_t hash64(const void *p, size_t n, uint64_t h)
{
	const unsigned char *s = p;

	while (n--)
		h = (h ^ *s++) * 1099511628211ull;
	return h;
}

static void maps_free(struct pf_intern *in)
{
	size_t k;

	for (k = 0; k < PF_IN_KINDS; k++)
		u64map_free(&in->strings[k]);
	u64map_free(&in->frames);
	u64map_free(&in->stacks);
}

static int maps_init(struct pf_intern *in)
{
	size_t k;
	int ret = 0;

	for (k = 0; !ret && k < PF_IN_KINDS; k++)
		ret = u64map_init(&in->strings[k]);
	if (!ret)
		ret = u64map_init(&in->frames);
	if (!ret)
		ret = u64map_init(&in->stacks);
	return ret;
}

int pf_intern_init(struct pf_intern *in)
{
	memset(in, 0, sizeof(*in));
	in->gen = 1;
	in->cleared = true;
	in->next_iid = 1;
	if (maps_init(in) || pb_init(&in->pending, 4096)) {
		pf_intern_free(in);
		return -ENOMEM;
	}
	return 0;
}

void pf_intern_free(struct pf_intern *in)
{
	maps_free(in);
	pb_free(&in->pending);
}

void pf_intern_packet(struct pf_intern *in)
{
	if (in->entries < PF_INTERN_MAX)
		return;
	/* tables as new: a failed init leaves them empty, and the next
	 * put says -ENOMEM */
	maps_free(in);
	maps_init(in);
	in->entries = 0;
	in->next_iid = 1;
	in->gen++;
	in->cleared = true;
}

int pf_intern_string(struct pf_intern *in, enum pf_intern_kind k,
		     const char *s, size_t n, uint64_t *iid)
{
	uint64_t key = hash64(s, n, 14695981039346656037ull);
	struct u64map_slot *slot = u64map_find(&in->strings[k], key);
	struct pbuf *b = &in->pending;
	int ret;

	if (slot) {
		*iid = slot->val;
		return 0;
	}
	*iid = in->next_iid++;
	ret = u64map_put(&in->strings[k], key, (uint32_t)*iid);
	if (!ret)
		ret = pb_reserve(b, n + 3 * PB_FIELD_MAX);
	if (ret)
		return ret;
	in->entries++;
	pb_open(b, string_field[k]);
	PB_UINT(b, PF_EVENTNAME_IID, *iid);
	PB_BYTES(b, PF_EVENTNAME_NAME, s, n);
	return pb_close(b);
}

/* The frame of addr (its symbol sym, NULL: none), interned. */
static int intern_frame(struct pf_intern *in, uint64_t addr, const char *sym,
			uint64_t *iid)
{
	struct u64map_slot *slot = u64map_find(&in->frames, addr);
	struct pbuf *b = &in->pending;
	char hex[24];
	size_t n;
	int ret;

	if (slot) {
		*iid = slot->val;
		return 0;
	}
	if (!sym) {
		snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)addr);
		sym = hex;
	}
	n = strlen(sym);
	*iid = in->next_iid++;
	ret = u64map_put(&in->frames, addr, (uint32_t)*iid);
	if (!ret)
		ret = pb_reserve(b, n + 8 * PB_FIELD_MAX);
	if (ret)
		return ret;
	in->entries++;
	/* the function's name, as lket-b2a shows the frame, and the frame
	 * naming it, under one iid */
	PB_OPEN(b, PF_INTERNEDDATA_FUNCTION_NAMES);
	PB_UINT(b, PF_INTERNEDSTRING_IID, *iid);
	PB_BYTES(b, PF_INTERNEDSTRING_STR, sym, n);
	ret = pb_close(b);
	if (ret)
		return ret;
	PB_OPEN(b, PF_INTERNEDDATA_FRAMES);
	PB_UINT(b, PF_FRAME_IID, *iid);
	PB_UINT(b, PF_FRAME_FUNCTION_NAME_ID, *iid);
	PB_UINT(b, PF_FRAME_REL_PC, addr);
	return pb_close(b);
}

int pf_intern_stack(struct pf_intern *in, const uint64_t *a,
		    const char *const *syms, uint32_t n, uint64_t *iid)
{
	uint64_t frame[EVENT_MAX_ADDRS], key = 14695981039346656037ull;
	struct pbuf *b = &in->pending;
	struct u64map_slot *slot;
	uint32_t i;
	int ret;

	*iid = 0;
	if (!n)
		return 0;
	/* Perfetto's frames go from the outermost; LKET's from the
	 * innermost */
	for (i = 0; i < n; i++) {
		ret = intern_frame(in, a[n - 1 - i], syms ? syms[n - 1 - i] :
				   NULL, &frame[i]);
		if (ret)
			return ret;
		key = hash64(&frame[i], sizeof(frame[i]), key);
	}
	slot = u64map_find(&in->stacks, key);
	if (slot) {
		*iid = slot->val;
		return 0;
	}
	*iid = in->next_iid++;
	ret = u64map_put(&in->stacks, key, (uint32_t)*iid);
	if (!ret)
		ret = pb_reserve(b, (n + 4) * PB_FIELD_MAX);
	if (ret)
		return ret;
	in->entries++;
	PB_OPEN(b, PF_INTERNEDDATA_CALLSTACKS);
	PB_UINT(b, PF_CALLSTACK_IID, *iid);
	for (i = 0; i < n; i++)
		PB_UINT(b, PF_CALLSTACK_FRAME_IDS, frame[i]);
	return pb_close(b);
}
