// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * note.c - find the ELFSIG flags note among a file's PT_NOTE segments.
 *
 * The notes come from an untrusted file: each header is read on its own
 * and every size is checked against what is left of its segment before
 * it is used, in 64-bit arithmetic (namesz and descsz are 32-bit, so
 * their padded sum cannot wrap). Nothing is allocated.
 */
#include <elf.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "lib_private.h"
/* The installed header spells the uapi values the same way (a differing
 * redefinition fails the -Werror build). */
#include "elfsig/note.h"

_Static_assert(ELFSIG_NOTE_ANON_EXEC_BITS == ELFSIG_FLAG_ANON_EXEC,
	       "<elfsig/note.h> and <linux/elfsig.h> disagree");

#define NOTE_HDR	12u	/* n_namesz, n_descsz, n_type */

static const char note_name[] = ELFSIG_NOTE_NAME;	/* with its NUL */

/* Are the note segment's file bytes inside one PT_LOAD's file bytes? */
static bool covered(const struct elfsig_elf *elf, const struct elfsig_phdr *note)
{
	unsigned int i;

	for (i = 0; i < elf->phnum; i++) {
		const struct elfsig_phdr *ph = &elf->phdrs[i];

		/* PT_LOAD ranges were checked against the file at parse time. */
		if (ph->type == PT_LOAD && ph->filesz &&
		    note->offset >= ph->offset &&
		    note->offset - ph->offset <= ph->filesz &&
		    note->filesz <= ph->filesz - (note->offset - ph->offset))
			return true;
	}
	return false;
}

/* Is the note section inside a PT_NOTE's file bytes (read as that segment)? */
static bool mapped_note(const struct elfsig_elf *elf, const struct elfsig_shdr *sh)
{
	unsigned int i;

	for (i = 0; i < elf->phnum; i++) {
		const struct elfsig_phdr *ph = &elf->phdrs[i];

		if (ph->type == PT_NOTE && sh->offset >= ph->offset &&
		    sh->offset - ph->offset <= ph->filesz &&
		    sh->size <= ph->filesz - (sh->offset - ph->offset))
			return true;
	}
	return false;
}

/*
 * Walk the notes of program header @idx. Return: 0 (*@found counts the
 * ELFSIG flags notes, the last one's word in *@flags), or -EBADMSG with
 * a message when @report, or another negative errno.
 */
static int scan_notes(const struct elfsig_elf *elf, const struct elfsig_phdr *ph,
		      unsigned int idx, bool report, unsigned int *found,
		      uint32_t *flags)
{
	uint64_t align = ph->align == 8 ? 8 : 4, pos = 0;
	const char *n = elf->name;
	int ret;

	if (!elfsig_range_ok(ph->offset, ph->filesz, elf->size)) {
		if (report)
			elfsig_err("%s: note segment %u extends past end of file", n, idx);
		return -EBADMSG;
	}
	while (pos < ph->filesz) {
		uint64_t left = ph->filesz - pos, namesz, descsz, desc_off, entry;
		uint8_t hdr[NOTE_HDR], name[sizeof(note_name)], desc[4];
		uint32_t type;

		if (left < NOTE_HDR) {
			if (report)
				elfsig_err("%s: note segment %u: truncated note at offset %llu",
					   n, idx, (unsigned long long)pos);
			return -EBADMSG;
		}
		ret = elfsig_pread_full(elf->fd, hdr, NOTE_HDR, ph->offset + pos, n);
		if (ret)
			return ret;
		namesz = elfsig_get32(elf, hdr);
		descsz = elfsig_get32(elf, hdr + 4);
		type = elfsig_get32(elf, hdr + 8);
		/* As the gABI and the kernel lay notes out: the descriptor
		 * and the next note start aligned from the note's start. */
		desc_off = (NOTE_HDR + namesz + align - 1) & ~(align - 1);
		entry = (desc_off + descsz + align - 1) & ~(align - 1);
		if (entry > left) {
			if (report)
				elfsig_err("%s: note segment %u: note at offset %llu extends past the segment",
					   n, idx, (unsigned long long)pos);
			return -EBADMSG;
		}
		if (namesz == sizeof(note_name) && type == ELFSIG_NOTE_FLAGS) {
			ret = elfsig_pread_full(elf->fd, name, sizeof(name),
						ph->offset + pos + NOTE_HDR, n);
			if (ret)
				return ret;
		}
		if (namesz == sizeof(note_name) && type == ELFSIG_NOTE_FLAGS &&
		    !memcmp(name, note_name, sizeof(note_name))) {
			if (descsz != sizeof(desc)) {
				if (report)
					elfsig_err("%s: note segment %u: ELFSIG flags note of %llu bytes, not 4",
						   n, idx, (unsigned long long)descsz);
				return -EBADMSG;
			}
			ret = elfsig_pread_full(elf->fd, desc, sizeof(desc),
						ph->offset + pos + desc_off, n);
			if (ret)
				return ret;
			*flags = elfsig_get32(elf, desc);
			(*found)++;
		}
		pos += entry;
	}
	return 0;
}

