// SPDX-License-Identifier: GPL-2.0
/*
 * line.c - the -o output as the registry declares it: lket.out text, or
 * JSON Lines, CSV (-f) or the --stat summary, into one file.
 */
#include <string.h>

#include "output/line/line.h"
#include "output/registry.h"

static int line_create(struct output **o, const struct output_args *a)
{
	const struct output_settings *s = a->set;

	if (!strcmp(s->format, "json"))
		return output_json_new(o, a->fd, &s->text);
	if (!strcmp(s->format, "csv"))
		return output_csv_new(o, a->fd, &s->text);
	if (s->summary)
		return output_stat_new(o, a->fd, &s->text);
	return output_text_new(o, a->fd, &s->text);
}

/* -f is the settings' (cli/options.c); its help is here, with -o's */
const struct output_decl output_line_decl = {
	.option = "output", .letter = 'o', .arg = "FILE",
	.help =
"  -o, --output FILE  write to FILE instead of lket.out (lket.json, lket.csv\n"
"                 with -f json, -f csv); - for standard output\n"
"  -f, --format FORMAT  text (the default), json (JSON Lines), csv, or none\n",
	.target = OUTPUT_FILE,
	.fallback = true,
	.create = line_create,
};
