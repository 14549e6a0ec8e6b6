//===- FiberSwitch.S - x86-64 SysV context switch -------------------------===//
//
// void ptxjit_fiber_switch(void **SaveSP, void *NewSP)
//   Pushes what the callee must preserve, stores rsp to *SaveSP, loads NewSP
//   and pops the same frame from there. The frame, from low to high address:
//   [MXCSR:4, x87 CW:2, pad:2] r15 r14 r13 r12 rbx rbp <return address>.
//   The control words are per fiber: code that changes the rounding mode or
//   flush-to-zero must not leak that into the warp that runs next.
//
// ptxjit_fiber_entry
//   Where a fresh fiber's frame "returns" to: calls r12(r13) with rsp
//   16-byte aligned. The called function never returns.
//
//===----------------------------------------------------------------------===//

#if defined(__x86_64__) && defined(__ELF__)

  .text
  .globl ptxjit_fiber_switch
  .hidden ptxjit_fiber_switch
  .type ptxjit_fiber_switch,@function
  .p2align 4
ptxjit_fiber_switch:
  .cfi_startproc
  pushq %rbp
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset %rbp, 0
  pushq %rbx
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset %rbx, 0
  pushq %r12
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset %r12, 0
  pushq %r13
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset %r13, 0
  pushq %r14
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset %r14, 0
  pushq %r15
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset %r15, 0
  subq $8, %rsp
  .cfi_adjust_cfa_offset 8
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)

  // The other context's frame has the same layout, so the CFI still holds:
  // from here on an unwinder sees the context being resumed.
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  popq %r15
  .cfi_adjust_cfa_offset -8
  .cfi_restore %r15
  popq %r14
  .cfi_adjust_cfa_offset -8
  .cfi_restore %r14
  popq %r13
  .cfi_adjust_cfa_offset -8
  .cfi_restore %r13
  popq %r12
  .cfi_adjust_cfa_offset -8
  .cfi_restore %r12
  popq %rbx
  .cfi_adjust_cfa_offset -8
  .cfi_restore %rbx
  popq %rbp
  .cfi_adjust_cfa_offset -8
  .cfi_restore %rbp
  ret
  .cfi_endproc
  .size ptxjit_fiber_switch, .-ptxjit_fiber_switch

  .globl ptxjit_fiber_entry
  .hidden ptxjit_fiber_entry
  .type ptxjit_fiber_entry,@function
  .p2align 4
ptxjit_fiber_entry:
  .cfi_startproc
  // The outermost frame of the fiber: unwinders and debuggers stop here.
  .cfi_undefined rip
  movq %r13, %rdi
  callq *%r12
  ud2
  .cfi_endproc
  .size ptxjit_fiber_entry, .-ptxjit_fiber_entry

#else
#error "ptx-jit fibers are implemented for x86-64 ELF (SysV) only"
#endif

  .section .note.GNU-stack,"",@progbits
