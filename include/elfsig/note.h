/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * <elfsig/note.h> - put the ELFSIG flags note into a program.
 *
 * A program that must map anonymous executable memory (a JIT) says so in
 * an ELF note that the signature covers: name "ELFSIG", type
 * ELFSIG_NOTE_FLAGS, a 4-byte word of ELFSIG_FLAG_* bits in the file's
 * byte order (uapi <linux/elfsig.h>, docs/format.md). In exactly one
 * source file of the program, at file scope:
 *
 *	#include <elfsig/note.h>
 *	ELFSIG_NOTE_ANON_EXEC();
 *
 * The linker puts the section .note.elfsig into a PT_NOTE inside the
 * first read-only PT_LOAD, as it does .note.gnu.build-id; `signelf show`
 * prints the flags and says whether the signature covers them. The
 * kernel then verifies the image at exec but does not treat the process
 * as verified. A static library's object carrying the note is linked
 * only if something else in it is used; two notes make the file
 * malformed to signelf.
 */
#ifndef ELFSIG_NOTE_H
#define ELFSIG_NOTE_H

/* The values of uapi <linux/elfsig.h>, spelled the same way. */
#define ELFSIG_NOTE_NAME	"ELFSIG"
#define ELFSIG_NOTE_FLAGS	1
#define ELFSIG_FLAG_ANON_EXEC	(1U << 0)

/* ELFSIG_FLAG_ANON_EXEC as the assembler reads it (no "U" suffix). */
#define ELFSIG_NOTE_ANON_EXEC_BITS	1

#define ELFSIG_NOTE_STR_(x)	#x
#define ELFSIG_NOTE_STR(x)	ELFSIG_NOTE_STR_(x)

/**
 * ELFSIG_NOTE_ASM() - the assembly of the note
 * @bits: the flags, a plain integer constant the assembler can read (1,
 *        0x1, (1 << 0)), not a C expression with suffixes
 *
 * The layout is the gABI note with 4-byte
 * alignment, the same for ELF32 and ELF64: n_namesz 7, n_descsz 4,
 * n_type 1, "ELFSIG\0" padded to 8 bytes, then the flags word; .long
 * writes the target's byte order. The section type is spelled with a
 * percent sign, which every gas target reads (on ARM the at sign starts
 * a comment).
 */
#define ELFSIG_NOTE_ASM(bits)						\
	"\t.pushsection .note.elfsig, \"a\", %note\n"			\
	"\t.balign 4\n"							\
	"\t.long 7\n"		/* n_namesz: "ELFSIG" and its NUL */	\
	"\t.long 4\n"		/* n_descsz */				\
	"\t.long " ELFSIG_NOTE_STR(ELFSIG_NOTE_FLAGS) "\n"		\
	"\t.asciz \"" ELFSIG_NOTE_NAME "\"\n"				\
	"\t.balign 4\n"							\
	"\t.long " ELFSIG_NOTE_STR(bits) "\n"				\
	"\t.popsection\n"

/**
 * ELFSIG_NOTE() - carry the ELFSIG flags note
 * @bits: the flags, an assembler integer (see ELFSIG_NOTE_ASM())
 *
 * Use once per program, at file scope.
 */
#define ELFSIG_NOTE(bits)	__asm__(ELFSIG_NOTE_ASM(bits))

/**
 * ELFSIG_NOTE_ANON_EXEC() - this program maps anonymous executable memory
 *
 * For a JIT: the kernel lets it, and does not treat it as a verified
 * process. Use once per program, at file scope.
 */
#define ELFSIG_NOTE_ANON_EXEC()	ELFSIG_NOTE(ELFSIG_NOTE_ANON_EXEC_BITS)

#endif /* ELFSIG_NOTE_H */
