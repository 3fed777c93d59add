# A module for the call stack cases (case_stacks*), a relocatable object
# as a .ko is: two functions at the start of its text.
	.section .note.gnu.build-id, "a", @note
	.balign 4
	.long 4, 20, 3			# namesz, descsz, NT_GNU_BUILD_ID
	.asciz "GNU"
	.fill 20, 1, 0x4d		# 4d4d...
	.text
	.globl mod_a
	.type mod_a, @function
mod_a:					# .text + 0x0, 16 bytes
	.fill 16, 1, 0x90
	.size mod_a, 16
	.globl mod_b
	.type mod_b, @function
mod_b:					# .text + 0x10, 16 bytes
	.fill 16, 1, 0x90
	.size mod_b, 16
