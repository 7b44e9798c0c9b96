// SPDX-License-Identifier: GPL-2.0
/*
 * recordmcount - record the fentry call sites of an object in __mcount_loc
 *
 * Usage: recordmcount [-w] FILE.o...
 *        recordmcount -V vmlinux
 *
 * Kbuild runs this on every object compiled with CC_FLAGS_FTRACE.  With
 * -mfentry, GCC starts each traced function with "call __fentry__"; the
 * dynamic ftrace core must know where every one of those sites is, so that
 * it can make them calls only while someone traces.  This tool finds them
 * from the relocations against __fentry__, turns each call into the 5-byte
 * NOP the kernel uses for an untraced site (its relocation becomes
 * R_X86_64_NONE, so that the linker leaves the NOP alone), and appends two
 * sections to the object:
 *
 *   __mcount_loc       one 8-byte slot per call site, in file order
 *   .rela__mcount_loc  an R_X86_64_64 relocation per slot, against the
 *                      section symbol of the text section + offset of
 *                      the call instruction
 *
 * The linker collects __mcount_loc into the table the core walks at boot
 * (__start_mcount_loc..__stop_mcount_loc, sorted by scripts/sorttable when
 * BUILDTIME_MCOUNT_SORT), and the module loader relocates a module's copy.
 *
 * Relocations are made against section symbols where the assembler
 * emitted one, else against a local or global function symbol, never a
 * weak one: a weak function overridden at link time would send its record
 * to the overriding function's address (see anchor()).
 *
 * Only what the x86_64 kernel build produces is accepted: 64-bit
 * little-endian relocatable ELF for EM_X86_64.  Anything unexpected (a
 * __fentry__ reference that is not a 5-byte call, a call with no local
 * anchor symbol) fails the build instead of producing a wrong table; -w
 * turns the non-call references into warnings.  An object that already has
 * __mcount_loc is left alone, so running twice is harmless.
 *
 * The file is rewritten whole: original bytes first, then the new section
 * data, a grown copy of the section-name table and a new section header
 * table.  The old name table stays behind unreferenced.
 *
 * So neither boot nor module load writes a site: they only build the
 * records, and each site is compared with the NOP before it is first
 * patched.  What the linker adds is handled by -V, run on vmlinux after
 * sorttable: a weak function the linker overrode keeps its body, and its
 * NOP and record, but loses its symbol.  Such a site is dead code; -V
 * drops its entry from the table (see prune_vmlinux()), so that boot need
 * not ask kallsyms about every site to find them.
 *
 * -V also takes arm64's vmlinux, where the compiler made the sites
 * (-fpatchable-function-entry) and nothing runs on the objects: there it
 * sorts the table, drops the dead sites and writes the one instruction
 * each live site gets for good before it is first patched (a64_prepare()).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MCOUNT_SEC	"__mcount_loc"
#define MCOUNT_RELA_SEC	".rela__mcount_loc"
#define FENTRY_SYM	"__fentry__"
#define CALL_OPCODE	0xe8	/* call rel32 */
#define START_SYM	"__start_mcount_loc"
#define STOP_SYM	"__stop_mcount_loc"
/* How far into its function a live site may be: after an ENDBR64. */
#define SITE_MAX_OFFSET	4

/* The kernel's 5-byte NOP (x86_nops[5]): what an untraced site holds. */
static const unsigned char nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

struct obj {
	const char *path;
	unsigned char *buf;
	size_t size;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	unsigned int shnum;
	unsigned int shstrndx;
	unsigned int symtab;		/* section index of .symtab */
	Elf32_Word *symtab_shndx;	/* extended section indices, or NULL */
};

/* One recorded call site: relocate slot to sym + addend. */
struct site {
	unsigned int sym;
	Elf64_Sxword addend;
};

struct sites {
	struct site *v;
	size_t n, cap;
};

static bool warn_only;

