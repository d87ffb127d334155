	.globl _start
	.text
_start:	mov $60, %eax
	xor %edi, %edi
	syscall
