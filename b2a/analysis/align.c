// SPDX-License-Identifier: GPL-2.0
/*
 * align.c - one host's clock fitted to another's from the bounds its RPC
 * pairs put on it (align.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "analysis/align.h"

/* A vertex of the polygon: x the drift, y the offset at the pivot. */
struct pt {
	double x, y;
};

void align_init(struct align *a)
{
	a->b = NULL;
	a->n = a->cap = a->nlower = a->nupper = 0;
}

void align_free(struct align *a)
{
	free(a->b);
	align_init(a);
}

int align_add(struct align *a, int64_t t, int64_t v, bool upper)
{
	struct align_bound *bigger;

	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 256;
		bigger = realloc(a->b, a->cap * sizeof(*a->b));
		if (!bigger)
			return -ENOMEM;
		a->b = bigger;
	}
	a->b[a->n++] = (struct align_bound){ .t = t, .v = v, .upper = upper };
	if (upper)
		a->nupper++;
	else
		a->nlower++;
	return 0;
}

/* >= 0 inside: the bound's slack at (x, y) */
static double slack(const struct align_bound *b, double dt, struct pt p)
{
	double c = p.y + p.x * dt - (double)b->v;

	return b->upper ? -c : c;
}

/*
 * Cut the convex polygon in (n vertices) by the bound: what is left goes
 * to out; returns its vertex count.  A hair of slack counts as inside,
 * so that rounding never empties a polygon the bounds only touch.
 */
static size_t clip(const struct pt *in, size_t n, struct pt *out,
		   const struct align_bound *b, double dt)
{
	const double eps = 1e-6;
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		struct pt p = in[i], q = in[(i + 1) % n];
		double sp = slack(b, dt, p), sq = slack(b, dt, q);

		if (sp >= -eps)
			out[m++] = p;
		if ((sp >= -eps) != (sq >= -eps) && n > 1) {
			double k = sp / (sp - sq);

			out[m++] = (struct pt){ p.x + k * (q.x - p.x),
						p.y + k * (q.y - p.y) };
		}
	}
	return m;
}

/* The times and values the bounds span. */
static void bounds_box(const struct align *a, int64_t *tmin, int64_t *tmax,
		       int64_t *vmin, int64_t *vmax)
{
	size_t i;

	*tmin = *tmax = a->b[0].t;
	*vmin = *vmax = a->b[0].v;
	for (i = 1; i < a->n; i++) {
		if (a->b[i].t < *tmin)
			*tmin = a->b[i].t;
		if (a->b[i].t > *tmax)
			*tmax = a->b[i].t;
		if (a->b[i].v < *vmin)
			*vmin = a->b[i].v;
		if (a->b[i].v > *vmax)
			*vmax = a->b[i].v;
	}
}

/* The drifts (x) and offsets (y) the polygon of n corners spans. */
static void poly_box(const struct pt *poly, size_t n, double *xmin,
		     double *xmax, double *ymin, double *ymax)
{
	size_t i;

	*xmin = *xmax = poly[0].x;
	*ymin = *ymax = poly[0].y;
	for (i = 1; i < n; i++) {
		if (poly[i].x < *xmin)
			*xmin = poly[i].x;
		if (poly[i].x > *xmax)
			*xmax = poly[i].x;
		if (poly[i].y < *ymin)
			*ymin = poly[i].y;
		if (poly[i].y > *ymax)
			*ymax = poly[i].y;
	}
}

int align_fit(const struct align *a, struct align_result *r)
{
	struct pt *poly, *next, *swap;
	double ymin, ymax, lo, hi, dt, v, span;
	int64_t tmin, tmax, vmin, vmax;
	size_t i, n;
	int ret = 0;

	if (!a->nlower || !a->nupper)
		return -ENODATA;
	bounds_box(a, &tmin, &tmax, &vmin, &vmax);
	r->pivot = tmin + (tmax - tmin) / 2;
	r->t_min = tmin;
	r->t_max = tmax;
	r->nlower = a->nlower;
	r->nupper = a->nupper;
	/* every offset the bounds allow at the pivot lies in this box */
	span = ALIGN_MAX_DRIFT * (double)(tmax - tmin) + 1;
	poly = malloc((a->n + 5) * sizeof(*poly));
	next = malloc((a->n + 5) * sizeof(*next));
	if (!poly || !next) {
		ret = -ENOMEM;
		goto out;
	}
	poly[0] = (struct pt){ -ALIGN_MAX_DRIFT, (double)vmin - span };
	poly[1] = (struct pt){ ALIGN_MAX_DRIFT, (double)vmin - span };
	poly[2] = (struct pt){ ALIGN_MAX_DRIFT, (double)vmax + span };
	poly[3] = (struct pt){ -ALIGN_MAX_DRIFT, (double)vmax + span };
	n = 4;
	for (i = 0; i < a->n && n; i++) {
		n = clip(poly, n, next, &a->b[i],
			 (double)(a->b[i].t - r->pivot));
		swap = poly;
		poly = next;
		next = swap;
	}
	if (!n) {
		ret = -EDOM;
		goto out;
	}
	poly_box(poly, n, &r->drift_min, &r->drift_max, &ymin, &ymax);
	/* a drift the pairs bound loosely: the nearest to none they allow */
	if (r->drift_max - r->drift_min <= 2 * ALIGN_LOOSE_DRIFT)
		r->drift = (r->drift_min + r->drift_max) / 2;
	else
		r->drift = r->drift_min > 0 ? r->drift_min :
			   r->drift_max < 0 ? r->drift_max : 0;
	/* at that drift, the interval every bound allows */
	lo = ymin;
	hi = ymax;
	for (i = 0; i < a->n; i++) {
		dt = (double)(a->b[i].t - r->pivot);
		v = (double)a->b[i].v - r->drift * dt;
		if (a->b[i].upper && v < hi)
			hi = v;
		else if (!a->b[i].upper && v > lo)
			lo = v;
	}
	r->offset = lo <= hi ? (lo + hi) / 2 : (ymin + ymax) / 2;
	r->uncertainty = r->offset - ymin > ymax - r->offset ?
			 r->offset - ymin : ymax - r->offset;
out:
	free(poly);
	free(next);
	return ret;
}