static int fail(const struct obj *o, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "recordmcount: %s: ", o->path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* True if [off, off + len) lies inside the file. */
static bool in_file(const struct obj *o, uint64_t off, uint64_t len)
{
	return off <= o->size && len <= o->size - off;
}

static const char *sec_name(const struct obj *o, unsigned int i)
{
	const Elf64_Shdr *s = &o->sh[o->shstrndx];
	Elf64_Word name = o->sh[i].sh_name;

	if (name >= s->sh_size)
		return "";
	return (const char *)o->buf + s->sh_offset + name;
}

static int find_section(const struct obj *o, const char *name)
{
	unsigned int i;

	for (i = 1; i < o->shnum; i++)
		if (!strcmp(sec_name(o, i), name))
			return i;
	return -1;
}

/*
 * Read @path: an x86_64 relocatable object, or with @vmlinux a linked
 * kernel (x86_64: ET_EXEC; arm64, linked position-independent: ET_DYN).
 */
static int load(struct obj *o, const char *path, bool vmlinux)
{
	struct stat st;
	unsigned int i, shndx = 0;
	ssize_t got;
	size_t done = 0;
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = path;
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0)
		return fail(o, "%s", strerror(errno));
	o->size = st.st_size;
	o->buf = malloc(o->size ? o->size : 1);
	if (!o->buf) {
		close(fd);
		return fail(o, "out of memory");
	}
	while (done < o->size) {
		got = read(fd, o->buf + done, o->size - done);
		if (got <= 0) {
			close(fd);
			return fail(o, "short read");
		}
		done += got;
	}
	close(fd);

	o->eh = (Elf64_Ehdr *)o->buf;
	if (o->size < sizeof(Elf64_Ehdr) ||
	    memcmp(o->eh->e_ident, ELFMAG, SELFMAG))
		return fail(o, "not an ELF file");
	if (o->eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    o->eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return fail(o, "not a 64-bit little-endian ELF file");
	if (!vmlinux && (o->eh->e_machine != EM_X86_64 || o->eh->e_type != ET_REL))
		return fail(o, "not an x86_64 relocatable object");
	if (vmlinux && !(o->eh->e_machine == EM_X86_64 && o->eh->e_type == ET_EXEC) &&
	    !(o->eh->e_machine == EM_AARCH64 && o->eh->e_type == ET_DYN))
		return fail(o, "not an x86_64 or arm64 kernel");
	if (o->eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(o, o->eh->e_shoff, sizeof(Elf64_Shdr)))
		return fail(o, "bad section header table");

	o->sh = (Elf64_Shdr *)(o->buf + o->eh->e_shoff);
	/* Past SHN_LORESERVE sections, the real counts live in section 0. */
	if (!o->eh->e_shnum && o->sh[0].sh_size > 0xffffffffULL)
		return fail(o, "bad section count");
	o->shnum = o->eh->e_shnum ? o->eh->e_shnum : o->sh[0].sh_size;
	o->shstrndx = o->eh->e_shstrndx == SHN_XINDEX ?
		      o->sh[0].sh_link : o->eh->e_shstrndx;
	if (!in_file(o, o->eh->e_shoff, (uint64_t)o->shnum * sizeof(Elf64_Shdr)) ||
	    o->shstrndx >= o->shnum)
		return fail(o, "bad section header table");

	for (i = 0; i < o->shnum; i++) {
		if (o->sh[i].sh_type != SHT_NOBITS &&
		    !in_file(o, o->sh[i].sh_offset, o->sh[i].sh_size))
			return fail(o, "section %u lies outside the file", i);
		if (o->sh[i].sh_type == SHT_SYMTAB)
			o->symtab = i;
		if (o->sh[i].sh_type == SHT_SYMTAB_SHNDX)
			shndx = i;
		if (o->sh[i].sh_type != SHT_NOBITS && o->sh[i].sh_size &&
		    (o->sh[i].sh_type == SHT_STRTAB) &&
		    o->buf[o->sh[i].sh_offset + o->sh[i].sh_size - 1])
			return fail(o, "string table %u is not NUL-terminated", i);
	}
	if (o->symtab && o->sh[o->symtab].sh_link >= o->shnum)
		return fail(o, "bad symbol string table link");
	if (o->symtab && o->sh[o->shstrndx].sh_type != SHT_STRTAB)
		return fail(o, "bad section name table");
	/* Extended section indices: one per symbol of our symbol table. */
	if (shndx && o->symtab && o->sh[shndx].sh_link == o->symtab) {
		if (o->sh[shndx].sh_size / sizeof(Elf32_Word) <
		    o->sh[o->symtab].sh_size / sizeof(Elf64_Sym))
			return fail(o, "short extended section index table");
		o->symtab_shndx = (Elf32_Word *)(o->buf + o->sh[shndx].sh_offset);
	}
	return 0;
}

static Elf64_Sym *symbols(const struct obj *o, size_t *n)
{
	const Elf64_Shdr *s = &o->sh[o->symtab];

	*n = s->sh_size / sizeof(Elf64_Sym);
	return (Elf64_Sym *)(o->buf + s->sh_offset);
}

static const char *sym_name(const struct obj *o, const Elf64_Sym *sym)
{
	const Elf64_Shdr *str = &o->sh[o->sh[o->symtab].sh_link];

	if (sym->st_name >= str->sh_size)
		return "";
	return (const char *)o->buf + str->sh_offset + sym->st_name;
}

/* The section a symbol is defined in; 0 for none of ours (undefined,
 * absolute, common, or an escape we cannot resolve). */
static unsigned int sym_shndx(const struct obj *o, const Elf64_Sym *sym,
			      size_t idx)
{
	if (sym->st_shndx == SHN_XINDEX)
		return o->symtab_shndx ? o->symtab_shndx[idx] : 0;
	if (sym->st_shndx >= SHN_LORESERVE)
		return 0;
	return sym->st_shndx;
}

/*
 * The symbol a record in section @sec at @off is relocated against, and the
 * addend that goes with it.  In order of preference: the section symbol;
 * the nearest local symbol; the nearest global one (nearest below @off
 * first, then above, with a negative addend).  A weak symbol is never
 * used: the linker may bind it to another object's definition, and the
 * record would follow it there.  Recent assemblers leave out section
 * symbols that nothing refers to, which is why the fallbacks exist.
 * Returns -1 if no symbol qualifies.
 */
static long anchor(const struct obj *o, unsigned int sec, uint64_t off,
		   Elf64_Sxword *addend)
{
	/* [binding][0: at or below @off, 1: above] */
	size_t i, n, cand[2][2] = { { 0 } }, best = 0;
	Elf64_Sym *sym = symbols(o, &n);

	for (i = 1; i < n; i++) {
		unsigned char bind = ELF64_ST_BIND(sym[i].st_info);
		int above = sym[i].st_value > off;
		size_t *slot;

		if (sym_shndx(o, &sym[i], i) != sec)
			continue;
		if (ELF64_ST_TYPE(sym[i].st_info) == STT_SECTION) {
			*addend = off;
			return i;
		}
		if (bind != STB_LOCAL && bind != STB_GLOBAL)
			continue;
		slot = &cand[bind == STB_GLOBAL][above];
		if (!*slot || (above ? sym[i].st_value < sym[*slot].st_value :
				       sym[i].st_value > sym[*slot].st_value))
			*slot = i;
	}
	for (i = 0; i < 4 && !best; i++)
		best = cand[i / 2][i % 2];
	if (!best)
		return -1;
	*addend = (Elf64_Sxword)(off - sym[best].st_value);
	return best;
}

static int add_site(struct sites *s, unsigned int sym, Elf64_Sxword addend)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct site *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n].sym = sym;
	s->v[s->n].addend = addend;
	s->n++;
	return 0;
}

