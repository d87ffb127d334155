// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_show.c - signelf show: describe the signature of each file.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "cmd.h"

static const char usage[] =
"Usage: signelf show [--json] FILE...\n"
"Describe each FILE's signature: signer, algorithms, image digest, where\n"
"the section lies, and the flags of its ELFSIG note. Nothing is verified\n"
"(see 'signelf verify').\n"
"\n"
"  -j, --json   one JSON object per file on standard output, failures\n"
"               included (status, exit, error); nothing on stderr\n"
"  -h, --help   show this help\n";

static const char *const note_names[] = {
	[ELFSIG_NOTE_ABSENT] = "absent",
	[ELFSIG_NOTE_COVERED] = "covered",
	[ELFSIG_NOTE_UNCOVERED] = "uncovered",
};

static void show_flags(enum elfsig_note_state note, uint32_t flags)
{
	printf("  flags:      ");
	if (note == ELFSIG_NOTE_ABSENT) {
		printf("none (no ELFSIG note)\n");
		return;
	}
	if (note == ELFSIG_NOTE_UNCOVERED) {
		printf("0x%x in an ELFSIG note outside every PT_LOAD or in a section no PT_NOTE maps: not covered by the signature, ignored\n",
		       flags);
		return;
	}
	printf("0x%x", flags);
	if (flags & ELFSIG_FLAG_ANON_EXEC)
		printf(" anon-exec (the process may map unverified code: it is not verified)");
	if (flags & ~ELFSIG_FLAG_ANON_EXEC)
		printf(" unknown 0x%x", flags & ~ELFSIG_FLAG_ANON_EXEC);
	printf("\n");
}

static void show_text(const char *file, const struct elfsig_info *in)
{
	print_name(stdout, file);
	printf(":\n");
	printf("  section:    .signature (index %u), offset %" PRIu64 ", %" PRIu64 " bytes\n",
	       in->section_index, in->section_offset, in->section_size);
	if (in->skid[0])
		printf("  signer:     subject key identifier %s\n", in->skid);
	else
		printf("  signer:     issuer %s, serial %s\n", in->issuer, in->serial);
	printf("  hash:       %s\n", elfsig_hash_name(in->hash));
	printf("  signature:  %s\n", in->sig_algorithm);
	printf("  digest:     ");
	print_hex(stdout, in->digest, in->digest_size);
	printf("\n  interpreter: %s\n", in->has_interp ?
	       "yes (it and every library must be signed too)" : "no");
}

static void show_json(const char *file, const struct elfsig_info *in)
{
	printf("{");
	json_name(stdout, "file", file);
	printf(",\"status\":\"signed\",\"exit\":0,\"section_index\":%u,\"section_offset\":%" PRIu64
	       ",\"section_size\":%" PRIu64 ",\"issuer\":",
	       in->section_index, in->section_offset, in->section_size);
	common_json_string(stdout, in->issuer);
	printf(",\"serial\":");
	common_json_string(stdout, in->serial);
	printf(",\"skid\":");
	common_json_string(stdout, in->skid);
	printf(",\"hash\":\"%s\",\"signature_algorithm\":",
	       elfsig_hash_name(in->hash));
	common_json_string(stdout, in->sig_algorithm);
	printf(",\"digest\":\"");
	print_hex(stdout, in->digest, in->digest_size);
	printf("\",\"interpreter\":%s", in->has_interp ? "true" : "false");
}

static void show_json_error(const char *file, int ret)
{
	printf("{");
	json_name(stdout, "file", file);
	printf(",\"status\":\"%s\",\"exit\":%d,\"error\":", status_name(ret),
	       exit_code(ret));
	common_json_escaped(stdout, cmd_last_error());
	printf("}\n");
}

int cmd_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false;
	int c, i, status = EXIT_VALID;

	while ((c = getopt_long(argc, argv, ":jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_VALID;
		default:
			return bad_option("show", c, argv);
		}
	}
	if (optind >= argc)
		return usage_error("show", "no FILE given");
	/* With --json, a failure is a record of its own, not a stderr line. */
	cmd_quiet(json);
	for (i = optind; i < argc; i++) {
		enum elfsig_note_state note;
		struct elfsig_info info;
		uint32_t flags;
		int ret;

		cmd_clear_error();
		ret = elfsig_read_info(argv[i], &info);
		status = worse(status, exit_code(ret));
		if (ret && json)
			show_json_error(argv[i], ret);
		if (ret)
			continue;
		ret = elfsig_read_flags(argv[i], &note, &flags);
		status = worse(status, exit_code(ret));
		if (ret && json)
			show_json_error(argv[i], ret);
		if (ret)
			continue;
		if (json) {
			show_json(argv[i], &info);
			printf(",\"note\":\"%s\",\"flags\":%u}\n", note_names[note],
			       flags);
		} else {
			show_text(argv[i], &info);
			show_flags(note, flags);
		}
	}
	return status;
}
