/* SPDX-License-Identifier: GPL-2.0 */
/* main.h - lket-b2a's whole run, for main() and for its unit test. */
#ifndef LKET_MAIN_H
#define LKET_MAIN_H

/*
 * The command line argv (argv[0] the program's name) run: options,
 * inputs, conversion, messages on standard error.  Returns the exit
 * status: 0 all converted, 1 the input was damaged or records were lost,
 * 2 nothing could be converted.  Once per process: getopt's state.
 */
int b2a_run(int argc, char **argv);

#endif