/*
 * Collect the call sites in the text section that relocation section @r
 * patches, and make each one the NOP (in @o's buffer, which write_out()
 * writes back).
 */
static int scan_rela(const struct obj *o, unsigned int r, long fentry,
		     struct sites *out)
{
	const Elf64_Shdr *rs = &o->sh[r];
	const Elf64_Shdr *text;
	Elf64_Rela *rela;
	size_t i, n;

	if (rs->sh_info >= o->shnum)
		return fail(o, "%s: bad target section", sec_name(o, r));
	text = &o->sh[rs->sh_info];
	if (!(text->sh_flags & SHF_EXECINSTR) || text->sh_type != SHT_PROGBITS)
		return 0;	/* data may point at __fentry__; not a call site */

	rela = (Elf64_Rela *)(o->buf + rs->sh_offset);
	n = rs->sh_size / sizeof(*rela);
	for (i = 0; i < n; i++) {
		unsigned int type = ELF64_R_TYPE(rela[i].r_info);
		uint64_t off = rela[i].r_offset;
		Elf64_Sxword addend;
		long sym;

		if ((long)ELF64_R_SYM(rela[i].r_info) != fentry)
			continue;
		/* "call __fentry__" is e8 <rel32>, the rel32 relocated PC-relative. */
		if ((type != R_X86_64_PLT32 && type != R_X86_64_PC32) ||
		    rela[i].r_addend != -4 || off < 1 || off > text->sh_size ||
		    text->sh_size - off < 4 ||
		    o->buf[text->sh_offset + off - 1] != CALL_OPCODE) {
			if (warn_only) {
				fprintf(stderr, "recordmcount: %s: warning: %s+%#llx: not a call, not recorded\n",
					o->path, sec_name(o, rs->sh_info),
					(unsigned long long)off);
				continue;
			}
			return fail(o, "%s+%#llx: reference to %s is not a call",
				    sec_name(o, rs->sh_info),
				    (unsigned long long)off, FENTRY_SYM);
		}
		sym = anchor(o, rs->sh_info, off - 1, &addend);
		if (sym < 0)
			return fail(o, "%s: no symbol to anchor call sites to",
				    sec_name(o, rs->sh_info));
		if (add_site(out, sym, addend))
			return fail(o, "out of memory");
		memcpy(o->buf + text->sh_offset + off - 1, nop5, sizeof(nop5));
		rela[i].r_info = ELF64_R_INFO(ELF64_R_SYM(rela[i].r_info),
					      R_X86_64_NONE);
	}
	return 0;
}

