// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cmd.c - the subcommand table every elfsig program is: dispatch, --help,
 * "help CMD", each command's option loop, and the libraries' error lines
 * on stderr.
 */
#include <getopt.h>
#include <string.h>

#include "common.h"

/*
 * The top-level VERSION file, through the Makefile (common/common.mk);
 * "unknown" only where a tool reads the sources without it (cppcheck).
 */
#ifndef ELFSIG_VERSION
#define ELFSIG_VERSION "unknown"
#endif

const char *common_version(void)
{
	return ELFSIG_VERSION;
}

bool common_is_version_request(int argc, char **argv)
{
	return argc == 2 && (!strcmp(argv[1], "-V") ||
			     !strcmp(argv[1], "--version"));
}

void common_print_version(const char *prog)
{
	printf("%s %s\n", prog, common_version());
}

static void prog_usage(const struct common_prog *p, FILE *f)
{
	size_t i, w = 4;

	for (i = 0; i < p->ncmds; i++)
		if (strlen(p->cmds[i].name) > w)
			w = strlen(p->cmds[i].name);
	fprintf(f, "Usage: %s COMMAND [OPTION]...\n%s\nCommands:\n", p->name,
		p->intro);
	for (i = 0; i < p->ncmds; i++)
		fprintf(f, "  %-*s  %s\n", (int)w, p->cmds[i].name,
			p->cmds[i].summary);
	fprintf(f, "  %-*s  %s\n\n%s", (int)w, "help",
		"this list, or 'help COMMAND' for a command's options", p->outro);
	fprintf(f, "'%s -V' or '%s --version' prints the version.\n", p->name,
		p->name);
}

static const struct common_cmd *find(const struct common_prog *p,
				      const char *name)
{
	size_t i;

	for (i = 0; i < p->ncmds; i++)
		if (!strcmp(name, p->cmds[i].name))
			return &p->cmds[i];
	return NULL;
}

int common_prog_main(const struct common_prog *p, int argc, char **argv)
{
	const struct common_cmd *c;

	if (argc < 2) {
		prog_usage(p, stderr);
		return p->exit_usage;
	}
	if (common_is_version_request(argc, argv)) {
		common_print_version(p->name);
		return p->exit_ok;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		prog_usage(p, stdout);
		return p->exit_ok;
	}
	if (!strcmp(argv[1], "help")) {
		/* "PROG help CMD" is "PROG CMD --help". */
		char *args[] = { argv[2], "--help", NULL };

		c = argc == 3 ? find(p, argv[2]) : NULL;
		if (c)
			return c->run(2, args);
		if (argc > 3)
			fprintf(stderr, "%s: help takes one COMMAND (see '%s --help')\n",
				p->name, p->name);
		else
			fprintf(stderr, "%s: unknown command '%s' (see '%s --help')\n",
				p->name, argv[2], p->name);
		return p->exit_usage;
	}
	c = find(p, argv[1]);
	if (c)
		return c->run(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s' (see '%s --help')\n", p->name,
		argv[1], p->name);
	return p->exit_usage;
}

int common_getopt(struct common_getopt *g, int argc, char **argv)
{
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "h", g->longopts, NULL)) != -1) {
		ret = g->shared ? g->shared(g->ctx, opt, optarg) : 0;
		if (ret < 0) {
			g->status = g->exit_usage;
			return -1;
		}
		if (ret)
			continue;
		if (opt == 'h') {
			g->help(g->usage);
			g->status = g->exit_ok;
			return -1;
		}
		if (opt == '?' || opt == ':') {
			g->status = g->usage_err(g->usage, NULL);
			return -1;
		}
		return opt;
	}
	if (optind != argc && !g->operands) {
		g->status = g->usage_err(g->usage, "unexpected argument '%s'",
					 argv[optind]);
		return -1;
	}
	return 0;
}

void common_stderr_error(const char *msg, void *ctx)
{
	fprintf(stderr, "%s: %s\n", (const char *)ctx, msg);
}
