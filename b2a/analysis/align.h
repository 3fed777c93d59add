/* SPDX-License-Identifier: GPL-2.0 */
/*
 * align.h - one host's clock against another's, from events that must be
 * ordered across them.
 *
 * Each pair of ordered events (an RPC call sent before the server gets
 * it, the reply sent before the client has it) bounds the correction c
 * that puts the host's time t on the reference's: c(t) >= lower, or c(t)
 * <= upper.  The correction is a line, c(t) = offset + drift * (t -
 * pivot), the pivot in the middle of the pairs' time span: the set of
 * (offset, drift) that every bound allows is a convex polygon, cut out of
 * a box (drift within +-ALIGN_MAX_DRIFT) one bound at a time.  The drift
 * found is the middle of the polygon's drift range, unless that range is
 * wider than 2 * ALIGN_LOOSE_DRIFT (pairs close in time, a short trace):
 * then the drift nearest to none that they allow.  The offset is the
 * middle of the interval the bounds allow at that drift; the uncertainty,
 * how far the polygon's offsets at the pivot reach from it, so that the
 * true offset is within it whenever the bounds hold.
 */
#ifndef LKET_ALIGN_H
#define LKET_ALIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ALIGN_MAX_DRIFT	1e-3	/* 1000 ppm: no working clock is worse */
#define ALIGN_LOOSE_DRIFT	1e-4	/* 100 ppm: worse than most clocks */

struct align_bound {
	int64_t t;		/* the host's time of the pair, ns */
	int64_t v;		/* c(t) >= v, or c(t) <= v */
	bool upper;
};

struct align {
	struct align_bound *b;
	size_t n, cap;
	size_t nlower, nupper;
};

struct align_result {
	int64_t pivot;		/* the host's time the offset is at */
	double offset;		/* ns, at the pivot */
	double uncertainty;	/* ns: the offset is within this of the truth */
	double drift;		/* ns per ns of the host's clock */
	double drift_min, drift_max;	/* what the bounds allow */
	int64_t t_min, t_max;	/* the pairs' time span */
	size_t nlower, nupper;	/* bounds used */
};

void align_init(struct align *a);
void align_free(struct align *a);
/* c(t) >= v (upper false) or c(t) <= v; 0 or -ENOMEM. */
int align_add(struct align *a, int64_t t, int64_t v, bool upper);
/*
 * The line that the bounds allow.  -ENODATA: no lower or no upper bound;
 * -EDOM: the bounds contradict each other (no line with a drift within
 * ALIGN_MAX_DRIFT meets them all); -ENOMEM.
 */
int align_fit(const struct align *a, struct align_result *r);

#endif