static size_t align8(size_t x)
{
	return (x + 7) & ~(size_t)7;
}

/* Write @o with the two new sections describing @s to @path, atomically. */
static int write_out(const struct obj *o, const struct sites *s)
{
	const Elf64_Shdr *oldstr = &o->sh[o->shstrndx];
	size_t loc_off, rela_off, str_off, sh_off, total, i;
	unsigned int nsec = o->shnum + 2, loc = o->shnum, rel = o->shnum + 1;
	size_t loc_name = oldstr->sh_size;
	size_t rela_name = loc_name + sizeof(MCOUNT_SEC);
	size_t str_size = rela_name + sizeof(MCOUNT_RELA_SEC);
	unsigned char *b;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;
	Elf64_Rela *rela;
	char *tmp;
	int fd, ret = -1;

	loc_off = align8(o->size);
	rela_off = loc_off + s->n * 8;
	str_off = rela_off + s->n * sizeof(Elf64_Rela);
	sh_off = align8(str_off + str_size);
	total = sh_off + nsec * sizeof(Elf64_Shdr);

	b = calloc(1, total);
	if (!b)
		return fail(o, "out of memory");
	memcpy(b, o->buf, o->size);

	/* __mcount_loc holds zeroes; the linker fills in the addresses. */
	rela = (Elf64_Rela *)(b + rela_off);
	for (i = 0; i < s->n; i++) {
		rela[i].r_offset = i * 8;
		rela[i].r_info = ELF64_R_INFO(s->v[i].sym, R_X86_64_64);
		rela[i].r_addend = s->v[i].addend;
	}
	memcpy(b + str_off, o->buf + oldstr->sh_offset, oldstr->sh_size);
	memcpy(b + str_off + loc_name, MCOUNT_SEC, sizeof(MCOUNT_SEC));
	memcpy(b + str_off + rela_name, MCOUNT_RELA_SEC, sizeof(MCOUNT_RELA_SEC));

	sh = (Elf64_Shdr *)(b + sh_off);
	memcpy(sh, o->sh, o->shnum * sizeof(Elf64_Shdr));
	sh[o->shstrndx].sh_offset = str_off;
	sh[o->shstrndx].sh_size = str_size;

	sh[loc] = (Elf64_Shdr) {
		.sh_name = loc_name, .sh_type = SHT_PROGBITS,
		.sh_flags = SHF_ALLOC, .sh_offset = loc_off,
		.sh_size = s->n * 8, .sh_addralign = 8,
	};
	sh[rel] = (Elf64_Shdr) {
		.sh_name = rela_name, .sh_type = SHT_RELA,
		.sh_flags = SHF_INFO_LINK, .sh_offset = rela_off,
		.sh_size = s->n * sizeof(Elf64_Rela), .sh_link = o->symtab,
		.sh_info = loc, .sh_addralign = 8,
		.sh_entsize = sizeof(Elf64_Rela),
	};

	eh = (Elf64_Ehdr *)b;
	eh->e_shoff = sh_off;
	if (nsec >= SHN_LORESERVE) {
		eh->e_shnum = 0;
		sh[0].sh_size = nsec;
	} else {
		eh->e_shnum = nsec;
	}

	tmp = malloc(strlen(o->path) + sizeof(".rmc-tmp"));
	if (!tmp) {
		free(b);
		return fail(o, "out of memory");
	}
	sprintf(tmp, "%s.rmc-tmp", o->path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fail(o, "%s: %s", tmp, strerror(errno));
	} else if (write(fd, b, total) != (ssize_t)total || fsync(fd) ||
		   close(fd)) {
		fail(o, "%s: write failed", tmp);
		unlink(tmp);
	} else if (rename(tmp, o->path)) {
		fail(o, "rename: %s", strerror(errno));
		unlink(tmp);
	} else {
		ret = 0;
	}
	free(tmp);
	free(b);
	return ret;
}