int elfsig_elf_flags(const struct elfsig_elf *elf, enum elfsig_note_state *state,
		     uint32_t *flags)
{
	unsigned int i, in_load = 0, outside = 0;
	uint32_t word = 0, other = 0;
	int ret;

	*state = ELFSIG_NOTE_ABSENT;
	*flags = 0;
	for (i = 0; i < elf->phnum; i++) {
		const struct elfsig_phdr *ph = &elf->phdrs[i];

		if (ph->type != PT_NOTE || !ph->filesz)
			continue;
		if (covered(elf, ph)) {
			/* What the kernel reads: malformed means refused. */
			ret = scan_notes(elf, ph, i, true, &in_load, &word);
			if (ret)
				return ret;
		} else {
			/* Not signed and ignored by the kernel: only looked at. */
			unsigned int seen = 0;

			if (scan_notes(elf, ph, i, false, &seen, &other) == 0)
				outside += seen;
		}
	}
	/* A note section no PT_NOTE maps: the kernel never reads it. */
	for (i = 0; i < elf->shnum && !in_load; i++) {
		const struct elfsig_shdr *sh = &elf->shdrs[i];
		struct elfsig_phdr as_seg = {
			.type = PT_NOTE, .offset = sh->offset, .filesz = sh->size,
			.align = sh->addralign,
		};
		unsigned int seen = 0;

		if (sh->type != SHT_NOTE || !sh->size || mapped_note(elf, sh))
			continue;
		if (scan_notes(elf, &as_seg, i, false, &seen, &other) == 0)
			outside += seen;
	}
	if (in_load > 1) {
		elfsig_err("%s: %u ELFSIG flags notes: at most one is allowed",
			   elf->name, in_load);
		return -EBADMSG;
	}
	if (in_load) {
		*state = ELFSIG_NOTE_COVERED;
		*flags = word;
	} else if (outside) {
		*state = ELFSIG_NOTE_UNCOVERED;
		*flags = other;
	}
	return 0;
}

int elfsig_read_flags(const char *path, enum elfsig_note_state *state,
		      uint32_t *flags)
{
	struct elfsig_elf elf;
	int ret;

	*state = ELFSIG_NOTE_ABSENT;
	*flags = 0;
	/* With the sections where they parse: a note section counts too. */
	elfsig_mute(true);
	ret = elfsig_elf_open(&elf, path, path, ELFSIG_PARSE_ALL);
	elfsig_mute(false);
	if (ret)
		ret = elfsig_elf_open(&elf, path, path, ELFSIG_PARSE_SEGMENTS);
	if (ret)
		return ret;
	ret = elfsig_elf_flags(&elf, state, flags);
	elfsig_elf_release(&elf);
	close(elf.fd);
	return ret;
}
