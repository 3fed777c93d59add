# A kernel for the call stack cases (case_stacks*): known symbols at known
# offsets from _stext, linked at 0xffffffff81000000; the trace (lket-gen
# stacks) says it ran elsewhere.  Its build ID is the note below (the
# linker adds none: -Wl,--build-id=none).
	.section .note.lket, "a", @note
	.balign 4
	.long 4, 20, 3			# namesz, descsz, NT_GNU_BUILD_ID
	.asciz "GNU"
	.fill 20, 1, 0x4b		# 4b4b...
	.text
	.globl _stext
_stext:
	.globl ksys_write
	.type ksys_write, @function
ksys_write:				# _stext + 0x0, 32 bytes
	.fill 32, 1, 0x90
	.size ksys_write, 32
	.globl do_syscall_64
	.type do_syscall_64, @function
do_syscall_64:				# _stext + 0x20, 64 bytes
	.fill 64, 1, 0x90
	.size do_syscall_64, 64