static int process(const char *path)
{
	struct sites s = { 0 };
	struct obj o;
	size_t i, n;
	Elf64_Sym *sym;
	long fentry = -1;
	int ret = -1;

	if (load(&o, path, false))
		goto out;
	if (!o.symtab || find_section(&o, MCOUNT_SEC) >= 0) {
		ret = 0;	/* nothing to link against, or done already */
		goto out;
	}
	sym = symbols(&o, &n);
	for (i = 1; i < n; i++) {
		if (sym[i].st_shndx == SHN_UNDEF &&
		    !strcmp(sym_name(&o, &sym[i]), FENTRY_SYM)) {
			fentry = i;
			break;
		}
	}
	if (fentry < 0) {
		ret = 0;	/* no traced function in this object */
		goto out;
	}
	for (i = 1; i < o.shnum; i++) {
		if (o.sh[i].sh_type == SHT_RELA && o.sh[i].sh_link == o.symtab &&
		    scan_rela(&o, i, fentry, &s))
			goto out;
	}
	ret = s.n ? write_out(&o, &s) : 0;
out:
	free(s.v);
	free(o.buf);
	return ret;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The start addresses of @o's functions (symbols of type STT_FUNC defined
 * in executable sections), sorted; NULL on allocation failure.
 */
static uint64_t *function_starts(const struct obj *o, size_t *count)
{
	size_t i, n, k = 0;
	Elf64_Sym *sym = symbols(o, &n);
	uint64_t *v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (i = 1; i < n; i++) {
		unsigned int sec = sym_shndx(o, &sym[i], i);

		if (ELF64_ST_TYPE(sym[i].st_info) == STT_FUNC && sec &&
		    sec < o->shnum && (o->sh[sec].sh_flags & SHF_EXECINSTR))
			v[k++] = sym[i].st_value;
	}
	qsort(v, k, sizeof(*v), cmp_u64);
	*count = k;
	return v;
}

/* Whether a function starts at @ip or at most @max bytes before it. */
static bool at_function_start(const uint64_t *starts, size_t n, uint64_t ip,
			      uint64_t max)
{
	size_t lo = 0, hi = n;

	/* the first start above @ip */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (starts[mid] <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && ip - starts[lo - 1] <= max;
}

/* The value of the symbol @name in @o, or 0. */
static uint64_t symbol_value(const struct obj *o, const char *name)
{
	size_t i, n;
	Elf64_Sym *sym = symbols(o, &n);

	for (i = 1; i < n; i++)
		if (!strcmp(sym_name(o, &sym[i]), name))
			return sym[i].st_value;
	return 0;
}

/*
 * The bytes of @o at addresses [@addr, @addr + @len), inside one section
 * with data in the file and all of @flags, or NULL.
 */
static void *at_address(const struct obj *o, uint64_t addr, uint64_t len,
			uint64_t flags)
{
	unsigned int i;

	for (i = 1; i < o->shnum; i++) {
		const Elf64_Shdr *sh = &o->sh[i];

		if (sh->sh_type == SHT_PROGBITS && (sh->sh_flags & flags) == flags &&
		    sh->sh_addr <= addr && addr - sh->sh_addr <= sh->sh_size &&
		    len <= sh->sh_size - (addr - sh->sh_addr))
			return o->buf + sh->sh_offset + (addr - sh->sh_addr);
	}
	return NULL;
}

/*
 * arm64 (-fpatchable-function-entry=3,1): a table entry names
 * the NOP before a function (its slot word); the function opens with two
 * NOPs, the first made "mov x9, x30" for good, the second the site proper
 * (what FTRACE_SITE_MAX_OFFSET is measured from; see asm/ftrace.h).
 */
#define A64_NOP			0xd503201fu
#define A64_MOV_X9_LR		0xaa1e03e9u
#define A64_SITE_OFFSET		8
#define A64_SITE_MAX_OFFSET	8

/*
 * arm64: vmlinux is linked position-independent with its dynamic
 * relocations left unapplied, so the table's slots hold zeros and each
 * gets its address from an R_AARCH64_RELATIVE in .rela.dyn at boot.
 * Return those relocations, one per slot (@n of them from @start), or
 * NULL after saying why.
 */
static Elf64_Rela **a64_table_relocs(const struct obj *o, uint64_t start, size_t n)
{
	Elf64_Rela **slot = calloc(n ? n : 1, sizeof(*slot));
	int sec = find_section(o, ".rela.dyn");
	Elf64_Rela *r, *end;
	size_t i;

	if (!slot) {
		fail(o, "out of memory");
		return NULL;
	}
	if (sec < 0 || o->sh[sec].sh_type != SHT_RELA) {
		fail(o, "no .rela.dyn");
		goto bad;
	}
	r = (Elf64_Rela *)(o->buf + o->sh[sec].sh_offset);
	end = r + o->sh[sec].sh_size / sizeof(*r);
	for (; r < end; r++) {
		if (r->r_offset < start || r->r_offset - start >= n * 8)
			continue;
		i = (r->r_offset - start) / 8;
		if (ELF64_R_TYPE(r->r_info) != R_AARCH64_RELATIVE ||
		    r->r_offset % 8 || slot[i]) {
			fail(o, "table slot %zu: unexpected relocation", i);
			goto bad;
		}
		slot[i] = r;
	}
	for (i = 0; i < n; i++) {
		if (!slot[i]) {
			fail(o, "table slot %zu: no R_AARCH64_RELATIVE", i);
			goto bad;
		}
	}
	return slot;
bad:
	free(slot);
	return NULL;
}

/*
 * arm64's part of -V: sort the table, drop the dead sites, and write
 * "mov x9, x30" over the first NOP of each live function, which boot did
 * one site at a time with a kallsyms look-up for each.  The slot word and
 * the site must be NOPs and the first word a NOP (or the mov already: a
 * second run changes nothing).  The sorting and dropping are done on the
 * relocations' addends: the slots themselves hold zeros.  Return the live
 * count, or -1.
 */
static long a64_prepare(const struct obj *o, uint64_t start, size_t n,
			const uint64_t *starts, size_t nstarts)
{
	Elf64_Rela **slot = a64_table_relocs(o, start, n);
	uint64_t *addr = malloc((n ? n : 1) * sizeof(*addr));
	size_t i, live = 0;
	long ret = -1;

	if (!slot || !addr) {
		if (slot)
			fail(o, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		addr[i] = slot[i]->r_addend;
	qsort(addr, n, sizeof(*addr), cmp_u64);
	for (i = 0; i < n; i++) {
		uint32_t *w;

		if ((live && addr[i] == addr[live - 1]) ||
		    !at_function_start(starts, nstarts, addr[i] + A64_SITE_OFFSET,
				       A64_SITE_MAX_OFFSET))
			continue;
		w = at_address(o, addr[i], 12, SHF_ALLOC | SHF_EXECINSTR);
		if (!w || w[0] != A64_NOP || w[2] != A64_NOP ||
		    (w[1] != A64_NOP && w[1] != A64_MOV_X9_LR)) {
			fail(o, "%#llx: not a patchable entry",
			     (unsigned long long)addr[i]);
			goto out;
		}
		w[1] = A64_MOV_X9_LR;
		addr[live++] = addr[i];
	}
	if (!live) {
		fail(o, "no live call site");
		goto out;
	}
	for (i = 0; i < n; i++)
		slot[i]->r_addend = addr[i < live ? i : live - 1];
	ret = live;
out:
	free(addr);
	free(slot);
	return ret;
}

/*
 * x86_64's part of -V: the sites are NOPs already and the table sorted
 * (scripts/recordmcount on each object, then sorttable); drop the dead
 * ones.  Return the live count.
 */
static long x86_prune(uint64_t *table, size_t n, const uint64_t *starts,
		      size_t nstarts)
{
	size_t i, live = 0;

	for (i = 0; i < n; i++)
		if (table[i] && at_function_start(starts, nstarts, table[i],
						  SITE_MAX_OFFSET))
			table[live++] = table[i];
	for (i = live; i < n; i++)
		table[i] = live ? table[live - 1] : 0;
	return live;
}

/*
 * -V: drop vmlinux's records of dead sites, those of the weak functions
 * the linker overrode (no function symbol at or just before the site: the
 * kernel's own test, FTRACE_SITE_MAX_OFFSET, done here once instead of
 * with a kallsyms look-up per site at every boot), and on arm64 make the
 * live sites ready (a64_prepare()).  The live entries keep their sorted
 * order at the start of the table; the slots left over repeat the last
 * live entry, which the kernel drops as a duplicate.  A copy rather than a
 * zero because a relocatable kernel adds its load offset to every slot.
 * The file is rewritten in place.
 */
static int prune_vmlinux(const char *path)
{
	uint64_t start, stop, *table, *starts = NULL;
	size_t n, nstarts;
	long live = -1;
	struct obj o;
	int fd, ret = -1;

	if (load(&o, path, true))
		goto out;
	if (!o.symtab) {
		fail(&o, "no symbol table");
		goto out;
	}
	start = symbol_value(&o, START_SYM);
	stop = symbol_value(&o, STOP_SYM);
	n = (stop - start) / 8;
	table = at_address(&o, start, stop - start, SHF_ALLOC);
	if (!start || stop < start || (stop - start) % 8 || !table) {
		fail(&o, "no %s..%s table in the file", START_SYM, STOP_SYM);
		goto out;
	}
	starts = function_starts(&o, &nstarts);
	if (!starts) {
		fail(&o, "out of memory");
		goto out;
	}
	if (o.eh->e_machine == EM_AARCH64)
		live = a64_prepare(&o, start, n, starts, nstarts);
	else
		live = x86_prune(table, n, starts, nstarts);
	if (live < 0)
		goto out;

	fd = open(path, O_WRONLY);
	if (fd < 0 || pwrite(fd, o.buf, o.size, 0) != (ssize_t)o.size || fsync(fd)) {
		fail(&o, "write failed: %s", strerror(errno));
	} else {
		printf("  MCOUNT  %s: %ld call sites%s, %zu in overridden weak functions dropped\n",
		       path, live, o.eh->e_machine == EM_AARCH64 ? " prepared" : "",
		       n - live);
		ret = 0;
	}
	if (fd >= 0)
		close(fd);
out:
	free(starts);
	free(o.buf);
	return ret;
}

int main(int argc, char **argv)
{
	int i = 1, ret = 0;

	if (argc == 3 && !strcmp(argv[1], "-V"))
		return prune_vmlinux(argv[2]) ? 1 : 0;
	if (i < argc && !strcmp(argv[i], "-w")) {
		warn_only = true;
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: recordmcount [-w] file.o...\n"
			"       recordmcount -V vmlinux\n");
		return 2;
	}
	for (; i < argc; i++)
		if (process(argv[i]))
			ret = 1;
	return ret;
}
